import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { PrintJob, PrintJobListResponse } from '#shared/api/printing.ts';
import type { LookupResponse } from '#shared/api/station.ts';
import { createOperator } from '../../electron/station/domain/operators.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { openStation, type Station } from '../../electron/station/station.ts';
import { fakeZplPrinter, type FakeZplPrinter } from '../support/fake-zpl-printer.ts';
import { code128On } from '../support/label-barcode.ts';
import { call, createPackage, createReturn, expectError } from './support.ts';

/*
 * Labels and the print queue through the API: a fake ZPL printer (a TCP
 * listener) receives exactly the labels printed, once each, also after it was down; a job can be
 * cancelled while it waits; the system printer is a stand-in; a unit's PDF label scans back to
 * its unit id; a scanned unit id opens its package and item. The stop and start of the real
 * `serve` is test/restart/print-queue.test.ts.
 */

const ACCOUNT = 1;
let station: Station;
let origin: string;
let token: string;
let dataDir: string;
let printer: FakeZplPrinter;
const systemPrints: Array<{ pdf: Uint8Array; name: string | null }> = [];
let packageId: number;
let trackingNumber: string;
const items: number[] = [];
const units: string[] = [];

const post = (path: string, body?: unknown) => call(origin, 'POST', path, { token, ...(body === undefined ? {} : { body }) });
const itemPath = (item: number) => `/api/v1/accounts/${ACCOUNT}/return_packages/${packageId}/line_items/${item}`;
const setPrinter = (printerSetting: unknown, extra: Record<string, unknown> = {}) =>
  call(origin, 'PATCH', '/api/v1/station/settings', { token, body: { labels: { printer: printerSetting, ...extra } } });

async function jobs(state?: string): Promise<PrintJob[]> {
  const response = await call(origin, 'GET', `/api/v1/station/print-jobs${state ? `?state=${state}` : ''}`, { token });
  expect(response.status, response.text).toBe(200);
  return (response.json as PrintJobListResponse).data;
}

async function until<T>(what: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'printing-'));
  printer = await fakeZplPrinter();
  station = await openStation({
    dataDir,
    rendererDir: join(dataDir, 'no-renderer'),
    logLevel: 'silent',
    sync: false,
    printRetryFirstMs: 100,
    printRetryMaxMs: 300,
    systemPrinter: { print: async (pdf, name) => void systemPrints.push({ pdf, name }) },
  });
  origin = await station.listen('127.0.0.1', 0);
  await createToken(station.ctx.store, station.ctx.clock, { scope: 'account', accountId: ACCOUNT, name: 'account' });
  token = (await createToken(station.ctx.store, station.ctx.clock, { scope: 'station', accountId: null, name: 'station' })).secret;
  const ret = await createReturn(origin, token, { account_id: ACCOUNT });
  const pkg = await createPackage(origin, token, ACCOUNT, ret.id);
  packageId = pkg.id;
  trackingNumber = pkg.tracking_number;
  // Three inspected units (the station's rules give each a disposition, a bin and a unit id) and one only scanned (none yet).
  for (const n of [0, 1, 2, 3]) {
    const line = ret.return_line_items[n % 2];
    const created = await post(`/api/v1/accounts/${ACCOUNT}/return_packages/${packageId}/line_items`, {
      return_line_item_id: line?.id ?? null,
      ...(n < 3 ? { condition: 'like_new' } : {}),
    });
    expect(created.status, created.text).toBe(201);
    items.push((created.json as { id: number }).id);
    if (n < 3) units.push((created.json as { unit_id: string }).unit_id);
  }
}, 60_000);

