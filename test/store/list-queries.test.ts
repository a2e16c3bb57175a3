import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type PackageSort, type PackageStatus, type ReturnPackage, type StationStore } from '../../electron/station/store/index.ts';
import { samplePackage, sampleReturn, tempDataDir, timestamp } from './fixtures.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

const STATUSES: PackageStatus[] = ['pending', 'in_transit', 'delivered', 'received', 'exception', 'cancelled'];
let store: StationStore;
let cleanup: () => Promise<void>;
let packages: ReturnPackage[];

beforeAll(async () => {
  const temp = await tempDataDir();
  cleanup = temp.cleanup;
  store = await openStore({ dataDir: temp.dir });
  await store.write(async () => {
    for (let n = 0; n < 60; n++) {
      const account = 1 + (n % 2);
      await insidesOf(store).db.returns.add({ ...sampleReturn(account, n), status: n % 3 === 0 ? 'received' : 'awaiting', updated_at: timestamp(100 - n) });
    }
    for (let n = 0; n < 200; n++) {
      const status = STATUSES[n % STATUSES.length] ?? 'pending';
      // Created in a shuffled order with ties, so the id tie-break matters.
      await insidesOf(store).db.return_packages.add(
        samplePackage(1 + (n % 2), 1 + (n % 10), n, {
          status,
          created_at: timestamp((n * 37) % 50),
          updated_at: timestamp((n * 53) % 70),
          tracking_number: `Trk-${n}`,
          processed_at: status === 'received' ? timestamp(n) : null,
        }),
      );
    }
  });
  packages = await insidesOf(store).db.return_packages.toArray();
});
afterAll(async () => {
  await store.close();
  await cleanup();
});

function expected(filter: (p: ReturnPackage) => boolean, sort: PackageSort = '-created_at'): number[] {
  const field = sort.replace('-', '') as 'created_at' | 'updated_at' | 'id';
  const direction = sort.startsWith('-') ? -1 : 1;
  return packages
    .filter(filter)
    .sort((a, b) => direction * (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : a.id - b.id))
    .map((p) => p.id);
}

describe('return package lists', () => {
  it.each<PackageSort>(['created_at', '-created_at', 'updated_at', '-updated_at', 'id', '-id'])('sorts by %s with an id tie-break', (sort) => {
    const all = expected((p) => p.account_id === 1, sort);
    expect(store.listIds('return_packages', { account_id: 1, sort, per_page: 250 })).toEqual({ ids: all, total: 100 });
  });

  it('pages: page 2 of 7 per page, and a page past the end', () => {
    const all = expected((p) => p.account_id === 2);
    expect(store.listIds('return_packages', { account_id: 2, page: 2, per_page: 7 })).toEqual({ ids: all.slice(7, 14), total: 100 });
    expect(store.listIds('return_packages', { account_id: 2, page: 15, per_page: 7 })).toEqual({ ids: all.slice(98), total: 100 });
    expect(store.listIds('return_packages', { account_id: 2, page: 16, per_page: 7 })).toEqual({ ids: [], total: 100 });
  });

  it.each<PackageSort>(['created_at', '-created_at', 'updated_at', '-updated_at', 'id', '-id'])(
    'every page by %s, front half read forwards and back half read from the end, makes up the whole list',
    (sort) => {
      const all = expected((p) => p.account_id === 1 && p.status !== 'cancelled', sort);
      const filters = { account_id: 1, status: STATUSES.filter((status) => status !== 'cancelled'), sort };
      for (const perPage of [6, 7, 25]) {
        const pages: number[] = [];
        for (let page = 1; page <= Math.ceil(all.length / perPage); page++) {
          const result = store.listIds('return_packages', { ...filters, page, per_page: perPage });
          expect(result.total).toBe(all.length);
          expect(result.ids).toEqual(all.slice((page - 1) * perPage, page * perPage));
          pages.push(...result.ids);
        }
        expect(pages).toEqual(all);
      }
    },
  );

  it.each<PackageSort>(['created_at', '-created_at', 'updated_at', '-updated_at', 'id', '-id'])(
    'pages asked in any order by %s, each read from the rows earlier pages found (landmarks), are the same pages',
    (sort) => {
      const all = expected((p) => p.account_id === 2 && p.status !== 'pending', sort);
      const filters = { account_id: 2, status: STATUSES.filter((status) => status !== 'pending'), sort, per_page: 9 };
      for (const page of [5, 3, 9, 1, 6, 4, 8, 2, 7, 5, 6, 3, 10]) {
        expect(store.listIds('return_packages', { ...filters, page }).ids, `page ${page}`).toEqual(all.slice((page - 1) * 9, page * 9));
      }
    },
  );

  it('defaults to page 1 of 25, newest first', () => {
    const result = store.listIds('return_packages', { account_id: 1 });
    expect(result.ids).toEqual(expected((p) => p.account_id === 1).slice(0, 25));
  });

  it('filters by a status list, return, carrier, location and updated_since (inclusive)', () => {
    const since = timestamp(30);
    const query = { account_id: 1, status: ['pending', 'received'] as PackageStatus[], updated_since: since, per_page: 250 };
    const ids = expected((p) => p.account_id === 1 && ['pending', 'received'].includes(p.status) && p.updated_at >= since);
    expect(ids.length).toBeGreaterThan(0);
    expect(packages.some((p) => p.updated_at === since)).toBe(true);
    expect(store.listIds('return_packages', query)).toEqual({ ids, total: ids.length });
    const byReturn = expected((p) => p.account_id === 1 && p.return_id === 3);
    expect(store.listIds('return_packages', { account_id: 1, return_id: 3, per_page: 250 }).ids).toEqual(byReturn);
    const byCarrierLocation = expected((p) => p.account_id === 2 && p.carrier_id === 2 && p.location_id === 1);
    expect(store.listIds('return_packages', { account_id: 2, carrier_id: 2, location_id: 1, per_page: 250 }).ids).toEqual(byCarrierLocation);
    expect(store.listIds('return_packages', { account_id: 1, status: [] })).toEqual({ ids: [], total: 0 });
  });

  it('matches a tracking number exactly and case-insensitively, across accounts when no account is given', () => {
    const target = packages.find((p) => p.tracking_number === 'Trk-17');
    expect(store.listIds('return_packages', { account_id: target?.account_id ?? 0, tracking_number: 'TRK-17' }).ids).toEqual([target?.id]);
    expect(store.listIds('return_packages', { tracking_number: 'trk-17' }).ids).toEqual([target?.id]);
    expect(store.listIds('return_packages', { tracking_number: 'trk-1000' }).total).toBe(0);
  });

  it('counts for the station overview', () => {
    const since = timestamp(100);
    expect(store.count('return_packages', { status: ['received'], processed_since: since })).toBe(
      packages.filter((p) => p.status === 'received' && (p.processed_at ?? '') >= since).length,
    );
    expect(store.count('return_packages', { status: ['pending', 'in_transit', 'delivered', 'exception'] })).toBe(
      packages.filter((p) => ['pending', 'in_transit', 'delivered', 'exception'].includes(p.status)).length,
    );
  });
});

