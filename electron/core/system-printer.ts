import { type SystemPrinter } from '../station/index.ts';
import type { FromCore, ToCore } from './protocol.ts';

/*
 * The core's side of the desktop app's system printers: Electron prints only in the main process,
 * so the print queue's PDF goes there as a `print` message and the send resolves with its `printed`
 * answer (docs/decisions/labels-and-print-queue.md). No answer within the deadline is a failure:
 * the job waits and is sent again.
 */

export const SYSTEM_PRINT_DEADLINE_MS = 60_000;

export interface SystemPrinterOverPort extends SystemPrinter {
  /** Hands a `printed` answer from the main process to the print it answers. */
  answer(message: Extract<ToCore, { type: 'printed' }>): void;
}

export function systemPrinterOverPort(post: (message: FromCore) => void, deadlineMs = SYSTEM_PRINT_DEADLINE_MS): SystemPrinterOverPort {
  let next = 0;
  const waiting = new Map<number, (error: string | null) => void>();
  return {
    print(pdf, printerName) {
      next += 1;
      const id = next;
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => settle('The desktop app did not answer the print in time.'), deadlineMs);
        const settle = (error: string | null) => {
          clearTimeout(timer);
          waiting.delete(id);
          if (error === null) resolve();
          else reject(new Error(error));
        };
        waiting.set(id, settle);
        post({ type: 'print', id, pdf, printerName });
      });
    },
    answer(message) {
      waiting.get(message.id)?.(message.error);
    },
  };
}
