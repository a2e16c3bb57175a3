import { afterEach, describe, expect, it, vi } from 'vitest';
import { openStore, type StationStore, type StoreChange } from '../../electron/station/store/index.ts';
import { sampleLineItem, samplePackage, sampleReturn, tempDataDir } from './fixtures.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * The store's interface outside store/ (docs/decisions/store-interface.md): package reads whose
 * path (the engine's memory or Dexie) is the store's own choice and answer the same either way,
 * and change events that tell a listener what a commit changed of the tables it follows.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  vi.restoreAllMocks();
});

async function openWithPackages(): Promise<{ store: StationStore; returnId: number; packageIds: number[] }> {
  const { dir, cleanup } = await tempDataDir();
  const store = await openStore({ dataDir: dir, hotSet: { sweepMs: 0 } });
  cleanups.push(async () => {
    await store.close();
    await cleanup();
  });
  const { returnId, packageIds } = await store.write(async (t) => {
    const returnId = await t.returns.add({ ...sampleReturn(1, 1), status: 'received' } as never);
    const withItems = await t.return_packages.add({ ...samplePackage(1, returnId, 1), line_items_count: 2 } as never);
    for (const n of [1, 2]) await t.package_line_items.add(sampleLineItem(withItems, n) as never);
    // Written before packages carried their count: a page with it counts its line items.
    const uncounted: Record<string, unknown> = { ...samplePackage(1, returnId, 2) };
    delete uncounted.line_items_count;
    const olderPackage = await t.return_packages.add(uncounted as never);
    await t.package_line_items.add(sampleLineItem(olderPackage, 3) as never);
    return { returnId, packageIds: [withItems, olderPackage] };
  });
  return { store, returnId, packageIds };
}

describe('store.packages', () => {
  it('whole: the package with its line items and media files, the same from memory and through Dexie', async () => {
    const { store, packageIds } = await openWithPackages();
    const [id = 0] = packageIds;
    const fromMemory = await store.packages.whole(id);
    expect(fromMemory?.pkg).toBe(insidesOf(store).inMemory.peek('return_packages', id)); // the engine's own, frozen
    expect(Object.isFrozen(fromMemory?.lineItems[0])).toBe(true);
    expect(fromMemory?.lineItems.map((item) => item.quantity)).toEqual([1, 2]);
    vi.spyOn(insidesOf(store).inMemory, 'peek').mockReturnValue(undefined);
    const throughDexie = await store.packages.whole(id);
    expect(throughDexie?.pkg).not.toBe(fromMemory?.pkg);
    expect(throughDexie).toEqual(fromMemory);
    expect(await store.packages.whole(9_999)).toBeUndefined();
  });

  it("page: a list page's packages in its order with their line-item counts, counted when a package does not carry one", async () => {
    const { store, packageIds } = await openWithPackages();
    const [counted = 0, uncounted = 0] = packageIds;
    const page = await store.packages.page([uncounted, 9_999, counted]);
    expect(page.map(({ pkg, lineItemsCount }) => [pkg.id, lineItemsCount])).toEqual([
      [uncounted, 1],
      [counted, 2],
    ]);
    const hot = await store.packages.page([counted]);
    expect(hot[0]?.pkg).toBe(insidesOf(store).inMemory.peek('return_packages', counted));
  });
});

describe('store.onChange', () => {
  it('tells a listener the records a commit put (with their values) or deleted, of the tables it follows only', async () => {
    const { store, packageIds } = await openWithPackages();
    const [id = 0] = packageIds;
    const heard: StoreChange[] = [];
    const stop = store.onChange(['package_line_items'], (change) => heard.push(change));
    const other: StoreChange[] = [];
    store.onChange(['carriers'], (change) => other.push(change));

    const added = await store.write((t) => t.package_line_items.add(sampleLineItem(id, 4) as never));
    await store.write((t) => t.package_line_items.delete(added));
    await store.write((t) => t.return_packages.update(id, { notes: 'not followed' }));

    expect(other).toEqual([]);
    expect(heard).toHaveLength(2);
    const [put, deleted] = heard;
    if (put?.kind !== 'records' || deleted?.kind !== 'records') throw new Error('expected records');
    expect([...put.tables]).toEqual(['package_line_items']);
    expect(put.records.map((r) => [r.table, r.key])).toEqual([['package_line_items', added]]);
    const value = put.records[0]?.table === 'package_line_items' ? put.records[0].value() : undefined;
    expect(value).toMatchObject({ id: added, return_package_id: id, quantity: 4 });
    expect(deleted.records.map((r) => [r.table, r.key, r.value()])).toEqual([['package_line_items', added, undefined]]);

    // A delete of a key range (a clear): any record may differ.
    await store.write((t) => t.package_line_items.clear());
    expect(heard.at(-1)).toEqual({ kind: 'any', tables: new Set(['package_line_items']) });

    stop();
    await store.write((t) => t.package_line_items.add(sampleLineItem(id, 5) as never));
    expect(heard).toHaveLength(3);
  });
});
