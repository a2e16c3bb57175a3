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

/** A network printer as a worker knows it: its address, and its port only when not the usual 9100. */
const printerAt = (host: string, port: number): string => (port === 9100 ? host : `${host} (port ${port})`);

/**
 * Why a send to a network printer failed, in words a worker can act on ("The printer 10.0.0.5 does
 * not answer …") rather than the socket's code (ECONNREFUSED); the code stays at the end for whoever
 * looks further.
 */
export function printerProblem(host: string, port: number, error: NodeJS.ErrnoException): string {
  const at = printerAt(host, port);
  switch (error.code) {
    case 'ECONNREFUSED':
      return `The printer ${at} does not answer: nothing takes labels there. Is it on, and is that its address? (${error.code})`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ETIMEDOUT':
      return `The printer ${at} cannot be reached on the network: is it on and plugged in? (${error.code})`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `No printer is known by the name ${host} on the network: check the printer's address. (${error.code})`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `The printer ${at} broke off the label before taking it: it is sent again. (${error.code})`;
    default:
      return `The printer ${at} did not take the label: ${error.message}`;
  }
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
      failed ??= new Error(`The printer ${printerAt(host, port)} did not take the label within ${Math.round(timeoutMs / 1000)} s: is it on, with paper?`);
      socket.destroy();
    });
    socket.on('connect', () => {
      socket.end(zpl, 'utf8');
    });
    socket.on('finish', () => (finished = true));
    // What a printer answers (status) is not needed: read and dropped, so the socket can close.
    socket.on('data', () => undefined);
    socket.on('error', (error: NodeJS.ErrnoException) => (failed ??= new Error(printerProblem(host, port, error))));
    socket.on('close', (hadError) => {
      if (!failed && !hadError && finished) resolve();
      else reject(failed ?? new Error(`The printer ${printerAt(host, port)} closed the connection before taking the label: it is sent again.`));
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
