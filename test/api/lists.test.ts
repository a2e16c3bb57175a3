import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReturnPackageListResponseSchema } from '#shared/api/return-packages.ts';
import { ReturnListResponseSchema } from '#shared/api/returns.ts';
import { call, createPackage, createReturn, sleep, startStation, uniqueTracking, type TestStation } from './support.ts';

/*
 * Pagination arithmetic, filters and sorting of the package list (and the returns list), on a data
 * set built here: account 1 gets a known set of packages, account 2 some of its own.
 */

let s: TestStation;
const A1 = '/api/v1/accounts/1';
const TOTAL = 23;
interface Made {
  id: number;
  tracking_number: string;
  status: string;
  return_id: number;
  carrier_id: number | null;
  location_id: number | null;
  created_at: string;
  updated_at: string;
}
const made: Made[] = [];
let returnA: number;
let returnB: number;
let midpoint = '';

async function list(query: string) {
  const response = await call(s.origin, 'GET', `${A1}/return_packages${query}`, { token: s.account1 });
  expect(response.status, response.text).toBe(200);
  return ReturnPackageListResponseSchema.parse(response.json);
}

const STATUSES = ['pending', 'in_transit', 'delivered', 'received'] as const;

beforeAll(async () => {
  s = await startStation();
  returnA = (await createReturn(s.origin, s.account1)).id;
  returnB = (await createReturn(s.origin, s.account1)).id;
  for (let i = 0; i < TOTAL; i++) {
    const status = STATUSES[i % STATUSES.length] ?? 'pending';
    const pkg = await createPackage(s.origin, s.account1, 1, i % 3 === 0 ? returnB : returnA, {
      tracking_number: uniqueTracking(i % 2 === 0 ? 'Ab' : 'cD'),
      status,
      carrier_id: (i % 4) + 1,
      location_id: (i % 3) + 1,
    });
    made.push(pkg as unknown as Made);
    if (i === 11) {
      await sleep(5);
      midpoint = new Date().toISOString();
      await sleep(5);
    }
  }
  // Touch a few early packages so that updated_at order differs from created_at order.
  for (const index of [0, 4, 8]) {
    await sleep(2);
    const pkg = made[index];
    if (!pkg) continue;
    const response = await call(s.origin, 'PATCH', `${A1}/return_packages/${pkg.id}`, { token: s.account1, body: { notes: 'touched' } });
    expect(response.status).toBe(200);
    made[index] = { ...pkg, updated_at: (response.json as Made).updated_at };
  }
  // Packages of account 2 must never appear in account 1's lists.
  const other = await createReturn(s.origin, s.account2);
  for (let i = 0; i < 3; i++) await createPackage(s.origin, s.account2, 2, other.id, { carrier_id: 1, location_id: 1, status: 'pending' });
});
afterAll(async () => {
  await s.close();
});

describe('pagination', () => {
  it.each([1, 2, 5, 7, 10, 22, 23, 24, 250])('per_page=%i: total_pages = ceil(total/per_page), pages partition the list', async (perPage) => {
    const pages = Math.ceil(TOTAL / perPage);
    const seen: number[] = [];
    for (let page = 1; page <= pages; page++) {
      const { data, meta } = await list(`?per_page=${perPage}&page=${page}&sort=id`);
      expect(meta).toEqual({ current_page: page, total_pages: pages, total_count: TOTAL, per_page: perPage });
      expect(data.length).toBe(page < pages ? perPage : TOTAL - perPage * (pages - 1));
      seen.push(...data.map((p) => p.id));
    }
    expect(seen).toEqual(made.map((p) => p.id).sort((a, b) => a - b));
  });

  it('defaults: page 1, per_page 25', async () => {
    const { meta, data } = await list('');
    expect(meta).toEqual({ current_page: 1, total_pages: 1, total_count: TOTAL, per_page: 25 });
    expect(data).toHaveLength(TOTAL);
  });

  it('a page past the end has empty data and true meta', async () => {
    expect(await list('?per_page=10&page=4')).toEqual({ data: [], meta: { current_page: 4, total_pages: 3, total_count: TOTAL, per_page: 10 } });
    expect((await list('?page=2147483647')).meta).toEqual({ current_page: 2147483647, total_pages: 1, total_count: TOTAL, per_page: 25 });
  });

  it('an empty result has total_pages 0', async () => {
    expect(await list('?tracking_number=NO-SUCH-TRACKING')).toEqual({ data: [], meta: { current_page: 1, total_pages: 0, total_count: 0, per_page: 25 } });
  });

  it('per_page 251 is rejected', async () => {
    const response = await call(s.origin, 'GET', `${A1}/return_packages?per_page=251`, { token: s.account1 });
    expect(response.status).toBe(400);
  });
});

