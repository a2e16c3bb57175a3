import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PNG } from 'pngjs';

/*
 * An evidence pack read back by programs that are not ours, as a merchant's computer would: the
 * PDF's text by poppler's `pdftotext`, its pages as pictures by poppler's `pdftoppm`, the zip by
 * Info-ZIP's `unzip` (Debian's poppler-utils and unzip, installed by scripts/ensure-browser.js).
 */

function inTempDir<T>(prefix: string, work: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The PDF's text in reading order (`pdftotext -layout`), every run of white space (line ends too) made one space. */
export function pdfText(pdf: Uint8Array): string {
  return inTempDir('evidence-text-', (dir) => {
    writeFileSync(join(dir, 'pack.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', join(dir, 'pack.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  });
}

/** Each page of the PDF as a decoded picture at `dpi`. */
export function pdfPages(pdf: Uint8Array, dpi = 40): PNG[] {
  return inTempDir('evidence-pages-', (dir) => {
    writeFileSync(join(dir, 'pack.pdf'), pdf);
    execFileSync('pdftoppm', ['-png', '-r', String(dpi), join(dir, 'pack.pdf'), join(dir, 'page')]);
    return readdirSync(dir)
      .filter((name) => name.endsWith('.png'))
      .sort()
      .map((name) => PNG.sync.read(readFileSync(join(dir, name))));
  });
}

/** How many pixels of a page are `rgb`, each channel within `tolerance`. */
export function pixelsOf(page: PNG, rgb: readonly [number, number, number], tolerance = 24): number {
  let count = 0;
  for (let i = 0; i < page.data.length; i += 4) {
    if (
      Math.abs((page.data[i] ?? 0) - rgb[0]) <= tolerance &&
      Math.abs((page.data[i + 1] ?? 0) - rgb[1]) <= tolerance &&
      Math.abs((page.data[i + 2] ?? 0) - rgb[2]) <= tolerance
    ) {
      count += 1;
    }
  }
  return count;
}

/** The zip unpacked by `unzip`: each file's path in the zip and its bytes. */
export function unzipped(zip: Uint8Array): Map<string, Buffer> {
  return inTempDir('evidence-zip-', (dir) => {
    writeFileSync(join(dir, 'pack.zip'), zip);
    execFileSync('unzip', ['-q', join(dir, 'pack.zip'), '-d', join(dir, 'out')]);
    const files = new Map<string, Buffer>();
    const walk = (at: string): void => {
      for (const name of readdirSync(at)) {
        const path = join(at, name);
        if (statSync(path).isDirectory()) walk(path);
        else files.set(relative(join(dir, 'out'), path), readFileSync(path));
      }
    };
    walk(join(dir, 'out'));
    return files;
  });
}

/** A PNG photo of one solid colour (what the pages are searched for). */
export function solidPng(width: number, height: number, rgb: readonly [number, number, number]): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < png.data.length; i += 4) {
    png.data[i] = rgb[0];
    png.data[i + 1] = rgb[1];
    png.data[i + 2] = rgb[2];
    png.data[i + 3] = 255;
  }
  return PNG.sync.write(png);
}
