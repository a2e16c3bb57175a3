import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

/*
 * A printed label read back as a scanner would: the PDF rendered to an image with Debian's poppler
 * (`pdftoppm -png`, installed by scripts/ensure-browser.js) at a label printer's 203 dpi, and its
 * barcodes decoded by zxing-cpp, the reader of the UI's camera scanner (zxing-wasm, its .wasm from
 * node_modules: never fetched).
 */

let prepared: Promise<unknown> | undefined;

function prepare(): Promise<unknown> {
  const wasm = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
  prepared ??= prepareZXingModule({ overrides: { wasmBinary: new Uint8Array(readFileSync(wasm)).buffer }, fireImmediately: true });
  return prepared;
}

/** The PDF's first page as PNG bytes at `dpi`. */
export function pdfToPng(pdf: Uint8Array, dpi = 203): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'label-png-'));
  try {
    writeFileSync(join(dir, 'label.pdf'), pdf);
    execFileSync('pdftoppm', ['-png', '-r', String(dpi), '-singlefile', join(dir, 'label.pdf'), join(dir, 'label')]);
    return readFileSync(join(dir, 'label.png'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The Code 128 barcodes on an image (PNG bytes), as their text. */
export async function code128InPng(png: Uint8Array): Promise<string[]> {
  await prepare();
  const found = await readBarcodes(new Uint8Array(png), { formats: ['Code128'] });
  return found.filter((code) => code.isValid).map((code) => code.text);
}

/** The Code 128 barcodes on a PDF label, as their text. */
export function code128On(pdf: Uint8Array, dpi = 203): Promise<string[]> {
  return code128InPng(pdfToPng(pdf, dpi));
}