afterAll(async () => {
  await station?.close();
  await printer?.down();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a network label printer (ZPL on raw TCP)', () => {
  test('the browser is the printer of a new station: a label job is handed to it, nothing is sent', async () => {
    const made = await post(`${itemPath(items[2] ?? 0)}/label`, {});
    expect(made.status, made.text).toBe(201);
    expect(made.json).toMatchObject({ kind: 'unit', state: 'in_browser', unit_id: units[2] });
    expect(printer.jobs).toEqual([]);
  });

  test('a unit label goes to the printer once: asking again answers the same job; a reprint prints again', async () => {
    expect((await setPrinter({ kind: 'zpl_tcp', host: '127.0.0.1', port: printer.port })).status).toBe(200);
    const first = await post(`${itemPath(items[0] ?? 0)}/label`, {});
    expect(first.status, first.text).toBe(201);
    const [zpl] = await printer.waitForJobs(1);
    expect(zpl).toContain(`^BCN,90,Y,N,N^FH_^FD${units[0]}^FS`);
    // The disposition by the station's name for it, the bin whole and largest.
    expect(zpl).toContain('^FDRestock^FS');
    expect(zpl).toContain('^A0N,68,68^FH_^FDRESTOCK^FS');
    expect(zpl).toContain(`^FDParcel ${trackingNumber}^FS`);
    const job = first.json as PrintJob;
    const printed = await until(
      () => jobs(),
      (all) => all.find((j) => j.id === job.id)?.state === 'printed',
    );
    expect(printed.find((j) => j.id === job.id)).toMatchObject({ state: 'printed', attempts: 1, printed_on: `zpl_tcp 127.0.0.1:${printer.port}` });

    const again = await post(`${itemPath(items[0] ?? 0)}/label`, {});
    expect(again.status).toBe(200);
    expect((again.json as PrintJob).id).toBe(job.id);
    const reprint = await post(`${itemPath(items[0] ?? 0)}/label`, { reprint: true });
    expect(reprint.status).toBe(201);
    expect(reprint.json).toMatchObject({ reprint_of: job.id, unit_id: units[0] });
    await printer.waitForJobs(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(printer.jobs).toHaveLength(2);
    expect(printer.jobs[1]).toBe(zpl);
  });

  test('with the printer down the job waits, is retried with its error shown, and prints once when the printer is back', async () => {
    await printer.down();
    const before = printer.jobs.length;
    const made = await post(`${itemPath(items[1] ?? 0)}/label`, {});
    expect(made.status).toBe(201);
    const id = (made.json as PrintJob).id;
    const waiting = await until(
      () => jobs('waiting'),
      (all) => (all.find((j) => j.id === id)?.attempts ?? 0) >= 2,
    );
    const job = waiting.find((j) => j.id === id);
    expect(job).toMatchObject({ state: 'waiting' });
    expect(job?.attempts).toBeGreaterThanOrEqual(2);
    // Why, in words a worker can act on (the socket's code last).
    expect(job?.last_error).toBe(
      `The printer 127.0.0.1 (port ${printer.port}) does not answer: nothing takes labels there. Is it on, and is that its address? (ECONNREFUSED)`,
    );
    expect(job?.next_attempt_at).not.toBeNull();

    await printer.up();
    await printer.waitForJobs(before + 1);
    await until(
      () => jobs(),
      (all) => all.find((j) => j.id === id)?.state === 'printed',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(printer.jobs.slice(before)).toHaveLength(1);
    expect(printer.jobs.at(-1)).toContain(`^FD${units[1]}^FS`);
  });

  test('a waiting job can be cancelled and is never printed; a printed one cannot be', async () => {
    await printer.down();
    const before = printer.jobs.length;
    const test = await post('/api/v1/station/printer/test');
    expect(test.status, test.text).toBe(201);
    const id = (test.json as PrintJob).id;
    await until(
      () => jobs('waiting'),
      (all) => (all.find((j) => j.id === id)?.attempts ?? 0) >= 1,
    );
    // A retry may be under way at this instant (the job `sending` for a moment: 409): cancel again.
    let cancelled = await call(origin, 'DELETE', `/api/v1/station/print-jobs/${id}`, { token });
    for (let tries = 0; cancelled.status === 409 && tries < 5; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      cancelled = await call(origin, 'DELETE', `/api/v1/station/print-jobs/${id}`, { token });
    }
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json).toMatchObject({ state: 'cancelled' });
    await printer.up();
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(printer.jobs.length).toBe(before);

    const printedJob = (await jobs('printed'))[0];
    expectError(await call(origin, 'DELETE', `/api/v1/station/print-jobs/${printedJob?.id ?? 0}`, { token }), 'INVALID_STATUS_TRANSITION');
    expectError(await call(origin, 'DELETE', '/api/v1/station/print-jobs/999999', { token }), 'NOT_FOUND');
  });

  test('a test print reaches the printer', async () => {
    const before = printer.jobs.length;
    expect((await post('/api/v1/station/printer/test')).status).toBe(201);
    const received = await printer.waitForJobs(before + 1);
    expect(received.at(-1)).toContain('^FDTEST-LABEL^FS');
  });
});

test('after the printer fails a job, the jobs asked for meanwhile wait behind it: labels come out in the order asked for', async () => {
  expect((await setPrinter({ kind: 'zpl_tcp', host: '127.0.0.1', port: printer.port })).status).toBe(200);
  await until(
    () => jobs('waiting'),
    (all) => all.length === 0,
  );
  const { promise: released, resolve: release } = Promise.withResolvers<undefined>();
  // The printer takes the first job's connection and fails it only once eight more jobs were asked for.
  printer.failNext(released);
  const before = printer.jobs.length;
  const asked = [0, 1, 2, 0, 1, 2, 0, 1, 2].map((n) => units[n] ?? '');
  const first = await post(`${itemPath(items[0] ?? 0)}/label`, { reprint: true });
  expect(first.status, first.text).toBe(201);
  await until(
    () => jobs('sending'),
    (all) => all.some((j) => j.id === (first.json as PrintJob).id),
  );
  for (const n of [1, 2, 0, 1, 2, 0, 1, 2]) expect((await post(`${itemPath(items[n] ?? 0)}/label`, { reprint: true })).status).toBe(201);
  release(undefined);
  const received = await printer.waitForJobs(before + asked.length);
  expect(received.slice(before).map((zpl) => /\^BCN,[^\n]*\^FD([^^]*)\^FS/.exec(zpl)?.[1])).toEqual(asked);
  const firstJob = (await jobs()).find((j) => j.id === (first.json as PrintJob).id);
  expect(firstJob).toMatchObject({ state: 'printed', attempts: 2 });
});

test('a label names a worker of the station; an operator_id that names none is refused (422) and queues nothing', async () => {
  const worker = await createOperator(station.ctx, { name: 'Grace Hopper', badge_code: 'BADGE-GRACE', active: true, role: 'worker', sign_in_key: null }, null);
  const count = (await jobs()).length;
  for (const [path, body] of [
    [`${itemPath(items[0] ?? 0)}/label`, { reprint: true, operator_id: 999_999 }],
    [`/api/v1/accounts/${ACCOUNT}/return_packages/${packageId}/labels`, { operator_id: 999_999 }],
  ] as const) {
    const details = expectError(await post(path, body), 'VALIDATION_FAILED') as { fields: Array<{ path: string }> };
    expect(details.fields.map((f) => f.path)).toEqual(['operator_id']);
  }
  expect((await jobs()).length).toBe(count);
  const named = await post(`${itemPath(items[0] ?? 0)}/label`, { reprint: true, operator_id: worker.id });
  expect(named.status, named.text).toBe(201);
  expect((named.json as PrintJob).label).toMatchObject({ worker: 'Grace Hopper', disposition: 'Restock', bin: 'RESTOCK' });
});

test("the desktop app's system printer gets the label as a PDF, by the printer's name", async () => {
  expect((await setPrinter({ kind: 'system', name: 'Dock Zebra' })).status).toBe(200);
  const made = await post(`${itemPath(items[2] ?? 0)}/label`, { reprint: true });
  expect(made.status).toBe(201);
  await until(
    async () => systemPrints.length,
    (n) => n >= 1,
  );
  expect(systemPrints).toHaveLength(1);
  expect(systemPrints[0]?.name).toBe('Dock Zebra');
  expect(await code128On(systemPrints[0]?.pdf ?? new Uint8Array())).toEqual([units[2]]);
});

test('a package with the slip setting gets a slip after its unit labels; units already labelled are not labelled again', async () => {
  expect((await setPrinter({ kind: 'zpl_tcp', host: '127.0.0.1', port: printer.port }, { package_slip: true })).status).toBe(200);
  const made = await post(`/api/v1/accounts/${ACCOUNT}/return_packages/${packageId}/labels`, {});
  expect(made.status, made.text).toBe(201);
  // Every unit of the package has a live job already: nothing new, so no slip either.
  expect((made.json as { data: PrintJob[] }).data).toEqual([]);
  const ret = await createReturn(origin, token, { account_id: ACCOUNT });
  const pkg = await createPackage(origin, token, ACCOUNT, ret.id);
  const more: string[] = [];
  for (let k = 0; k < 2; k += 1) {
    const made = await post(`/api/v1/accounts/${ACCOUNT}/return_packages/${pkg.id}/line_items`, {
      return_line_item_id: ret.return_line_items[0]?.id ?? null,
      condition: 'like_new',
    });
    more.push((made.json as { unit_id: string }).unit_id);
  }
  const before = printer.jobs.length;
  const labels = await post(`/api/v1/accounts/${ACCOUNT}/return_packages/${pkg.id}/labels`, {});
  expect((labels.json as { data: PrintJob[] }).data.map((j) => [j.kind, j.unit_id])).toEqual([
    ['unit', more[0]],
    ['unit', more[1]],
    ['slip', null],
  ]);
  const received = await printer.waitForJobs(before + 3);
  expect(received.slice(before).map((zpl) => /\^FD([^^]*)\^FS/.exec(zpl)?.[1])).toEqual([more[0], more[1], pkg.tracking_number]);
});

test("a package's labels as one PDF: a page each unit with an id, every barcode scans; the station status counts labels waiting and says why", async () => {
  const response = await fetch(`${origin}/api/v1/accounts/${ACCOUNT}/return_packages/${packageId}/labels.pdf`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  const pdf = Buffer.from(await response.arrayBuffer());
  // One page a unit with an id (the fourth item has none), each its own label.
  expect(pdf.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(units.length);
  expect(await code128On(pdf)).toEqual([units[0]]);
  const empty = await createPackage(origin, token, ACCOUNT, (await createReturn(origin, token, { account_id: ACCOUNT })).id);
  expectError(await call(origin, 'GET', `/api/v1/accounts/${ACCOUNT}/return_packages/${empty.id}/labels.pdf`, { token }), 'VALIDATION_FAILED');

  const status = async () =>
    ((await call(origin, 'GET', '/api/v1/station', { token })).json as { printing: { waiting: number; problem: string | null } }).printing;
  // The earlier tests' jobs acknowledged first (the printer reads a job before the station marks it printed).
  expect(await until(status, (p) => p.waiting === 0)).toEqual({ waiting: 0, problem: null });
  await printer.down();
  try {
    expect((await setPrinter({ kind: 'zpl_tcp', host: '127.0.0.1', port: printer.port })).status).toBe(200);
    for (const item of [items[0], items[1]]) expect((await post(`${itemPath(item ?? 0)}/label`, { reprint: true })).status).toBe(201);
    const failing = await until(status, (p) => p.problem !== null);
    expect(failing).toEqual({ waiting: 2, problem: expect.stringMatching(/^The printer 127\.0\.0\.1 \(port \d+\) does not answer/) as unknown });
  } finally {
    await printer.up();
  }
  expect(await until(status, (p) => p.waiting === 0)).toEqual({ waiting: 0, problem: null });
});

test('a line item without a unit id has no label yet (422 on line_item_id); another account cannot print it', async () => {
  const refused = await post(`${itemPath(items[3] ?? 0)}/label`, {});
  expectError(refused, 'VALIDATION_FAILED');
  expect(refused.text).toContain('line_item_id');
  expectError(await call(origin, 'GET', `/api/v1/accounts/2/return_packages/${packageId}/line_items/${items[0] ?? 0}/label.pdf`, { token }), 'NOT_FOUND');
});

test("a unit's PDF label is 4 × 2 in and its barcode scans to the unit id", async () => {
  const response = await fetch(`${origin}${itemPath(items[0] ?? 0)}/label.pdf`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  const pdf = new Uint8Array(await response.arrayBuffer());
  expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
  expect(Buffer.from(pdf).toString('latin1')).toContain('/MediaBox [0 0 288 144]');
  expect(await code128On(pdf)).toEqual([units[0]]);
  const test = await fetch(`${origin}/api/v1/station/printer/test.pdf`, { headers: { authorization: `Bearer ${token}` } });
  expect(await code128On(new Uint8Array(await test.arrayBuffer()))).toEqual(['TEST-LABEL']);
});

test('scanning a unit label opens its package and names its item, whatever the case of the scan', async () => {
  const unit = units[1] ?? '';
  for (const code of [unit, unit.toLowerCase(), `]C1${unit}\n`]) {
    const response = await call(origin, 'GET', `/api/v1/station/lookup?code=${encodeURIComponent(code)}`, { token });
    expect(response.status, response.text).toBe(200);
    const found = response.json as LookupResponse;
    expect(found.unit).toEqual({ unit_id: unit, account_id: ACCOUNT, return_package_id: packageId, line_item_id: items[1] });
    expect(found.packages.map((p) => p.id)).toEqual([packageId]);
  }
  // A unit id of no item here is no unit; a tracking number still finds its package without a unit.
  const gone = (await call(origin, 'GET', '/api/v1/station/lookup?code=RS-00000000-999999', { token })).json as LookupResponse;
  expect(gone).toMatchObject({ unit: null, packages: [] });
  const parcel = (await call(origin, 'GET', `/api/v1/station/lookup?code=${trackingNumber}`, { token })).json as LookupResponse;
  expect(parcel.unit).toBeNull();
  expect(parcel.packages.map((p) => p.id)).toEqual([packageId]);
});

test('receiving a package sends each unit its label once; the same receipt sent again prints nothing', async () => {
  expect((await setPrinter({ kind: 'zpl_tcp', host: '127.0.0.1', port: printer.port }, { package_slip: false })).status).toBe(200);
  const ret = await createReturn(origin, token, { account_id: ACCOUNT });
  const pkg = await createPackage(origin, token, ACCOUNT, ret.id);
  const received: string[] = [];
  for (const condition of ['like_new', 'damaged']) {
    const made = await post(`/api/v1/accounts/${ACCOUNT}/return_packages/${pkg.id}/line_items`, {
      return_line_item_id: ret.return_line_items[0]?.id ?? null,
      condition,
    });
    received.push((made.json as { unit_id: string }).unit_id);
  }
  const before = printer.jobs.length;
  const receipt = await call(origin, 'PATCH', `/api/v1/accounts/${ACCOUNT}/return_packages/${pkg.id}`, { token, body: { status: 'received' } });
  expect(receipt.status, receipt.text).toBe(200);
  const printed = await printer.waitForJobs(before + 2);
  expect(printed.slice(before).map((zpl) => /\^FH_\^FD([^^]*)\^FS/.exec(zpl)?.[1])).toEqual(received);
  expect(printed.slice(before).join('\n')).toContain('^A0N,68,68^FH_^FDLIQUIDATE^FS');
  expect(printed.slice(before).join('\n')).toContain('^FDLiquidate^FS');
  // Sent again (a replay, another terminal): not a move to received, no second label.
  expect((await call(origin, 'PATCH', `/api/v1/accounts/${ACCOUNT}/return_packages/${pkg.id}`, { token, body: { status: 'received' } })).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(printer.jobs).toHaveLength(before + 2);
});
