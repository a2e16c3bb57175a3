import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdForReview } from '../../electron/station/domain/reviews.ts';
import { pdfPages, pdfText, pixelsOf, solidPng, unzipped } from '../support/evidence-reader.ts';
import { call, createPackage, createReturn, expectError, startStation, type TestStation } from './support.ts';

/*
 * A package's evidence pack through the API, read back by programs that are not the station's
 * (poppler's pdftotext and pdftoppm, Info-ZIP's unzip): the PDF's text says what the station
 * recorded, its pages show the photos (a photo of one solid colour is a region of that colour), and
 * the zip holds each photo byte for byte as uploaded. A package with no photo and one with more
 * photos than the PDF draws both make whole packs. The stop and start of the real `serve` is
 * test/restart/evidence.test.ts.
 */

const A = 1;
let s: TestStation;
const RED: [number, number, number] = [230, 20, 20];
const BLUE: [number, number, number] = [20, 40, 220];

const get = (path: string, token = s.account1) => fetch(`${s.origin}${path}`, { headers: { authorization: `Bearer ${token}` } });
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function upload(packageId: number, bytes: Uint8Array, capturedAt: string): Promise<void> {
  const response = await call(s.origin, 'POST', `/api/v1/accounts/${A}/return_packages/${packageId}/media_files?captured_at=${capturedAt}`, {
    token: s.account1,
    raw: bytes,
    headers: { 'content-type': 'image/png' },
  });
  expect(response.status, response.text).toBe(201);
}

let tracking: string;
let packageId: number;
let returnId: number;
let email: string;
const photos: Buffer[] = [solidPng(320, 240, RED), solidPng(200, 300, BLUE)];
// Taken an hour and a half ago (a capture time is kept within a year of the station's clock), to the second.
const hourAndHalfAgo = Math.floor((Date.now() - 90 * 60_000) / 1000) * 1000;
const takenAt = [new Date(hourAndHalfAgo).toISOString(), new Date(hourAndHalfAgo + 95_000).toISOString()];
/** `2026-11-28T09:15:07.000Z` as the pack writes it (`2026-11-28 09:15:07 UTC`) and as a file name carries it (`20261128-091507Z`). */
const written = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
const inName = (iso: string) => `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}Z`;

beforeAll(async () => {
  s = await startStation();
  const worker = await call(s.origin, 'POST', '/api/v1/station/operators', { token: s.stationToken, body: { name: 'Ana Weigher', badge_code: 'B-ANA' } });
  expect(worker.status, worker.text).toBe(201);
  const workerId = (worker.json as { id: number }).id;
  const ret = await createReturn(s.origin, s.account1);
  returnId = ret.id;
  email = (ret as unknown as { email: string }).email;
  const pkg = await createPackage(s.origin, s.account1, A, ret.id, { weight: 1.8, weight_unit: 'kg' });
  packageId = pkg.id;
  tracking = pkg.tracking_number;
  for (const [i, condition] of (['like_new', 'damaged', 'good'] as const).entries()) {
    const item = await call(s.origin, 'POST', `/api/v1/accounts/${A}/return_packages/${packageId}/line_items`, {
      token: s.account1,
      body: { return_line_item_id: ret.return_line_items[i % 2]?.id ?? null, condition, condition_by: workerId, ...(i === 1 ? { serial: 'SN-EV-0001' } : {}) },
    });
    expect(item.status, item.text).toBe(201);
  }
  const weighed = await call(s.origin, 'POST', `/api/v1/accounts/${A}/return_packages/${packageId}/weight`, {
    token: s.account1,
    body: { source: 'typed', weight: 0.21, unit: 'kg', operator_id: workerId },
  });
  expect(weighed.status, weighed.text).toBe(200);
  for (const [i, photo] of photos.entries()) await upload(packageId, photo, takenAt[i] ?? '');
  const received = await call(s.origin, 'PATCH', `/api/v1/accounts/${A}/return_packages/${packageId}`, {
    token: s.account1,
    body: { status: 'received', processor_id: workerId },
  });
  expect(received.status, received.text).toBe(200);
  // 0.21 kg against 1.8 kg: the weight check held it; a supervisor confirms the finding.
  const first = await call(s.origin, 'POST', '/api/v1/station/first-supervisor', {
    token: s.stationToken,
    body: { name: 'Sam Supervisor', badge_code: 'SUP-E', pin: '2468' },
  });
  expect(first.status, first.text).toBe(201);
  const confirmed = await call(s.origin, 'POST', `/api/v1/accounts/${A}/return_packages/${packageId}/review/confirm`, {
    token: (first.json as { token: string }).token,
    body: { reason: 'empty box, photos taken' },
  });
  expect(confirmed.status, confirmed.text).toBe(200);
});
afterAll(async () => {
  await s.close();
});

