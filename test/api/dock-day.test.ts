import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '#shared/api/client.ts';
import type { DockDay } from '#shared/api/dock-day.ts';
import { type RunningStation, startStation } from '../support/station-process.ts';
import { call, expectError, returnBody, uniqueTracking } from './support.ts';

/*
 * The supervisor's dock day through the real `returns-station serve`: receipts on two days (the
 * first made with the station's clock a day behind), per hour and per worker in the station's own
 * time zone, lines to review, exceptions, parcels waiting, the CSV export — and the same answers
 * after a stop and a start.
 */

const TIME_ZONE = 'America/New_York';
const env = { TZ: TIME_ZONE };

/** The calendar date and hour of an instant in the station's time zone. */
function local(iso: string): { date: string; hour: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

const ACCOUNT = 1001;
let station: RunningStation;
let dataDir: string;
const received: Array<{ id: number; processed_at: string }> = [];
let yesterdayReceipt: { id: number; processed_at: string };
let waitingId: number;
let exceptionId: number;
let workerId: number;

/** Receives a package with the given lines, as worker `processorId` (null: through the API alone). */
async function receive(api: ApiClient, account: number, lines: (ret: { id: number; lineIds: number[] }) => Parameters<ApiClient['createLineItem']>[2][], processorId: number | null) {
  const ret = await api.createReturn(returnBody({ account_id: account, email: `dock.${uniqueTracking('')}@example.com` }));
  const pkg = await api.createPackage(account, { return_id: ret.id, tracking_number: uniqueTracking('DD'), status: 'delivered' });
  for (const line of lines({ id: ret.id, lineIds: ret.return_line_items.map((l) => l.id) })) await api.createLineItem(account, pkg.id, line);
  await api.updatePackage(account, pkg.id, { status: 'received', processor_id: processorId });
  return { id: pkg.id, processed_at: (await api.getPackage(account, pkg.id)).processed_at ?? '' };
}

beforeAll(async () => {
  // Yesterday: the station's clock a day behind.
  // Our own directory: a station started without one removes its directory when it stops.
  dataDir = mkdtempSync(join(tmpdir(), 'dock-day-'));
  station = await startStation({ dataDir, env: { ...env, RETURNS_STATION_CLOCK_OFFSET: '-1d' } });
  let api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
  // An account comes into being with its first token.
  await api.createToken({ scope: 'account', account_id: ACCOUNT, name: 'integration' });
  const account = ACCOUNT;
  workerId = (await api.createOperator({ name: 'Dana Dock', badge_code: uniqueTracking('BADGE-') })).id;
  yesterdayReceipt = await receive(api, account, ({ lineIds }) => [{ return_line_item_id: lineIds[0] ?? null, quantity: 1, condition: 'like_new' }], workerId);
  expect((await station.stop())).toBe(0);

  station = await startStation({ dataDir, env });
  api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
  // Today: one clean receipt by the worker; one with an over-receipt and an unexpected item whose
  // SKU a spreadsheet would run as a formula, received with no worker signed in.
  received.push(await receive(api, account, ({ lineIds }) => [{ return_line_item_id: lineIds[1] ?? null, quantity: 1, condition: 'new' }], workerId));
  received.push(
    await receive(
      api,
      account,
      ({ lineIds }) => [
        { return_line_item_id: lineIds[1] ?? null, quantity: 3, condition: 'damaged', notes: 'three in the box, one expected' },
        { return_line_item_id: null, merchant_sku: '=HYPERLINK("http://x")', name: 'Stray, "quoted" item', quantity: 1 },
      ],
      null,
    ),
  );
  const parked = await api.createReturn(returnBody({ account_id: account, email: 'waiting@example.com' }));
  const threeHoursAgo = new Date(Date.now() - 3 * 3_600_000).toISOString();
  waitingId = (await api.createPackage(account, { return_id: parked.id, tracking_number: uniqueTracking('WAIT') })).id;
  await api.updatePackage(account, waitingId, { status: 'delivered', actual_arrival: threeHoursAgo });
  await api.createPackage(account, { return_id: parked.id, tracking_number: uniqueTracking('JUST'), status: 'delivered' });
  exceptionId = (await api.createPackage(account, { return_id: parked.id, tracking_number: uniqueTracking('EXC'), status: 'delivered' })).id;
  await api.updatePackage(account, exceptionId, { status: 'exception', notes: 'label unreadable' });
}, 90_000);

afterAll(async () => {
  await station?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function expectToday(day: DockDay): void {
  const today = local(new Date().toISOString()).date;
  expect(day.date).toBe(today);
  expect(day.time_zone).toBe(TIME_ZONE);
  expect(day.received_packages).toBe(2);
  expect(day.received_units).toBe(1 + 3 + 1);
  const perHour = Array.from({ length: 24 }, () => 0);
  for (const r of received) perHour[local(r.processed_at).hour] = (perHour[local(r.processed_at).hour] ?? 0) + 1;
  expect(day.received_per_hour).toEqual(perHour);
  // Most packages first; a tie by name.
  expect(day.per_worker).toEqual([
    { operator_id: workerId, name: 'Dana Dock', packages: 1, units: 1 },
    { operator_id: null, name: 'No worker signed in', packages: 1, units: 4 },
  ]);
  expect(day.review.map((r) => [r.package_id, r.kind, r.item, r.expected, r.received])).toEqual([
    [received[1]?.id, 'unexpected_item', '=HYPERLINK("http://x")', 0, 1],
    [received[1]?.id, 'over_receipt', 'JN-32', 1, 3],
  ]);
  expect(day.exceptions.map((p) => p.package_id)).toEqual([exceptionId]);
  expect(day.waiting.map((p) => p.package_id)).toEqual([waitingId]);
  expect(day.waiting_total).toBe(1);
  expect(day.sync.state).toBe('disabled');
}

describe('GET /api/v1/station/dock-day', () => {
  test("today's receipts per hour and per worker, lines to review, exceptions and parcels waiting over an hour", async () => {
    const api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
    expectToday(await api.dockDay({ waiting_minutes: 60 }));
    // Four hours: the parcel that has waited three is not late yet.
    expect((await api.dockDay({ waiting_minutes: 240 })).waiting).toEqual([]);
  });

  test('another day is its own: yesterday holds the receipt made with the clock a day behind', async () => {
    const api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
    const yesterday = local(yesterdayReceipt.processed_at);
    const day = await api.dockDay({ date: yesterday.date });
    expect(day.date).toBe(yesterday.date);
    expect(day.received_packages).toBe(1);
    expect(day.per_worker).toEqual([{ operator_id: workerId, name: 'Dana Dock', packages: 1, units: 1 }]);
    expect(day.received_per_hour[yesterday.hour]).toBe(1);
    expect(day.review).toEqual([]);
  });

  test('the CSV export: a row per received line, quoted where needed, formulas defused, named after the day', async () => {
    const response = await call(station.origin, 'GET', '/api/v1/station/dock-day/receipts.csv', { token: station.stationToken });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const today = local(new Date().toISOString()).date;
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="receipts-${today}.csv"`);
    const lines = response.text.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('received_at,account_id,package_id,tracking_number,return_id,worker,sku,item,quantity,condition,defective,notes,tags');
    expect(lines).toHaveLength(1 + 3);
    const stray = lines.find((line) => line.includes('HYPERLINK'));
    // The cell starts with a quote mark, so a spreadsheet shows it as text; quotes inside are doubled.
    expect(stray).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(stray).toContain('"Stray, ""quoted"" item"');
    expect(lines.filter((line) => line.includes(',Dana Dock,'))).toHaveLength(1);
  });

  test('bad input gets a clear error; an account token may not see the dock', async () => {
    const token = station.stationToken;
    expectError(await call(station.origin, 'GET', '/api/v1/station/dock-day?date=2026-02-30', { token }), 'INVALID_QUERY');
    expectError(await call(station.origin, 'GET', '/api/v1/station/dock-day?waiting_minutes=0', { token }), 'INVALID_QUERY');
    expectError(await call(station.origin, 'GET', '/api/v1/station/dock-day?since=yesterday', { token }), 'INVALID_QUERY');
    expectError(await call(station.origin, 'GET', '/api/v1/station/dock-day/receipts.csv?date=tomorrow', { token }), 'INVALID_QUERY');
    const api = new ApiClient({ baseUrl: station.origin, token });
    const accountToken = (await api.createToken({ scope: 'account', account_id: ACCOUNT, name: 'integration' })).secret;
    expectError(await call(station.origin, 'GET', '/api/v1/station/dock-day', { token: accountToken }), 'ACCOUNT_FORBIDDEN');
  });

  test('after a stop and a start the day reads the same', async () => {
    expect(await station.stop()).toBe(0);
    station = await startStation({ dataDir, env });
    const api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
    expectToday(await api.dockDay({ waiting_minutes: 60 }));
  }, 30_000);
});
