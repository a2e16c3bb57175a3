import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openStore, STORE_FILE, type StationStore } from '../../electron/station/store/index.ts';
import { sampleReturn, tempDataDir } from './fixtures.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * SKU prefix search from the store's SKU index (sqlite/sku-index.ts): it follows every write of a
 * return (add, change, delete), survives a close and an open, and a data directory written before the
 * index existed gets it, filled, when it is next opened.
 */

let dir: string;
let cleanup: () => Promise<void>;
let store: StationStore;
let open = false;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDataDir());
  store = await openStore({ dataDir: dir });
  open = true;
  await store.write(async () => {
    // Return n has lines n*10+1 and n*10+2: SKUs SKU-11, SKU-12 (n = 1), SKU-101, SKU-102 (n = 10) …
    for (let n = 1; n <= 30; n++) await insidesOf(store).db.returns.add({ ...sampleReturn(1 + (n % 2), n, [n * 10 + 1, n * 10 + 2]) } as never);
  });
});
afterEach(async () => {
  if (open) await store.close();
  await cleanup();
});

/** What a scan of the records says: returns with a SKU starting with `prefix` (newest first, like the list). */
async function expected(prefix: string, accountId?: number): Promise<number[]> {
  const all = await insidesOf(store).db.returns.toArray();
  return all
    .filter((r) => (accountId === undefined || r.account_id === accountId) && r.sku_keys.some((k) => k.startsWith(prefix.toLowerCase())))
    .map((r) => r.id)
    .sort((a, b) => b - a);
}

async function reopen(): Promise<void> {
  await store.close();
  store = await openStore({ dataDir: dir });
}

const search = (prefix: string, accountId?: number) =>
  store.listIds('returns', { sku_prefix: prefix, per_page: 100, ...(accountId === undefined ? {} : { account_id: accountId }) });

it('finds the returns with a SKU that starts with the text, whatever its case, within an account when asked', async () => {
  for (const prefix of ['SKU-1', 'sku-10', 'Sku-2', 'SKU-301', 'SKU-9', 'S']) {
    const { ids, total } = search(prefix);
    expect(
      ids.sort((a, b) => b - a),
      prefix,
    ).toEqual(await expected(prefix));
    expect(total).toBe(ids.length);
  }
  expect(search('SKU-1', 2).ids.sort((a, b) => b - a)).toEqual(await expected('SKU-1', 2));
  expect(search('nothing-like-it').ids).toEqual([]);
});

it('follows a return whose lines change and one that is deleted, across a close and an open', async () => {
  const [first] = search('SKU-11').ids;
  expect(first).toBeDefined();
  await store.write(async () => {
    const record = await insidesOf(store).db.returns.get(first ?? 0);
    if (record) await insidesOf(store).db.returns.put({ ...record, sku_keys: ['wbn-77'] });
  });
  expect(search('SKU-11').ids).not.toContain(first);
  expect(search('WBN').ids).toEqual([first]);
  const [gone] = search('SKU-31').ids;
  await store.write(() => insidesOf(store).db.returns.delete(gone ?? 0));
  expect(search('SKU-31').ids).toEqual([]);

  await reopen();
  expect(search('WBN').ids).toEqual([first]);
  expect(search('SKU-31').ids).toEqual([]);
});

it('a data directory written before the SKU index gets it, filled, when next opened', async () => {
  const before = search('SKU-1').ids;
  await store.close();
  open = false;
  const sqlite = new DatabaseSync(join(dir, STORE_FILE));
  sqlite.exec('DROP TRIGGER _returns_skus_insert; DROP TRIGGER _returns_skus_update; DROP TRIGGER _returns_skus_delete; DROP TABLE _return_skus');
  sqlite.close();

  store = await openStore({ dataDir: dir });
  open = true;
  expect(search('SKU-1').ids).toEqual(before);
  expect(before.length).toBeGreaterThan(5);
});
