import { expect, test } from 'vitest';
import type { FromCore } from '../../electron/core/protocol.ts';
import { systemPrinterOverPort } from '../../electron/core/system-printer.ts';

/* The core's side of the system printers: a print is a message to the main process, settled by its answer. */

test("a print resolves on the main process's answer, rejects with its reason or when none comes in time", async () => {
  const sent: FromCore[] = [];
  const printer = systemPrinterOverPort((message) => sent.push(message), 200);
  const ok = printer.print(new Uint8Array([37, 80]), 'Dock Zebra');
  const refused = printer.print(new Uint8Array([1]), null);
  expect(sent).toEqual([
    { type: 'print', id: 1, pdf: new Uint8Array([37, 80]), printerName: 'Dock Zebra' },
    { type: 'print', id: 2, pdf: new Uint8Array([1]), printerName: null },
  ]);
  printer.answer({ type: 'printed', id: 2, error: 'out of paper' });
  printer.answer({ type: 'printed', id: 1, error: null });
  await expect(ok).resolves.toBeUndefined();
  await expect(refused).rejects.toThrow('out of paper');
  await expect(printer.print(new Uint8Array(), null)).rejects.toThrow(/did not answer/);
});
