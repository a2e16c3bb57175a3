import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';
import type { PackageSlip, UnitLabel } from '#shared/api/printing.ts';
import { clip } from './zpl.ts';

/*
 * The same labels as PDF (pdfkit), for the browser UI and the desktop app's system printers: one
 * page of 4 × 2 in (288 × 144 pt). The barcode is drawn as vector bars from bwip-js's encoding
 * (`raw`: the bar and space widths in modules), so it is sharp at any printer's resolution.
 * Text is in the PDF standard font Helvetica (WinAnsi: Latin text; other scripts print as
 * replacement glyphs — the unit id and the barcode are ASCII).
 */

const PAGE: [number, number] = [288, 144];
const MARGIN = 10;
/** Quiet zone each side of a Code 128 symbol, in modules (the standard asks for 10). */
const QUIET_MODULES = 10;

/** Code 128 bar and space widths in modules, bars first (bwip-js's encoder). */
export function code128Modules(text: string): number[] {
  const [symbol] = bwipjs.raw({ bcid: 'code128', text });
  if (!symbol || !('sbs' in symbol)) throw new Error('bwip-js gave no Code 128 bars.');
  return symbol.sbs;
}

/** Draws `text` as Code 128 bars in the box (x, y, width, height); the module as wide as fits, at most `maxModule` pt. */
function drawCode128(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width: number, height: number, maxModule: number): void {
  const sbs = code128Modules(text);
  const total = sbs.reduce((a, b) => a + b, 0) + 2 * QUIET_MODULES;
  const module = Math.min(maxModule, width / total);
  let at = x + (width - total * module) / 2 + QUIET_MODULES * module;
  sbs.forEach((widthInModules, i) => {
    if (i % 2 === 0) doc.rect(at, y, widthInModules * module, height);
    at += widthInModules * module;
  });
  doc.fill('black');
}

function documentBytes(draw: (doc: PDFKit.PDFDocument) => void, title: string): Promise<Buffer> {
  // A fixed creation date keeps the same label byte-for-byte the same (tests, caches).
  const doc = new PDFDocument({ size: PAGE, margin: 0, info: { Title: title, Creator: 'Returns Station', CreationDate: new Date(0) } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  draw(doc);
  doc.end();
  return done;
}

/**
 * `text` whole (in Helvetica-Bold unless told) on one line at (x, y): `size` pt, smaller when it is wider than
 * `width` (pdfkit measures it), so a bin or a disposition's name is never cut.
 */
function wholeText(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width: number, size: number, font = 'Helvetica-Bold'): void {
  doc.font(font).fontSize(size);
  const fitted = Math.min(size, (size * width) / Math.max(1, doc.widthOfString(text)));
  doc.fontSize(fitted).text(text, x, y + (size - fitted) / 2, { lineBreak: false });
}

/** Where the bin's value starts: after its `BIN` caption. */
const BIN_VALUE_X = 34;

/** The unit label as a one-page PDF: the same layout as the ZPL one (zpl.ts, unitLabelZpl). */
export function unitLabelPdf(label: UnitLabel): Promise<Buffer> {
  return documentBytes((doc) => drawUnitLabel(doc, label), `Unit ${label.unit_id}`);
}

/** Several unit labels as one PDF, a page each (a package's labels at once). */
export function unitLabelsPdf(labels: readonly UnitLabel[], title: string): Promise<Buffer> {
  return documentBytes((doc) => {
    labels.forEach((label, i) => {
      if (i > 0) doc.addPage({ size: PAGE, margin: 0 });
      drawUnitLabel(doc, label);
    });
  }, title);
}

function drawUnitLabel(doc: PDFKit.PDFDocument, label: UnitLabel): void {
  const width = PAGE[0] - 2 * MARGIN;
  drawCode128(doc, label.unit_id, MARGIN, 8, width, 32, 1.6);
  doc.font('Helvetica').fontSize(8).text(label.unit_id, MARGIN, 42, { width, align: 'center', lineBreak: false });
  doc.font('Helvetica').fontSize(8).text('BIN', MARGIN, 60, { lineBreak: false });
  wholeText(doc, label.bin ?? 'NONE', BIN_VALUE_X, 53, PAGE[0] - MARGIN - BIN_VALUE_X, 20);
  wholeText(doc, label.disposition ?? 'No disposition', MARGIN, 76, width, 12);
  doc
    .moveTo(MARGIN, 92)
    .lineTo(PAGE[0] - MARGIN, 92)
    .lineWidth(0.8)
    .stroke();
  // The facts: cut at a length, and made smaller when even that is wider than the label.
  const line = (text: string, y: number) => wholeText(doc, clip(text, 64), MARGIN, y, width, 7.5, 'Helvetica');
  line(`SKU ${label.sku ?? '-'}   ${label.condition ?? 'condition not set'}`, 96);
  // The serial whole (at most 33 characters), as on the ZPL label.
  if (label.serial != null) wholeText(doc, `SN ${label.serial}`, MARGIN, 105, width, 7.5, 'Helvetica');
  line(label.name ?? '', 114);
  line(`Parcel ${label.tracking_number ?? '-'}`, 123);
  line(`${label.date}   ${label.worker ?? ''}`, 132);
}

/** The package slip as a one-page PDF. */
export function packageSlipPdf(slip: PackageSlip): Promise<Buffer> {
  return documentBytes((doc) => {
    const width = PAGE[0] - 2 * MARGIN;
    drawCode128(doc, slip.tracking_number, MARGIN, MARGIN, width, 30, 1.4);
    doc
      .font('Helvetica-Bold')
      .fontSize(9)
      .text(clip(`Package ${slip.return_package_id}  ·  ${slip.units.length} unit(s)  ·  ${slip.date}  ·  ${slip.worker ?? ''}`, 60), MARGIN, 44, {
        width,
        lineBreak: false,
      });
    doc.font('Helvetica').fontSize(7.5);
    const shown = slip.units.slice(0, 7);
    shown.forEach((unit, i) =>
      doc.text(clip(`${unit.bin ?? '-'}  ${unit.unit_id}  ${unit.disposition ?? '-'}  ${unit.sku ?? '-'}`, 70), MARGIN, 57 + i * 10, {
        width,
        lineBreak: false,
      }),
    );
    if (slip.units.length > shown.length) doc.text(`+ ${slip.units.length - shown.length} more`, MARGIN, 57 + shown.length * 10, { width, lineBreak: false });
  }, `Package ${slip.return_package_id}`);
}
