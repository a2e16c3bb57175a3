import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startStation } from '../support/station-process.ts';
import { call, createPackage, createReturn } from '../api/support.ts';
import { cli } from './station-state.ts';

/*
 * A list's total by account and status comes from counts the store keeps beside the rows
 * (store/sqlite/status-counts.ts): on the real `returns-station serve` they follow creates and
 * status changes, and are the same after a stop and a start.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

it('list totals by status follow creates and changes, and survive a restart', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'list-counts-'));
  dirs.push(dir);
  const token = cli(dir, 'token', 'create', '--account', '1001', '--name', 'list counts test').trim();
  const A = '/api/v1/accounts/1001/return_packages';
  const totals = async (origin: string) => {
    const result: Record<string, number> = {};
    for (const status of ['in_transit', 'delivered', 'in_transit,delivered']) {
      const response = await call(origin, 'GET', `${A}?status=${status}&per_page=1`, { token });
      expect(response.status, response.text).toBe(200);
      result[status] = (response.json as { meta: { total_count: number } }).meta.total_count;
    }
    const all = await call(origin, 'GET', `${A}?per_page=1`, { token });
    result.all = (all.json as { meta: { total_count: number } }).meta.total_count;
    return result;
  };

  let station = await startStation({ dataDir: dir });
  const ret = await createReturn(station.origin, token);
  const ids: number[] = [];
  for (let n = 0; n < 4; n++) ids.push((await createPackage(station.origin, token, 1001, ret.id, { status: 'in_transit', tracking_number: `COUNT${n}` })).id);
  const changed = await call(station.origin, 'PATCH', `${A}/${ids[0]}`, { token, body: { status: 'delivered' } });
  expect(changed.status, changed.text).toBe(200);
  const before = await totals(station.origin);
  expect(before).toEqual({ in_transit: 3, delivered: 1, 'in_transit,delivered': 4, all: 4 });
  expect(await station.stop()).toBe(0);

  station = await startStation({ dataDir: dir });
  try {
    expect(await totals(station.origin)).toEqual(before);
    const again = await call(station.origin, 'PATCH', `${A}/${ids[1]}`, { token, body: { status: 'delivered' } });
    expect(again.status, again.text).toBe(200);
    expect(await totals(station.origin)).toEqual({ in_transit: 2, delivered: 2, 'in_transit,delivered': 4, all: 4 });
  } finally {
    await station.stop();
  }
});
