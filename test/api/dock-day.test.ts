import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '#shared/api/client.ts';
import { type DockDay, DockDaySchema } from '#shared/api/dock-day.ts';
import type { PackageLineItem } from '#shared/api/line-items.ts';
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
type Received = Awaited<ReturnType<typeof receive>>;
const received: Received[] = [];
let yesterdayReceipt: Received;
let waitingId: number;
let exceptionId: number;
let workerId: number;

/**
 * Receives a package with the given lines, as worker `processorId` (null: through the API alone);
 * `atTheDock` overrides and puts before it is received.
 */
async function receive(
  api: ApiClient,
  account: number,
  lines: (ret: { id: number; lineIds: number[] }) => Parameters<ApiClient['createLineItem']>[2][],
  processorId: number | null,
  atTheDock?: (packageId: number, items: PackageLineItem[]) => Promise<void>,
) {
  const ret = await api.createReturn(returnBody({ account_id: account, email: `dock.${uniqueTracking('')}@example.com` }));
  const pkg = await api.createPackage(account, { return_id: ret.id, tracking_number: uniqueTracking('DD'), status: 'delivered' });
  const items: PackageLineItem[] = [];
  for (const line of lines({ id: ret.id, lineIds: ret.return_line_items.map((l) => l.id) })) items.push(await api.createLineItem(account, pkg.id, line));
  await atTheDock?.(pkg.id, items);
  await api.updatePackage(account, pkg.id, { status: 'received', processor_id: processorId });
  return {
    id: pkg.id,
    processed_at: (await api.getPackage(account, pkg.id)).processed_at ?? '',
    tracking_number: pkg.tracking_number,
    items: (await api.getPackage(account, pkg.id)).line_items,
  };
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
  expect(await station.stop()).toBe(0);

  station = await startStation({ dataDir, env });
  api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
  const otherWorker = (await api.createOperator({ name: 'Ari Bench', badge_code: uniqueTracking('BADGE-') })).id;
  // Today: one clean receipt by the worker, its put confirmed (the bin scanned in lower case); one
  // with an over-receipt and an unexpected item whose SKU a spreadsheet would run as a formula,
  // received with no worker signed in. The damaged line (liquidate by the rules) is overridden to
  // quarantine by the worker, then again by another, to restock; the stray item is never inspected.
  received.push(
    await receive(
      api,
      account,
      ({ lineIds }) => [{ return_line_item_id: lineIds[1] ?? null, quantity: 1, condition: 'new' }],
      workerId,
      async (pkgId, [item]) => {
        await api.confirmPut(account, pkgId, item?.id ?? 0, { bin: 'restock' });
      },
    ),
  );
  received.push(
    await receive(
      api,
      account,
      ({ lineIds }) => [
        { return_line_item_id: lineIds[1] ?? null, quantity: 3, condition: 'damaged', notes: 'three in the box, one expected' },
        { return_line_item_id: null, merchant_sku: '=HYPERLINK("http://x")', name: 'Stray, "quoted" item', quantity: 1 },
        { return_line_item_id: lineIds[0] ?? null, quantity: 1, condition: 'like_new' },
      ],
      null,
      async (pkgId, [damaged, , likeNew]) => {
        await api.updateLineItem(account, pkgId, damaged?.id ?? 0, {
          disposition: 'quarantine',
          bin: 'Q-1',
          disposition_reason: 'Smells of smoke',
          disposition_by: workerId,
        });
        await api.confirmPut(account, pkgId, damaged?.id ?? 0, { bin: 'q-1' });
        await api.updateLineItem(account, pkgId, likeNew?.id ?? 0, {
          disposition: 'refurbish',
          disposition_reason: 'Box crushed',
          disposition_by: otherWorker,
        });
      },
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

/** Today's units by disposition and by bin, and the overrides by worker. */
function expectDispositions(day: DockDay): void {
  expect(day.per_disposition).toEqual([
    { disposition: 'restock', units: 1, overridden: 0 },
    { disposition: 'refurbish', units: 1, overridden: 1 },
    { disposition: 'return_to_vendor', units: 0, overridden: 0 },
    { disposition: 'liquidate', units: 0, overridden: 0 },
    { disposition: 'quarantine', units: 3, overridden: 3 },
    { disposition: 'dispose', units: 0, overridden: 0 },
  ]);
  // The stray item was never inspected.
  expect(day.units_without_disposition).toBe(1);
  // Most units first; the bin scanned as `q-1` is the same bin Q-1.
  expect(day.per_bin).toEqual([
    { bin: 'Q-1', units: 3, put_confirmed: 3, dispositions: ['quarantine'] },
    { bin: 'REFURB', units: 1, put_confirmed: 0, dispositions: ['refurbish'] },
    { bin: 'RESTOCK', units: 1, put_confirmed: 1, dispositions: ['restock'] },
  ]);
  expect(day.per_bin_total).toBe(3);
  const [damaged, , likeNew] = received[1]?.items ?? [];
  expect(
    day.overrides_per_worker.map((w) => [w.name, w.overrides, w.latest.map((o) => [o.line_item_id, o.disposition, o.reason, o.unit_id, o.tracking_number])]),
  ).toEqual([
    ['Ari Bench', 1, [[likeNew?.id, 'refurbish', 'Box crushed', likeNew?.unit_id, received[1]?.tracking_number]]],
    ['Dana Dock', 1, [[damaged?.id, 'quarantine', 'Smells of smoke', damaged?.unit_id, received[1]?.tracking_number]]],
  ]);
  expect(day.overrides_per_worker[1]?.operator_id).toBe(workerId);
}

function expectToday(day: DockDay): void {
  const today = local(new Date().toISOString()).date;
  expect(day.date).toBe(today);
  expect(day.time_zone).toBe(TIME_ZONE);
  // Every rule of the schema holds (the totals add up, the lists in their order).
  expect(() => DockDaySchema.parse(day)).not.toThrow();
  expect(day.received_packages).toBe(2);
  expect(day.received_units).toBe(1 + 3 + 1 + 1);
  const perHour = Array.from({ length: 24 }, () => 0);
  for (const r of received) perHour[local(r.processed_at).hour] = (perHour[local(r.processed_at).hour] ?? 0) + 1;
  expect(day.received_per_hour).toEqual(perHour);
  // Most packages first; a tie by name.
  expect(day.per_worker).toEqual([
    { operator_id: workerId, name: 'Dana Dock', packages: 1, units: 1 },
    { operator_id: null, name: 'No worker signed in', packages: 1, units: 5 },
  ]);
  expectDispositions(day);
  // Partial receipts too (a line with fewer units than the return expects, none included), with why.
  // The latest receipt first.
  expect(day.review.map((r) => [r.package_id, r.kind, r.item, r.expected, r.received])).toEqual([
    [received[1]?.id, 'unexpected_item', '=HYPERLINK("http://x")', 0, 1],
    [received[1]?.id, 'over_receipt', 'JN-32', 1, 3],
    [received[1]?.id, 'short_receipt', 'TS-RED-M', 2, 1],
    [received[0]?.id, 'short_receipt', 'TS-RED-M', 2, 0],
  ]);
  expect(day.review_total).toBe(4);
  expect(day.exceptions.map((p) => p.package_id)).toEqual([exceptionId]);
  expect(day.waiting.map((p) => p.package_id)).toEqual([waitingId]);
  expect(day.waiting_total).toBe(1);
  expect(day.sync.state).toBe('disabled');
}

describe('GET /api/v1/station/dock-day', () => {
  test("today's receipts per hour and per worker, lines to review, exceptions and parcels waiting over an hour", async () => {
    const api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
    const day = await api.dockDay({ waiting_minutes: 60 });
    expectToday(day);
    // The schema's rules are real: totals that do not add up, or entries out of order, are refused.
    const issues = (broken: DockDay) => DockDaySchema.safeParse(broken).error?.issues.map((i) => i.path.join('.'));
    expect(issues({ ...day, units_without_disposition: day.units_without_disposition + 1 })).toEqual(['units_without_disposition']);
    expect(issues({ ...day, per_disposition: [...day.per_disposition].reverse() })).toContain('per_disposition.0.disposition');
    expect(issues({ ...day, per_bin: day.per_bin.map((b) => ({ ...b, put_confirmed: b.units + 1 })) })).toContain('per_bin.0.put_confirmed');
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
    // Its one receipt is partial: 1 of the T-shirt's 2 units, none of the jeans.
    expect(day.review.map((r) => [r.package_id, r.kind, r.item, r.expected, r.received])).toEqual([
      [yesterdayReceipt.id, 'short_receipt', 'TS-RED-M', 2, 1],
      [yesterdayReceipt.id, 'short_receipt', 'JN-32', 1, 0],
    ]);
    expect(day.per_disposition.find((d) => d.disposition === 'restock')?.units).toBe(1);
    expect(day.per_bin.map((b) => [b.bin, b.units, b.put_confirmed])).toEqual([['RESTOCK', 1, 0]]);
    expect(day.overrides_per_worker).toEqual([]);
  });

  test('the CSV export: a row per received line, quoted where needed, formulas defused, named after the day', async () => {
    const response = await call(station.origin, 'GET', '/api/v1/station/dock-day/receipts.csv', { token: station.stationToken });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const today = local(new Date().toISOString()).date;
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="receipts-${today}.csv"`);
    const lines = response.text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'received_at,account_id,package_id,tracking_number,return_id,worker,sku,item,quantity,condition,defective,notes,tags,disposition,bin,unit_id,put_confirmed_at',
    );
    expect(lines).toHaveLength(1 + 4);
    const stray = lines.find((line) => line.includes('HYPERLINK'));
    // The cell starts with a quote mark, so a spreadsheet shows it as text; quotes inside are doubled.
    expect(stray).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(stray).toContain('"Stray, ""quoted"" item"');
    expect(lines.filter((line) => line.includes(',Dana Dock,'))).toHaveLength(1);
    // Each row ends with the unit's disposition, bin, unit id and when its put was confirmed.
    const tail = (item: PackageLineItem | undefined) =>
      lines
        .find((line) => item?.unit_id && line.includes(`,${item.unit_id},`))
        ?.split(',')
        .slice(-4);
    const [first] = received[0]?.items ?? [];
    const [damaged, , likeNew] = received[1]?.items ?? [];
    expect(tail(first)).toEqual(['restock', 'RESTOCK', first?.unit_id, first?.put_confirmed_at]);
    expect(tail(damaged)).toEqual(['quarantine', 'Q-1', damaged?.unit_id, damaged?.put_confirmed_at]);
    expect(tail(likeNew)).toEqual(['refurbish', 'REFURB', likeNew?.unit_id, '']);
    expect(first?.put_confirmed_at).toMatch(/^\d{4}-/);
    // The stray item has no disposition: its four cells are empty.
    expect(stray?.endsWith(',,,,')).toBe(true);
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
