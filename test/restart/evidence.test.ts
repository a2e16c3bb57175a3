import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { call, createPackage, createReturn } from '../api/support.ts';
import { pdfPages, pdfText, pixelsOf, solidPng, unzipped } from '../support/evidence-reader.ts';
import { startStation } from '../support/station-process.ts';
import { cli } from './station-state.ts';

/*
 * The evidence pack of a package made before a stop and a start of the real `returns-station serve`
 * is whole after it: the same units, weights, photos (shown on the pages, byte for byte in the zip)
 * and who did what when.
 */

const ACCOUNT = 1002;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const GREEN: [number, number, number] = [30, 200, 60];

it("a package's evidence pack made before a restart is whole after it", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-restart-'));
  dirs.push(dir);
  cli(dir, 'token', 'create', '--account', String(ACCOUNT), '--name', 'account');

  let station = await startStation({ dataDir: dir });
  const token = () => station.stationToken;
  const path = (id: number) => `/api/v1/accounts/${ACCOUNT}/return_packages/${id}`;
  const worker = await call(station.origin, 'POST', '/api/v1/station/operators', { token: token(), body: { name: 'Bo Receiver', badge_code: 'B-BO' } });
  expect(worker.status, worker.text).toBe(201);
  const workerId = (worker.json as { id: number }).id;
  const ret = await createReturn(station.origin, token(), { account_id: ACCOUNT });
  const pkg = await createPackage(station.origin, token(), ACCOUNT, ret.id, { weight: 2.5, weight_unit: 'kg' });
  for (const condition of ['new', 'fair']) {
    const item = await call(station.origin, 'POST', `${path(pkg.id)}/line_items`, {
      token: token(),
      body: { return_line_item_id: ret.return_line_items[0]?.id ?? null, condition, condition_by: workerId },
    });
    expect(item.status, item.text).toBe(201);
  }
  const weighed = await call(station.origin, 'POST', `${path(pkg.id)}/weight`, {
    token: token(),
    body: { source: 'typed', weight: 2.43, unit: 'kg', operator_id: workerId },
  });
  expect(weighed.status, weighed.text).toBe(200);
  const photo = solidPng(300, 200, GREEN);
  const takenAt = new Date(Math.floor((Date.now() - 10 * 60_000) / 1000) * 1000).toISOString();
  const uploaded = await call(station.origin, 'POST', `${path(pkg.id)}/media_files?captured_at=${takenAt}`, {
    token: token(),
    raw: photo,
    headers: { 'content-type': 'image/png' },
  });
  expect(uploaded.status, uploaded.text).toBe(201);
  const received = await call(station.origin, 'PATCH', path(pkg.id), { token: token(), body: { status: 'received', processor_id: workerId } });
  expect(received.status, received.text).toBe(200);

  const pack = async () => {
    const auth = { authorization: `Bearer ${token()}` };
    const pdf = new Uint8Array(await (await fetch(`${station.origin}${path(pkg.id)}/evidence.pdf`, { headers: auth })).arrayBuffer());
    const zip = new Uint8Array(await (await fetch(`${station.origin}${path(pkg.id)}/evidence.zip`, { headers: auth })).arrayBuffer());
    // What must be the same after the restart: everything but the time the pack was made.
    const text = pdfText(pdf).replace(/Made by Returns Station at \S+ \S+ UTC/, '');
    return { text, pdf, files: unzipped(zip) };
  };
  const before = await pack();
  expect(await station.stop()).toBe(0);
  station = await startStation({ dataDir: dir });
  const after = await pack();
  expect(await station.stop()).toBe(0);

  expect(after.text).toBe(before.text);
  expect(after.text).toContain(`Return evidence: parcel ${pkg.tracking_number}`);
  expect(after.text).toContain('Expected: 2.5 kg');
  expect(after.text).toMatch(/Measured: 2\.43 kg, typed by hand, at .* UTC by Bo Receiver/);
  expect(after.text).toContain('condition new');
  expect(after.text).toContain('condition fair');
  expect(after.text).toMatch(/UTC Bo Receiver package received \(processed\)/);
  expect(after.text).toContain(`taken ${takenAt.slice(0, 10)} ${takenAt.slice(11, 19)} UTC`);
  expect(pdfPages(after.pdf).reduce((n, page) => n + pixelsOf(page, GREEN), 0)).toBeGreaterThan(10_000);
  const photos = [...after.files.entries()].filter(([name]) => name.startsWith('photos/'));
  expect(photos.map(([, bytes]) => sha(bytes))).toEqual([sha(photo)]);
  expect([...after.files.keys()].sort()).toEqual([...before.files.keys()].sort());
});