describe('the evidence PDF', () => {
  it('says what the station recorded: parcel, return, weights, units, photos with their times, who and when', async () => {
    const response = await get(`/api/v1/accounts/${A}/return_packages/${packageId}/evidence.pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const text = pdfText(await bytesOf(response));
    expect(text).toContain(`Return evidence: parcel ${tracking}`);
    expect(text).toContain(`Return: ${returnId}`);
    expect(text).toContain(`Customer: ${email}`);
    expect(text).toContain("Expected: 1.8 kg (the return package's weight)");
    expect(text).toMatch(/Measured: 0\.21 kg, typed by hand, at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC by Ana Weigher/);
    expect(text).toContain('Weight check: lighter than the tolerance allows');
    expect(text).toMatch(/Review Decision: confirmed by Sam Supervisor at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC Reason: empty box, photos taken Held: /);
    expect(text).toMatch(/UTC weight check: weighed 0\.21 kg, expected 1\.8 kg \(at the dock: Ana Weigher\)/);
    expect(text).toMatch(/UTC Sam Supervisor review confirmed: empty box, photos taken/);
    expect(text).toMatch(/Units \(3\)/);
    for (const condition of ['like new', 'damaged', 'good']) expect(text).toContain(`condition ${condition}`);
    // The station's rules gave each inspected unit a disposition and a bin; the pack says them by name.
    const items = (await call(s.origin, 'GET', `/api/v1/accounts/${A}/return_packages/${packageId}`, { token: s.account1 })).json as {
      line_items: Array<{ unit_id: string; bin: string }>;
    };
    for (const item of items.line_items) {
      expect(text).toContain(`Unit ${item.unit_id}`);
      expect(text).toContain(`bin ${item.bin}`);
    }
    expect(text).toMatch(/Disposition (Restock|Refurbish|Liquidate|Return to vendor|Quarantine|Dispose)/);
    expect(text).toContain('condition damaged · serial SN-EV-0001');
    expect(text).toContain('condition like new · serial no serial');
    expect(text).toContain(`Photo 1 of 2 · taken ${written(takenAt[0] ?? '')} · photos/photo-01-taken-${inName(takenAt[0] ?? '')}.png`);
    expect(text).toContain(`Photo 2 of 2 · taken ${written(takenAt[1] ?? '')} · photos/photo-02-taken-${inName(takenAt[1] ?? '')}.png`);
    expect(text).toMatch(/\d\d:\d\d:\d\d UTC Ana Weigher unit RS-\S+: condition damaged/);
    expect(text).toMatch(/\d\d:\d\d:\d\d UTC Ana Weigher package received \(processed\)/);
    expect(text).toMatch(/\d\d:\d\d:\d\d UTC Ana Weigher parcel weighed: 0\.21 kg \(typed\)/);
  });

  it('shows each photo on its pages: a red and a blue region where the photos are', async () => {
    const pages = pdfPages(await bytesOf(await get(`/api/v1/accounts/${A}/return_packages/${packageId}/evidence.pdf`)));
    // At 40 dpi a photo drawn in its 495 × 300 pt box is at least ~150 × 100 px.
    const red = pages.reduce((n, page) => n + pixelsOf(page, RED), 0);
    const blue = pages.reduce((n, page) => n + pixelsOf(page, BLUE), 0);
    expect(red).toBeGreaterThan(10_000);
    expect(blue).toBeGreaterThan(5_000);
  });

  it('is 404 for an unknown package, 403 for another account, 401 without a token', async () => {
    const unknown = await call(s.origin, 'GET', `/api/v1/accounts/${A}/return_packages/999999/evidence.pdf`, { token: s.account1 });
    expectError(unknown, 'NOT_FOUND');
    expectError(await call(s.origin, 'GET', `/api/v1/accounts/${A}/return_packages/999999/evidence.zip`, { token: s.account1 }), 'NOT_FOUND');
    expectError(await call(s.origin, 'GET', `/api/v1/accounts/${A}/return_packages/0${packageId}/evidence.pdf`, { token: s.account1 }), 'NOT_FOUND');
    expectError(await call(s.origin, 'GET', `/api/v1/accounts/${A}/return_packages/${packageId}/evidence.zip`, { token: s.account2 }), 'ACCOUNT_FORBIDDEN');
    expectError(await call(s.origin, 'GET', `/api/v1/accounts/${A}/return_packages/${packageId}/evidence.pdf`), 'INVALID_TOKEN');
  });
});

describe('a package held for review', () => {
  it('says why it is held and since when, and that it waits for a supervisor', async () => {
    const ret = await createReturn(s.origin, s.account1);
    const pkg = await createPackage(s.origin, s.account1, A, ret.id, { status: 'delivered' });
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000).toISOString();
    await s.station.store.write((t) => holdForReview(t, pkg.id, { check: 'weight', text: 'weighed 0.21 kg, expected 1.80 kg', at }));
    const text = pdfText(await bytesOf(await get(`/api/v1/accounts/${A}/return_packages/${pkg.id}/evidence.pdf`)));
    expect(text).toContain('Decision: held, waiting for a supervisor');
    expect(text).toContain(`Held: ${written(at)}`);
    expect(text).toContain(`${written(at)} weight check: weighed 0.21 kg, expected 1.80 kg`);
    expect(text).toContain(`${written(at)} — held for review: weight check, weighed 0.21 kg, expected 1.80 kg`);
  });
});

describe('a serial another unit has', () => {
  it('says the serial check found it, and that it held the parcel', async () => {
    const ret = await createReturn(s.origin, s.account1);
    const pkg = await createPackage(s.origin, s.account1, A, ret.id, { status: 'delivered' });
    const item = await call(s.origin, 'POST', `/api/v1/accounts/${A}/return_packages/${pkg.id}/line_items`, {
      token: s.account1,
      body: { return_line_item_id: ret.return_line_items[0]?.id ?? null, condition: 'good', serial: 'SN-EV-0001' },
    });
    expect(item.status, item.text).toBe(201);
    const check = (item.json as { serial_check: { result: string; message: string } }).serial_check;
    expect(check.result).toBe('duplicate');
    const text = pdfText(await bytesOf(await get(`/api/v1/accounts/${A}/return_packages/${pkg.id}/evidence.pdf`)));
    expect(text).toContain(`serial SN-EV-0001 Disposition Quarantine · bin QUARANTINE Serial check: ${check.message.replace(/\s+/g, ' ')}`);
    expect(text).toContain('Decision: held, waiting for a supervisor');
    expect(text).toMatch(/UTC serial check: /);
  });
});

describe('the evidence zip', () => {
  it('holds the PDF and every photo full size, byte for byte as uploaded, named by its place and time', async () => {
    const response = await get(`/api/v1/accounts/${A}/return_packages/${packageId}/evidence.zip`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain(`evidence-${tracking.replace(/[^A-Za-z0-9_-]/g, '_')}.zip`);
    const files = unzipped(await bytesOf(response));
    const names = takenAt.map((at, i) => `photos/photo-0${i + 1}-taken-${inName(at)}.png`);
    expect([...files.keys()].sort()).toEqual([`evidence-${tracking.replace(/[^A-Za-z0-9_-]/g, '_')}.pdf`, ...names].sort());
    names.forEach((name, i) => expect(sha(files.get(name) ?? Buffer.alloc(0))).toBe(sha(photos[i] ?? Buffer.alloc(1))));
    const pdf = [...files.entries()].find(([name]) => name.endsWith('.pdf'))?.[1];
    expect(pdfText(pdf ?? Buffer.alloc(0))).toContain(`Return evidence: parcel ${tracking}`);
  });
});

describe('packages with no photo and with many', () => {
  it('a package with no photo, not weighed, not reviewed, no unit: a whole pack that says so', async () => {
    const ret = await createReturn(s.origin, s.account1);
    const pkg = await createPackage(s.origin, s.account1, A, ret.id);
    const text = pdfText(await bytesOf(await get(`/api/v1/accounts/${A}/return_packages/${pkg.id}/evidence.pdf`)));
    expect(text).toContain('Measured: not weighed');
    // The return has this one parcel: what the return says its parcel weighs (createReturn's 800 g).
    expect(text).toContain("Expected: 800 g (the return's parcel weight)");
    expect(text).toContain('Review not reviewed (no check at the dock held this parcel)');
    expect(text).toContain('No unit recorded.');
    expect(text).toContain('No photo was taken of this parcel.');
    const files = unzipped(await bytesOf(await get(`/api/v1/accounts/${A}/return_packages/${pkg.id}/evidence.zip`)));
    expect([...files.keys()]).toEqual([`evidence-${pkg.tracking_number.replace(/[^A-Za-z0-9_-]/g, '_')}.pdf`]);
  });

  it('more photos than the PDF draws: it draws 40 and names the rest; the zip holds all of them', async () => {
    const ret = await createReturn(s.origin, s.account1);
    const pkg = await createPackage(s.origin, s.account1, A, ret.id);
    const many = Array.from({ length: 43 }, (_, i) => solidPng(16, 12, [i * 5, 100, 200 - i * 4]));
    const times = many.map((_, i) => new Date(hourAndHalfAgo + i * 1000).toISOString());
    for (const [i, photo] of many.entries()) await upload(pkg.id, photo, times[i] ?? '');
    const text = pdfText(await bytesOf(await get(`/api/v1/accounts/${A}/return_packages/${pkg.id}/evidence.pdf`)));
    const fortieth = `photos/photo-40-taken-${inName(times[39] ?? '')}.png`;
    expect(text).toContain(`Photo 40 of 43 · taken ${written(times[39] ?? '')} · ${fortieth}`);
    expect(text).not.toContain(`${fortieth}: in the zip`);
    for (const n of [41, 42, 43])
      expect(text).toMatch(new RegExp(`Photo ${n} of 43 · taken .* UTC · photos/photo-${n}-\\S+\\.png: in the zip \\(more than this PDF holds\\)`));
    const files = unzipped(await bytesOf(await get(`/api/v1/accounts/${A}/return_packages/${pkg.id}/evidence.zip`)));
    const inZip = [...files.entries()].filter(([name]) => name.startsWith('photos/')).sort(([a], [b]) => a.localeCompare(b));
    expect(inZip.map(([, bytes]) => sha(bytes))).toEqual(many.map(sha));
  });
});