describe('return lists', () => {
  it('lists newest first and filters by status, email (case-insensitive) and updated_since', async () => {
    const returns = await insidesOf(store).db.returns.toArray();
    const newest = (list: typeof returns): number[] =>
      list.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id)).map((r) => r.id);
    expect(store.listIds('returns', { account_id: 1, per_page: 250 })).toEqual({ ids: newest(returns.filter((r) => r.account_id === 1)), total: 30 });
    const received = newest(returns.filter((r) => r.account_id === 2 && r.status === 'received'));
    expect(store.listIds('returns', { account_id: 2, status: ['received'], per_page: 250 }).ids).toEqual(received);
    expect(store.listIds('returns', { account_id: 1, email: 'CUSTOMER4@example.com' }).ids).toEqual(
      newest(returns.filter((r) => r.email === 'customer4@example.com')),
    );
    const since = timestamp(80);
    expect(store.listIds('returns', { updated_since: since, per_page: 250 }).ids).toEqual(newest(returns.filter((r) => r.updated_at >= since)));
  });
});

describe('list pages after a commit', () => {
  it('forget where earlier pages were once a commit moved the rows', async () => {
    const temp = await tempDataDir();
    const own = await openStore({ dataDir: temp.dir });
    try {
      const add = (from: number, count: number) =>
        own.write(async () => {
          for (let n = from; n < from + count; n++)
            await insidesOf(own).db.return_packages.add(samplePackage(1, 1, n, { created_at: timestamp(n), tracking_number: `Moved-${n}` }));
        });
      await add(0, 50);
      const newestFirst = async () =>
        (await insidesOf(own).db.return_packages.toArray())
          .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id))
          .map((p) => p.id);
      let all = await newestFirst();
      for (let page = 1; page <= 5; page++)
        expect(own.listIds('return_packages', { account_id: 1, page, per_page: 10 }).ids).toEqual(all.slice((page - 1) * 10, page * 10));
      // Seven newer packages push every row seven places back.
      await add(100, 7);
      all = await newestFirst();
      for (const page of [3, 2, 5, 4, 1, 6]) {
        expect(own.listIds('return_packages', { account_id: 1, page, per_page: 10 }).ids, `page ${page}`).toEqual(all.slice((page - 1) * 10, page * 10));
      }
    } finally {
      await own.close();
      await temp.cleanup();
    }
  });
});
