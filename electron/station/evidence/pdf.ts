import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { EVIDENCE_MAX_ONE_PHOTO_BYTES, EVIDENCE_MAX_PHOTO_BYTES, EVIDENCE_MAX_PHOTOS } from '#shared/api/evidence.ts';
import { conditionWords, type EvidenceFacts, type EvidenceMedia } from '../domain/evidence.ts';

/*
 * The evidence pack's PDF (pdfkit, as the labels): A4 pages a merchant sends to a customer or a
 * carrier. It is a stream: each photo is read, drawn and written out before the next is read, so a
 * package with many photos never sits in memory whole. Photos are drawn scaled into a box (pdfkit
 * embeds a JPEG's bytes as they are, so the PDF holds each at its own resolution); the PDF holds at
 * most EVIDENCE_MAX_PHOTOS photos and EVIDENCE_MAX_PHOTO_BYTES of them — the rest, and what a PDF cannot show (WebP,
 * video, documents), are named with their file in the zip, which holds every file full size.
 */

const MARGIN = 50;
const PHOTO_BOX: [number, number] = [495, 300];
const DRAWABLE = new Set(['image/jpeg', 'image/png']);

/** Reads a file's bytes for the PDF; null when they cannot be had (the caller knows why). */
export type ReadMedia = (media: EvidenceMedia) => Promise<Buffer | null>;

/** `2026-11-28T14:52:03.120Z` → `2026-11-28 14:52:03 UTC`. */
export function evidenceTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

const words = (value: string | null | undefined, absent: string) => (value === null || value === undefined || value === '' ? absent : value);

/** A section's heading, on a new page when less than `room` points (what its first entry needs) are left. */
function heading(doc: PDFKit.PDFDocument, text: string, room = 60): void {
  if (doc.y > doc.page.height - MARGIN - room - 30) doc.addPage();
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).text(text).moveDown(0.3).font('Helvetica').fontSize(10);
}

function field(doc: PDFKit.PDFDocument, label: string, value: string): void {
  doc.font('Helvetica-Bold').text(`${label}: `, { continued: true }).font('Helvetica').text(value);
}

function drawParcel(doc: PDFKit.PDFDocument, facts: EvidenceFacts): void {
  const p = facts.package;
  doc.font('Helvetica-Bold').fontSize(18).text(`Return evidence: parcel ${p.tracking_number}`);
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor('#555')
    .text(`Made by Returns Station at ${evidenceTime(facts.made_at)}`)
    .fillColor('black');
  heading(doc, 'Parcel and return');
  field(doc, 'Tracking number', p.tracking_number);
  field(doc, 'Return package', `${p.id} (account ${p.account_id}), status ${p.status}`);
  field(doc, 'Carrier', words(p.carrier, 'not known'));
  const ret = facts.return;
  field(doc, 'Return', ret ? `${ret.id}` : 'not on this station');
  field(doc, 'Customer', words(ret?.email, 'not known'));
  if (ret?.reason) field(doc, 'Reason of return', ret.reason);
  if (p.notes) field(doc, 'Notes', p.notes);
}

function drawWeights(doc: PDFKit.PDFDocument, facts: EvidenceFacts): void {
  heading(doc, 'Weight');
  const expected = facts.expected_weight;
  field(doc, 'Expected', expected ? `${expected.weight} ${expected.unit} (${expected.source})` : 'no expected weight');
  const measured = facts.measured_weight;
  field(
    doc,
    'Measured',
    measured
      ? `${measured.weight} ${measured.unit}, ${measured.source === 'typed' ? 'typed by hand' : `scale ${words(measured.scale, '')}`.trim()}, at ${evidenceTime(measured.weighed_at)}${measured.by ? ` by ${measured.by}` : ''}`
      : 'not weighed',
  );
  if (facts.weight_verdict) field(doc, 'Weight check', facts.weight_verdict);
}

function drawReview(doc: PDFKit.PDFDocument, facts: EvidenceFacts): void {
  heading(doc, 'Review');
  const review = facts.review;
  if (!review) {
    doc.text('not reviewed (no check at the dock held this parcel)');
    return;
  }
  const decision =
    review.state === 'held'
      ? 'held, waiting for a supervisor'
      : `${review.state} by ${words(review.decided_by, 'a supervisor')} at ${review.decided_at ? evidenceTime(review.decided_at) : 'a time not known'}`;
  field(doc, 'Decision', decision);
  if (review.reason) field(doc, 'Reason', review.reason);
  field(doc, 'Held', evidenceTime(review.held_at));
  for (const finding of review.findings) {
    doc.text(`${evidenceTime(finding.at)}  ${finding.check} check: ${finding.text}${finding.by ? ` (at the dock: ${finding.by})` : ''}`, { indent: 14 });
  }
}

