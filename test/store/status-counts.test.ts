import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openStore, STORE_FILE, type StationStore } from '../../electron/station/store/index.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';
import type { PackageStatus, ReturnStatus } from '../../electron/station/store/records.ts';
import { samplePackage, sampleReturn, tempDataDir } from './fixtures.ts';

/*
 * Counts by account and status come from counts kept by triggers (sqlite/status-counts.ts): after
 * any mix of adds, changes of status and account, deletes and range deletes they equal what
 * count(*) says, across a close and an open; a data directory written before they existed gets
 * them, counted, when it is next opened; a commit that fails leaves them as they were.
 */

/** The data directory of each test and the store open on it (closing a store twice is harmless). */
let dir = '';
let store: StationStore;
let removeDir = async (): Promise<void> => undefined;

beforeEach(async () => {
  const temp = await tempDataDir();
  [dir, removeDir] = [temp.dir, temp.cleanup];
  store = await openStore({ dataDir: dir });
});
afterEach(async () => {
  await store.close();
  await removeDir();
});

const PACKAGE_STATUSES: PackageStatus[] = ['pending', 'in_transit', 'delivered', 'received'];
const RETURN_STATUSES: ReturnStatus[] = ['awaiting', 'received'];

/** Every filter by account and status a list may ask for, per table. */
function everyFilter(): Array<{ table: 'return_packages' | 'returns'; account?: number; status?: string[] }> {
  const filters: Array<{ table: 'return_packages' | 'returns'; account?: number; status?: string[] }> = [];
  for (const [table, statuses] of [
    ['return_packages', PACKAGE_STATUSES],
    ['returns', RETURN_STATUSES],
  ] as const) {
    for (const account of [undefined, 1, 2, 3]) {
      for (const status of [undefined, [], [statuses[0]], [statuses[1], statuses[3] ?? statuses[0]], [...statuses]] as Array<string[] | undefined>) {
        filters.push({ table, ...(account === undefined ? {} : { account }), ...(status === undefined ? {} : { status }) });
      }
    }
  }
  return filters;
}

/**
 * The store's counts for every filter, then (the store closed: it holds its file alone) what count(*)
 * over the SQLite rows says; the store is opened again.
 */
async function countsSideBySide(): Promise<{ kept: number[]; walked: number[]; rows: unknown[]; grouped: unknown[] }> {
  const kept = everyFilter().map(({ table, account, status }) =>
    store.count(table, { ...(account === undefined ? {} : { account_id: account }), ...(status === undefined ? {} : { status }) } as never),
  );
  await store.close();
  const sqlite = new DatabaseSync(join(dir, STORE_FILE), { readOnly: true });
  try {
    const walked = everyFilter().map(({ table, account, status }) => {
      const where = [
        account === undefined ? '1' : `account_id = ${account}`,
        status === undefined ? '1' : status.length ? `status IN (${status.map((x) => `'${x}'`).join(', ')})` : '0',
      ];
      return (sqlite.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where.join(' AND ')}`).get() as { n: number }).n;
    });
    // The kept rows themselves, beside a GROUP BY of the records (rows counted down to 0 may stay).
    const rows = sqlite.prepare(`SELECT tbl, account_id, status, n FROM _status_counts WHERE n != 0 ORDER BY 1, 2, 3`).all();
    const grouped = sqlite
      .prepare(
        `SELECT 'return_packages' AS tbl, account_id, status, count(*) AS n FROM return_packages GROUP BY 2, 3 UNION ALL SELECT 'returns', account_id, status, count(*) FROM returns GROUP BY 2, 3 ORDER BY 1, 2, 3`,
      )
      .all();
    return { kept, walked, rows, grouped };
  } finally {
    sqlite.close();
    store = await openStore({ dataDir: dir });
  }
}

async function churn(s: StationStore, rounds: number, from = 0): Promise<void> {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let round = from; round < from + rounds; round++) {
    await s.write(async (t) => {
      const returnId = await t.returns.add({ ...sampleReturn(1 + random(3), round) } as never);
      for (let n = 0; n < 4; n++) {
        await t.return_packages.add({ ...samplePackage(1 + random(3), returnId, round * 10 + n, { status: PACKAGE_STATUSES[random(4)] }) } as never);
      }
      const packages = await t.return_packages.all();
      const some = packages[random(packages.length)];
      if (some) await t.return_packages.put({ ...some, status: PACKAGE_STATUSES[random(4)] ?? 'pending', account_id: 1 + random(3) });
      const other = packages[random(packages.length)];
      if (other && random(3) === 0) await t.return_packages.delete(other.id);
      // A change that leaves account and status alone.
      if (packages[0]) await t.return_packages.put({ ...packages[0], notes: `round ${round}` });
      const ret = await t.returns.get(returnId);
      if (ret && random(2) === 0) await t.returns.put({ ...ret, status: 'received' });
    });
  }
  await s.write(async () => {
    // A range delete (no question of the store's interface makes one of this table): every package of the first ten ids.
    await insidesOf(s).db.return_packages.where(':id').below(10).delete();
  });
}

it('equal count(*) after adds, changes of status and account, deletes and range deletes, across a close and an open', async () => {
  await churn(store, 25);
  const first = await countsSideBySide();
  expect(first.kept).toEqual(first.walked);
  expect(first.rows).toEqual(first.grouped);
  expect(first.walked.some((n) => n > 5)).toBe(true);
  await store.close();
  store = await openStore({ dataDir: dir });
  await churn(store, 5, 100);
  const second = await countsSideBySide();
  expect(second.kept).toEqual(second.walked);
  expect(second.rows).toEqual(second.grouped);
});

it('are counted once for a data directory written before they existed', async () => {
  await churn(store, 10);
  await store.close();
  const sqlite = new DatabaseSync(join(dir, STORE_FILE));
  sqlite.exec('DROP TABLE _status_counts');
  for (const table of ['return_packages', 'returns']) for (const kind of ['insert', 'update', 'delete']) sqlite.exec(`DROP TRIGGER _${table}_count_${kind}`);
  sqlite.close();
  store = await openStore({ dataDir: dir });
  const counted = await countsSideBySide();
  expect(counted.kept).toEqual(counted.walked);
  expect(counted.rows).toEqual(counted.grouped);
  await churn(store, 3, 100);
  const after = await countsSideBySide();
  expect(after.kept).toEqual(after.walked);
});

it('stay as they were when a commit fails', async () => {
  await churn(store, 3);
  const before = await countsSideBySide();
  await store.close();
  // The next commit fails inside SQLite's transaction: nothing of it stays, its counts neither.
  let failNext = false;
  store = await openStore({
    dataDir: dir,
    beforeCommit: () => {
      if (failNext) throw new Error('disk full');
    },
  });
  failNext = true;
  await expect(store.write(async (t) => t.return_packages.add({ ...samplePackage(1, 1, 999, { status: 'received' }) } as never))).rejects.toThrow();
  failNext = false;
  const after = await countsSideBySide();
  expect(after.kept).toEqual(before.kept);
  expect(after.walked).toEqual(before.walked);
});