describe('filters', () => {
  const ids = (data: Array<{ id: number }>) => data.map((p) => p.id).sort((a, b) => a - b);
  const expected = (pred: (p: Made) => boolean) =>
    made
      .filter(pred)
      .map((p) => p.id)
      .sort((a, b) => a - b);

  it('status: one value and a comma-separated list', async () => {
    for (const status of STATUSES) {
      const { data, meta } = await list(`?status=${status}&per_page=250`);
      expect(ids(data)).toEqual(expected((p) => p.status === status));
      expect(meta.total_count).toBe(data.length);
    }
    const { data } = await list('?status=pending,received&per_page=250');
    expect(ids(data)).toEqual(expected((p) => p.status === 'pending' || p.status === 'received'));
    expect((await list('?status=cancelled')).data).toEqual([]);
  });

  it('return_id', async () => {
    expect(ids((await list(`?return_id=${returnB}&per_page=250`)).data)).toEqual(expected((p) => p.return_id === returnB));
  });

  it('tracking_number: exact and case-insensitive, never a prefix', async () => {
    const target = made[5];
    if (!target) throw new Error('fixture');
    for (const variant of [target.tracking_number, target.tracking_number.toLowerCase(), target.tracking_number.toUpperCase()]) {
      expect(ids((await list(`?tracking_number=${encodeURIComponent(variant)}`)).data)).toEqual([target.id]);
    }
    expect((await list(`?tracking_number=${target.tracking_number.slice(0, -1)}`)).data).toEqual([]);
    expect((await list(`?tracking_number=${target.tracking_number}X`)).data).toEqual([]);
  });

  it('carrier_id and location_id, also combined with status', async () => {
    expect(ids((await list('?carrier_id=2&per_page=250')).data)).toEqual(expected((p) => p.carrier_id === 2));
    expect(ids((await list('?location_id=3&per_page=250')).data)).toEqual(expected((p) => p.location_id === 3));
    expect(ids((await list('?carrier_id=1&location_id=1&status=pending&per_page=250')).data)).toEqual(
      expected((p) => p.carrier_id === 1 && p.location_id === 1 && p.status === 'pending'),
    );
    expect((await list('?carrier_id=999')).data).toEqual([]);
  });

  it('updated_since is inclusive and accepts any offset', async () => {
    const { data } = await list(`?updated_since=${encodeURIComponent(midpoint)}&per_page=250`);
    expect(ids(data)).toEqual(expected((p) => p.updated_at >= midpoint));
    const pivot = made[15];
    if (!pivot) throw new Error('fixture');
    const exact = await list(`?updated_since=${encodeURIComponent(pivot.updated_at)}&per_page=250`);
    expect(exact.data.some((p) => p.id === pivot.id)).toBe(true);
    expect(ids(exact.data)).toEqual(expected((p) => p.updated_at >= pivot.updated_at));
    // The same instant written with an offset.
    const instant = new Date(pivot.updated_at);
    const shifted = new Date(instant.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    expect(ids((await list(`?updated_since=${encodeURIComponent(shifted)}&per_page=250`)).data)).toEqual(ids(exact.data));
  });
});

describe('sorting', () => {
  const order = (data: Array<{ id: number }>) => data.map((p) => p.id);
  const by = (key: 'id' | 'created_at' | 'updated_at', dir: 1 | -1) =>
    [...made].sort((a, b) => dir * (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id - b.id)).map((p) => p.id);

  it('default is -created_at (newest first)', async () => {
    const { data } = await list('?per_page=250');
    expect(order(data)).toEqual(by('created_at', -1));
  });
  it.each([
    ['id', 'id', 1],
    ['-id', 'id', -1],
    ['created_at', 'created_at', 1],
    ['-created_at', 'created_at', -1],
    ['updated_at', 'updated_at', 1],
    ['-updated_at', 'updated_at', -1],
  ] as const)('sort=%s', async (sort, key, dir) => {
    const { data } = await list(`?sort=${sort}&per_page=250`);
    const values = data.map((p) => p[key]);
    for (let i = 1; i < values.length; i++) {
      const [a, b] = [values[i - 1] ?? '', values[i] ?? ''];
      expect(dir === 1 ? a <= b : a >= b, `${sort}: ${String(a)} then ${String(b)}`).toBe(true);
    }
    if (key === 'id') expect(order(data)).toEqual(by('id', dir));
    if (key === 'updated_at') {
      // The touched packages moved: they are the most recently updated.
      const touched = [made[0]?.id, made[4]?.id, made[8]?.id];
      const positions = touched.map((id) => order(data).indexOf(id ?? 0));
      if (dir === -1) expect(Math.max(...positions)).toBe(2);
      else expect(Math.min(...positions)).toBe(TOTAL - 3);
    }
  });
  it('sorting is stable across pages', async () => {
    const all = order((await list('?sort=-updated_at&per_page=250')).data);
    const paged: number[] = [];
    for (let page = 1; page <= 5; page++) paged.push(...order((await list(`?sort=-updated_at&per_page=5&page=${page}`)).data));
    expect(paged).toEqual(all);
  });
});

describe('returns list', () => {
  it('paginates with true meta and filters by status and updated_since', async () => {
    const response = await call(s.origin, 'GET', `${A1}/returns?per_page=1&page=2`, { token: s.account1 });
    const body = ReturnListResponseSchema.parse(response.json);
    expect(body.meta).toEqual({ current_page: 2, total_pages: 2, total_count: 2, per_page: 1 });
    expect(body.data).toHaveLength(1);
    const future = await call(s.origin, 'GET', `/returns?updated_since=2999-01-01T00:00:00Z`, { token: s.account1 });
    expect(ReturnListResponseSchema.parse(future.json).data).toEqual([]);
  });

  it('a station token lists every account on /returns, or one with account_id', async () => {
    const all = ReturnListResponseSchema.parse((await call(s.origin, 'GET', '/returns?per_page=250', { token: s.stationToken })).json);
    expect(new Set(all.data.map((r) => r.account_id))).toEqual(new Set([1, 2]));
    const two = ReturnListResponseSchema.parse((await call(s.origin, 'GET', '/returns?account_id=2', { token: s.stationToken })).json);
    expect(two.data.every((r) => r.account_id === 2)).toBe(true);
    expect(two.meta.total_count).toBe(1);
  });
});
