import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { UnitLabel } from '#shared/api/printing.ts';
import { DispositionStyleSchema } from '#shared/api/disposition-rules.ts';
import { MAX_BIN_LENGTH } from '#shared/dispositions.ts';
import { MAX_SERIAL_LENGTH } from '#shared/serials.ts';
import { unitLabelPdf } from '../../electron/station/printing/pdf.ts';
import { LABEL_HEIGHT_DOTS, LABEL_WIDTH_DOTS, unitLabelZpl } from '../../electron/station/printing/zpl.ts';
import { code128InPng, code128On } from '../support/label-barcode.ts';
import { fieldInk, type InkBox, renderZpl } from '../support/zpl-render.ts';

/*
 * The unit label as printed (docs/decisions/labels-and-print-queue.md, The layout): the bin a picker
 * reads first is whole for any bin the rules allow, the disposition's name too, every field inside
 * the label and clear of the others, and the barcode scans back to the unit id. The ZPL is rendered
 * by an independent renderer (test/support/zpl-render.ts), the PDF by poppler; nothing is read by OCR:
 * the ZPL field's data is whole (no ellipsis) and its ink is measured, the PDF's text is extracted.
 */

// The widest text the schemas allow: `W` is font 0's and Helvetica's widest letter.
const LONGEST_NAME = DispositionStyleSchema.shape.label.maxLength ?? 40;
const widestBin = 'W'.repeat(MAX_BIN_LENGTH);
const widestName = 'W'.repeat(LONGEST_NAME);

const base: UnitLabel = {
  unit_id: 'RS-7K2Q-000042',
  sku: 'AC-WBN-01',
  name: 'Wireless earbuds, black',
  condition: 'damaged',
  serial: '490154203237518',
  disposition: 'Liquidate',
  bin: 'LIQUIDATE',
  tracking_number: '1Z999AA10123456784',
  date: '2026-05-01',
  worker: 'Ada Lovelace',
};

const cases: Array<[string, UnitLabel]> = [
  ['a default rule\'s bin ("LIQUIDATE")', base],
  ['the longest bin of the widest letters, with the longest name', { ...base, bin: widestBin, disposition: widestName }],
  ['a long mixed bin', { ...base, bin: 'RTV-OVERFLOW-2026-11', disposition: 'Return to vendor' }],
  [
    'every fact at its longest',
    {
      ...base,
      bin: widestBin,
      disposition: widestName,
      sku: 'W'.repeat(60),
      serial: 'W'.repeat(MAX_SERIAL_LENGTH),
      name: 'W'.repeat(80),
      tracking_number: 'W'.repeat(60),
      worker: 'W'.repeat(60),
    },
  ],
  ['a unit without a serial', { ...base, serial: null }],
];

const overlaps = (a: InkBox, b: InkBox) => a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;

describe('the ZPL unit label, rendered by an independent renderer', () => {
  test.each(cases)('%s: the bin and the name whole, every field inside the label and apart, the barcode scans', async (_, label) => {
    const zpl = unitLabelZpl(label);
    // The data is whole: the bin and the disposition's name are in the label as they are.
    expect(zpl).toContain(`^FH_^FD${label.bin}^FS`);
    expect(zpl).toContain(`^FH_^FD${label.disposition}^FS`);
    // The serial whole (its longest too), or no serial line at all.
    if (label.serial) expect(zpl).toContain(`^FH_^FDSN ${label.serial}^FS`);
    else expect(zpl).not.toContain('^FDSN ');
    const fields = await fieldInk(zpl, LABEL_WIDTH_DOTS, LABEL_HEIGHT_DOTS);
    const boxes = fields.map(({ field, box }) => {
      expect(box, field).not.toBeNull();
      return { field, box: box as InkBox };
    });
    for (const { field, box } of boxes) {
      // Inside the label, 10 dots clear of its edges (a printer's own font may be a little wider).
      expect(box.minX, field).toBeGreaterThanOrEqual(10);
      expect(box.maxX, field).toBeLessThan(LABEL_WIDTH_DOTS - 10);
      expect(box.maxY, field).toBeLessThan(LABEL_HEIGHT_DOTS - 10);
    }
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) expect(overlaps(a.box, b.box), `${a.field}\n overlaps\n${b.field}`).toBe(false);
    }
    const binField = boxes.find(({ field }) => field.endsWith(`^FD${label.bin}^FS`));
    // The bin is the largest text: taller than any fact.
    const tallest = Math.max(...boxes.filter(({ field }) => field.includes('^A0')).map(({ box }) => box.maxY - box.minY));
    expect((binField?.box.maxY ?? 0) - (binField?.box.minY ?? 0)).toBe(tallest);
    expect(await code128InPng(await renderZpl(zpl, LABEL_WIDTH_DOTS, LABEL_HEIGHT_DOTS))).toEqual([label.unit_id]);
  });
});

interface PdfWord {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** The PDF's words with their boxes in points (poppler's `pdftotext -bbox`). */
function pdfWords(pdf: Uint8Array): { width: number; height: number; words: PdfWord[] } {
  const dir = mkdtempSync(join(tmpdir(), 'label-text-'));
  try {
    writeFileSync(join(dir, 'label.pdf'), pdf);
    const html = execFileSync('pdftotext', ['-bbox', join(dir, 'label.pdf'), '-'], { encoding: 'utf8' });
    const page = /<page width="([\d.]+)" height="([\d.]+)">/.exec(html);
    const words = [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
      xMin: Number(m[1]),
      yMin: Number(m[2]),
      xMax: Number(m[3]),
      yMax: Number(m[4]),
      text: (m[5] ?? '').replaceAll('&amp;', '&'),
    }));
    return { width: Number(page?.[1]), height: Number(page?.[2]), words };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the PDF unit label, rendered by poppler', () => {
  test.each(cases)('%s: the bin and the name whole as text, every word inside the page, the barcode scans', async (_, label) => {
    const pdf = await unitLabelPdf(label);
    const { width, height, words } = pdfWords(pdf);
    expect([width, height]).toEqual([288, 144]);
    expect(words.map((w) => w.text)).toContain(label.bin);
    const nameWords = (label.disposition ?? '').split(' ');
    const at = words.findIndex((w, i) => nameWords.every((part, k) => words[i + k]?.text === part));
    expect(at, `"${label.disposition}" whole in ${words.map((w) => w.text).join(' ')}`).toBeGreaterThanOrEqual(0);
    // The serial read back whole from the PDF's text, after its SN caption.
    const sn = words.findIndex((w) => w.text === 'SN');
    if (label.serial) expect(words[sn + 1]?.text).toBe(label.serial);
    else expect(sn).toBe(-1);
    for (const word of words) {
      expect(word.xMin, word.text).toBeGreaterThanOrEqual(4);
      expect(word.xMax, word.text).toBeLessThanOrEqual(284);
      expect(word.yMax, word.text).toBeLessThanOrEqual(142);
    }
    const bin = words.find((w) => w.text === label.bin);
    const rest = words.filter((w) => w !== bin);
    for (const other of rest)
      expect(overlaps(bin as PdfWord as unknown as InkBox, { minX: other.xMin, maxX: other.xMax, minY: other.yMin, maxY: other.yMax }), other.text).toBe(false);
    expect(await code128On(pdf)).toEqual([label.unit_id]);
  });
});