function drawUnits(doc: PDFKit.PDFDocument, facts: EvidenceFacts): void {
  heading(doc, `Units (${facts.units.length})`);
  if (facts.units.length === 0) doc.text('No unit recorded.');
  facts.units.forEach((unit, i) => {
    if (doc.y > doc.page.height - MARGIN - 60) doc.addPage();
    const title = `${i + 1}. ${words(unit.sku, 'no SKU')}  ${words(unit.name, '')}${unit.quantity > 1 ? `  × ${unit.quantity}` : ''}`;
    doc.font('Helvetica-Bold').text(title.trim());
    doc.font('Helvetica');
    const condition = `${unit.condition === null ? 'condition not set' : `condition ${conditionWords(unit.condition)}`}${unit.defective ? ', defective' : ''}`;
    doc.text(`Unit ${words(unit.unit_id, 'no unit id yet')}  ·  ${condition}  ·  serial ${words(unit.serial, 'no serial')}`, { indent: 14 });
    doc.text(`Disposition ${words(unit.disposition, 'none yet')}  ·  bin ${words(unit.bin, 'none')}`, { indent: 14 });
    if (unit.serial_finding) doc.text(`Serial check: ${unit.serial_finding}`, { indent: 14 });
    if (unit.notes) doc.text(`Notes: ${unit.notes}`, { indent: 14 });
    doc.moveDown(0.3);
  });
}

const caption = (m: EvidenceMedia, i: number, count: number) =>
  `${m.kind === 'image' ? 'Photo' : m.kind === 'video' ? 'Video' : 'Document'} ${i + 1} of ${count}  ·  ${m.captured_at ? `taken ${evidenceTime(m.captured_at)}` : `taken: not known (stored ${evidenceTime(m.stored_at)})`}  ·  ${m.file_name}`;

/** Why a file is named but not drawn, or null when it is drawn. */
function notDrawn(m: EvidenceMedia, drawn: { count: number; bytes: number }): string | null {
  if (m.at_hub) return "kept at the site's hub: not in this pack";
  if (!DRAWABLE.has(m.content_type)) return m.kind === 'image' ? 'full size in the zip (this PDF cannot show its type)' : 'in the zip';
  if (m.size > EVIDENCE_MAX_ONE_PHOTO_BYTES || drawn.count >= EVIDENCE_MAX_PHOTOS || drawn.bytes + m.size > EVIDENCE_MAX_PHOTO_BYTES)
    return 'in the zip (more than this PDF holds)';
  return null;
}

async function drawMedia(doc: PDFKit.PDFDocument, facts: EvidenceFacts, read: ReadMedia): Promise<void> {
  const firstDrawn = facts.media.length > 0 && notDrawn(facts.media[0] as EvidenceMedia, { count: 0, bytes: 0 }) === null;
  heading(doc, `Photos and files (${facts.media.length})`, firstDrawn ? PHOTO_BOX[1] + 20 : 60);
  if (facts.media.length === 0) doc.text('No photo was taken of this parcel.');
  const drawn = { count: 0, bytes: 0 };
  for (const [i, m] of facts.media.entries()) {
    let why = notDrawn(m, drawn);
    const bytes = why === null ? await read(m) : null;
    if (why === null && bytes === null) why = 'its bytes are missing on this station';
    if (why !== null || bytes === null) {
      if (doc.y > doc.page.height - MARGIN - 30) doc.addPage();
      doc
        .font('Helvetica')
        .fontSize(10)
        .text(`${caption(m, i, facts.media.length)}: ${why}`)
        .moveDown(0.3);
      continue;
    }
    if (doc.y + PHOTO_BOX[1] + 20 > doc.page.height - MARGIN) doc.addPage();
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(caption(m, i, facts.media.length));
    try {
      doc.image(bytes, MARGIN, doc.y + 2, { fit: PHOTO_BOX, align: 'center' });
      doc.y += PHOTO_BOX[1] + 10;
      drawn.count += 1;
      drawn.bytes += m.size;
    } catch {
      doc.font('Helvetica').text('This photo could not be drawn (its bytes are not a picture pdfkit reads); it is in the zip as it was taken.');
    }
  }
}

function drawHistory(doc: PDFKit.PDFDocument, facts: EvidenceFacts): void {
  heading(doc, 'Who did what, when');
  for (const event of facts.history) {
    if (doc.y > doc.page.height - MARGIN - 20) doc.addPage();
    doc.text(`${evidenceTime(event.at)}   ${words(event.who, '—')}   ${event.what}`);
  }
}

/** The pack's PDF as a stream; photos are read one at a time with `read` while it is written. */
export function evidencePdf(facts: EvidenceFacts, read: ReadMedia): Readable {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `Return evidence ${facts.package.tracking_number}`, Creator: 'Returns Station', CreationDate: new Date(facts.made_at) },
  });
  void (async () => {
    drawParcel(doc, facts);
    drawWeights(doc, facts);
    drawReview(doc, facts);
    drawUnits(doc, facts);
    drawHistory(doc, facts);
    await drawMedia(doc, facts, read);
    doc.end();
  })().catch((error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))));
  return doc;
}
