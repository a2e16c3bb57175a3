import { connect } from 'node:net';
import type { PrinterSetting } from '#shared/api/printing.ts';

/*
 * Where a job's bytes go. A send resolves only when the printer acknowledged the job — the queue
 * then marks it printed and never sends it again — and rejects when it cannot say so
 * (docs/decisions/labels-and-print-queue.md).
 */

/** The desktop app's system printers (Electron's printing, in the main process): the PDF to a printer by name (null: the default). */
export interface SystemPrinter {
  print(pdf: Uint8Array, printerName: string | null): Promise<void>;
}

/** How long one send to a network printer may take, connect to close. */
export const ZPL_SEND_TIMEOUT_MS = 15_000;

/**
 * Sends `zpl` to a label printer on raw TCP (port 9100) and resolves once the printer has taken it:
 * every byte written and our end closed (`finish`), and the printer's end closed in turn without
 * an error (`close`). A raw port says nothing else: a printer closes its end once it has read to our
 * end of stream, so a clean close means it read the whole job. Anything short of that (refused,
 * reset, timeout) rejects, and the job is sent again later.
 */
export function sendZpl(host: string, port: number, zpl: string, timeoutMs = ZPL_SEND_TIMEOUT_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    let finished = false;
    let failed: Error | undefined;
    const socket = connect({ host, port });
    socket.setTimeout(timeoutMs, () => {
      failed ??= new Error(`The printer at ${host}:${port} did not take the job within ${Math.round(timeoutMs / 1000)} s.`);
      socket.destroy();
    });
    socket.on('connect', () => {
      socket.end(zpl, 'utf8');
    });
    socket.on('finish', () => (finished = true));
    // What a printer answers (status) is not needed: read and dropped, so the socket can close.
    socket.on('data', () => undefined);
    socket.on('error', (error) => (failed ??= new Error(`The printer at ${host}:${port}: ${error.message}`)));
    socket.on('close', (hadError) => {
      if (!failed && !hadError && finished) resolve();
      else reject(failed ?? new Error(`The printer at ${host}:${port} closed the connection before taking the job.`));
    });
  });
}

/** How a printer is named on a job it printed: `zpl_tcp 10.0.0.5:9100`, `system Zebra` (or `system default`). */
export function printerName(setting: PrinterSetting): string {
  switch (setting.kind) {
    case 'zpl_tcp':
      return `zpl_tcp ${setting.host}:${setting.port}`;
    case 'system':
      return `system ${setting.name ?? 'default'}`;
    case 'browser':
      return 'browser';
  }
}
