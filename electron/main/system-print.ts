import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BrowserWindow } from 'electron';

/*
 * The desktop app's system printers: the label's PDF, loaded in a hidden window (no
 * preload, no Node: it shows a PDF file and nothing else) and printed without a dialog to the
 * printer named, or the system's default one. Resolves when Chromium's print says it succeeded,
 * which is when the job was handed to the system's print spooler. Thin by design: everything else
 * (the queue, retries, the PDF) is the station core's and tested without Electron; this file is
 * not run here (no Electron binary can be downloaded) — see docs/decisions/labels-and-print-queue.md.
 */
export async function printPdfToSystemPrinter(pdf: Uint8Array, printerName: string | null): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'returns-station-label-'));
  const file = join(dir, 'label.pdf');
  // Hidden and never navigated, but locked down like the station's own window (window.ts): no middle-click new windows.
  const window = new BrowserWindow({
    show: false,
    webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, plugins: true, disableBlinkFeatures: 'Auxclick' },
  });
  try {
    await writeFile(file, pdf);
    await window.loadURL(pathToFileURL(file).href);
    await new Promise<void>((resolve, reject) =>
      window.webContents.print({ silent: true, printBackground: true, ...(printerName ? { deviceName: printerName } : {}) }, (success, failureReason) =>
        success ? resolve() : reject(new Error(`The system printer ${printerName ?? '(default)'} did not take the label: ${failureReason}.`)),
      ),
    );
  } finally {
    window.destroy();
    await rm(dir, { recursive: true, force: true });
  }
}
