import type { PackageSlip, PrinterSetting, UnitLabel } from '#shared/api/printing.ts';
import type { DomainContext } from '../domain/context.ts';
import { markFailed, markInBrowser, markPrinted, markSending, nextDueJob, requeueInterrupted } from '../domain/print-jobs.ts';
import type { PrintPort } from '../domain/print-port.ts';
import { stationSettings } from '../domain/station-settings.ts';
import type { PrintJobRecord } from '../store/index.ts';
import { packageSlipPdf, unitLabelPdf } from './pdf.ts';
import { printerName, sendZpl, type SystemPrinter } from './printers.ts';
import { packageSlipZpl, unitLabelZpl } from './zpl.ts';

/*
 * The print queue (docs/decisions/labels-and-print-queue.md): one job at a time, oldest first, to
 * the printer the station settings name at the moment of sending. Each job is marked `sending` in a
 * durable write before a byte goes out and `printed` once the printer acknowledged it; a failed send
 * waits again, the queue backs off (doubling from `firstMs` up to `maxMs`) and tries the oldest
 * waiting job again. A new job or a settings change nudges it at once.
 */

export interface PrintQueueOptions {
  /** The desktop app's system printers; absent under `serve` (a job for them then waits, saying why). */
  systemPrinter?: SystemPrinter;
  /** The first wait after a failed send (default 2 s) and the longest (default 60 s). */
  retryFirstMs?: number;
  retryMaxMs?: number;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export interface PrintQueue extends PrintPort {
  /** Stops sending; a send under way finishes (its outcome is recorded). */
  stop(): Promise<void>;
}

const isUnitLabel = (label: PrintJobRecord['label']): label is UnitLabel => 'unit_id' in label;

/** The job's bytes for its printer, and the send. */
async function send(job: PrintJobRecord, printer: PrinterSetting, systemPrinter: SystemPrinter | undefined): Promise<void> {
  const label = job.label;
  if (printer.kind === 'zpl_tcp') {
    const zpl = isUnitLabel(label) ? unitLabelZpl(label) : packageSlipZpl(label as PackageSlip);
    return sendZpl(printer.host, printer.port, zpl);
  }
  if (printer.kind === 'system') {
    if (!systemPrinter) throw new Error("System printers are the desktop app's: under serve, choose a network label printer or the browser.");
    const pdf = isUnitLabel(label) ? await unitLabelPdf(label) : await packageSlipPdf(label as PackageSlip);
    return systemPrinter.print(pdf, printer.name);
  }
  throw new Error('The browser prints its own labels.');
}

export function startPrintQueue(ctx: DomainContext, options: PrintQueueOptions = {}): PrintQueue {
  const firstMs = options.retryFirstMs ?? 2000;
  const maxMs = options.retryMaxMs ?? 60_000;
  let failures = 0;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  // After a person acted (a new job, a printer chosen) every waiting job is due, oldest first.
  let eager = true;
  let timer: NodeJS.Timeout | undefined;

  const schedule = (at: string) => {
    clearTimeout(timer);
    const delay = Math.max(0, Date.parse(at) - Date.parse(ctx.clock.now()));
    timer = setTimeout(() => nudge(), Math.min(delay, 2 ** 31 - 1));
    timer.unref();
  };

  /** Sends every due job in id order; stops at the first failure (the printer is down) and waits. */
  const pump = async () => {
    while (!stopped) {
      const { job, nextAt } = await nextDueJob(ctx, eager);
      if (!job) {
        if (nextAt) schedule(nextAt);
        return;
      }
      const { labels } = await stationSettings(ctx);
      if (labels.printer.kind === 'browser') {
        await markInBrowser(ctx, job.id);
        continue;
      }
      const sending = await markSending(ctx, job.id);
      if (!sending) continue;
      try {
        await send(sending, labels.printer, options.systemPrinter);
        await markPrinted(ctx, job.id, printerName(labels.printer));
        failures = 0;
        options.log?.info({ job: job.id, unit_id: job.unit_id, printer: printerName(labels.printer) }, 'label printed');
      } catch (error) {
        failures += 1;
        eager = false;
        const waitMs = Math.min(maxMs, firstMs * 2 ** Math.min(failures - 1, 20));
        const nextTry = new Date(Date.parse(ctx.clock.now()) + waitMs).toISOString();
        const message = error instanceof Error ? error.message : String(error);
        await markFailed(ctx, job.id, message, nextTry);
        options.log?.warn({ job: job.id, error: message, retry_in_ms: waitMs }, 'label not printed: the job waits and is sent again');
        schedule(nextTry);
        return;
      }
    }
  };

  const run = (): Promise<void> => {
    running = (async () => {
      try {
        do {
          again = false;
          await pump();
        } while (again && !stopped);
      } catch (error) {
        // A store that fails (closing, a failed commit): try again later, never crash the station.
        options.log?.warn({ error: error instanceof Error ? error.message : String(error) }, 'print queue: a step failed; it runs again shortly');
        if (!stopped) schedule(new Date(Date.parse(ctx.clock.now()) + firstMs).toISOString());
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  function nudge(): void {
    if (stopped) return;
    clearTimeout(timer);
    if (running) again = true;
    else void run();
  }

  // A job cut off mid-send by the last stop is sent again; then whatever waits goes out.
  void requeueInterrupted(ctx)
    .then((n) => {
      if (n > 0) options.log?.warn({ jobs: n }, 'print jobs cut off by the last stop are sent again (the printer had not acknowledged them)');
    })
    .catch(() => undefined)
    .finally(() => nudge());

  return {
    nudge: () => {
      // A person acted (a new job, a printer chosen): no waiting out an old backoff.
      failures = 0;
      eager = true;
      nudge();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
