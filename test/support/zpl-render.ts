import { PNG } from 'pngjs';
import { ready } from 'zpl-renderer-js';

/*
 * A ZPL label as a printer would print it, without a printer: rendered by an independent ZPL
 * renderer (zpl-renderer-js, IngridHQ's zebrash compiled to WebAssembly, its fonts built in), then
 * read back as a person and a scanner would: where each field's ink lies here, what its barcodes
 * decode to with label-barcode.ts (code128InPng).
 */

const DOTS_PER_MM = 8; // 203 dpi

/** The ink's bounding box in dots (inclusive), or null when nothing is drawn. */
export interface InkBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Renders `zpl` on a canvas of `widthDots` × `heightDots` as PNG bytes. */
export async function renderZpl(zpl: string, widthDots: number, heightDots: number): Promise<Buffer> {
  const { api } = await ready;
  return Buffer.from(await api.zplToBase64Async(zpl, widthDots / DOTS_PER_MM, heightDots / DOTS_PER_MM, DOTS_PER_MM), 'base64');
}

export function inkBox(png: Buffer): InkBox | null {
  const image = PNG.sync.read(png);
  let box: InkBox | null = null;
  for (let y = 0; y < image.height; y += 1) {
    for (let x = 0; x < image.width; x += 1) {
      const at = (y * image.width + x) * 4;
      const dark = (image.data[at] ?? 255) < 128 && (image.data[at + 3] ?? 0) > 0;
      if (!dark) continue;
      if (!box) box = { minX: x, minY: y, maxX: x, maxY: y };
      else {
        box.minX = Math.min(box.minX, x);
        box.maxX = Math.max(box.maxX, x);
        box.minY = Math.min(box.minY, y);
        box.maxY = Math.max(box.maxY, y);
      }
    }
  }
  return box;
}

/** The field commands of a label (`^FO` … `^FS`), one per line as the station writes them. */
export function zplFields(zpl: string): string[] {
  return zpl.split('\n').filter((line) => line.startsWith('^FO'));
}

/**
 * Where each field of a label puts its ink: each field rendered alone (with the label's character
 * set) on a canvas twice the label's size, so ink that would run off the label shows where
 * it runs to instead of being cut at the edge.
 */
export async function fieldInk(zpl: string, widthDots: number, heightDots: number): Promise<Array<{ field: string; box: InkBox | null }>> {
  const out: Array<{ field: string; box: InkBox | null }> = [];
  for (const field of zplFields(zpl)) {
    out.push({ field, box: inkBox(await renderZpl(`^XA^CI28^LH0,0${field}^XZ`, widthDots * 2, heightDots * 2)) });
  }
  return out;
}
