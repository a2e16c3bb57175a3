import { afterEach, describe, expect, it, vi } from 'vitest';
import { engineReadsOf } from '../../electron/station/store/engine-reads.ts';
import { type BoundTables, openStore, type StationStore } from '../../electron/station/store/index.ts';
import { sampleLineItem, samplePackage, sampleReturn, tempDataDir } from './fixtures.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * Reads straight from the engine's memory (store/engine-reads.ts) answer exactly what Dexie would,
 * and defer to Dexie (undefined) whenever they could not be sure: a write running on the table,
 * a record or cluster that is not in memory, a closed store, an engine of another shape.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  vi.restoreAllMocks();
});

async function storeWithPackage(hotDays?: number): Promise<{ store: StationStore; dir: string; packageId: number; returnId: number }> {
  const { dir, cleanup } = await tempDataDir();
  const store = await openStore({ dataDir: dir, hotSet: { sweepMs: 0, ...(hotDays === undefined ? {} : { days: hotDays }) } });
  cleanups.push(async () => {
    await store.close();
    await cleanup();
  });
  const { packageId, returnId } = await store.write(async (t) => {
    const returnId = await t.returns.add({ ...sampleReturn(1, 1), status: 'received' } as never);
    const packageId = await t.return_packages.add({ ...samplePackage(1, returnId, 1, { status: 'received' }) } as never);
    for (const n of [1, 2]) await t.package_line_items.add(sampleLineItem(packageId, n) as never);
    return { packageId, returnId };
  });
  return { store, dir, packageId, returnId };
}

describe('reads from the engine memory', () => {
  it('answer the same records as Dexie, as copies the caller may change', async () => {
    const { store, packageId } = await storeWithPackage();
    const fromMemory = insidesOf(store).inMemory.get('return_packages', packageId);
    expect(fromMemory).toEqual(await insidesOf(store).db.return_packages.get(packageId));
    const items = insidesOf(store).inMemory.where('package_line_items', 'return_package_id', packageId);
    expect(items).toEqual(await insidesOf(store).db.package_line_items.where('return_package_id').equals(packageId).toArray());
    expect(items?.map((item) => item.quantity)).toEqual([1, 2]);
    expect(insidesOf(store).inMemory.where('media_files', 'return_package_id', packageId)).toEqual([]);
    if (fromMemory) fromMemory.notes = 'changed by the caller';
    expect((await insidesOf(store).db.return_packages.get(packageId))?.notes).toBeNull();
    // A miss is not an answer: the record may be in SQLite only.
    expect(insidesOf(store).inMemory.get('return_packages', 9_999)).toBeUndefined();
  });

  it("peek hands out the engine's records frozen: a write to one, however deep, throws and changes nothing", async () => {
    const { store, packageId, returnId } = await storeWithPackage();
    const ret = insidesOf(store).inMemory.peek('returns', returnId);
    const pkg = insidesOf(store).inMemory.peekEach('return_packages', [packageId])?.[0];
    const items = insidesOf(store).inMemory.peekWhere('package_line_items', 'return_package_id', packageId, returnId);
    const line = ret?.return_line_items[0];
    const item = items?.[0];
    if (!line || !pkg || !item) throw new Error('expected the records in memory');
    // What compiled before (a shallow Readonly) and silently changed memory without a write:
    expect(() => ((line as { quantity: number }).quantity = 99)).toThrow(TypeError);
    expect(() => ((pkg as { notes: string | null }).notes = 'changed')).toThrow(TypeError);
    expect(() => (item.tags as string[]).push('changed')).toThrow(TypeError);
    await store.write(async (t) => {
      expect(() => ((t.peek('returns', returnId) as unknown as { status: string }).status = 'changed')).toThrow(TypeError);
    });
    expect((await insidesOf(store).db.returns.get(returnId))?.return_line_items[0]?.quantity).toBe(ret?.return_line_items[0]?.quantity);
    expect((await insidesOf(store).db.return_packages.get(packageId))?.notes).toBeNull();
    // The store's next version of a record is a new object, which a write may make as before.
    await store.write(async (t) => t.return_packages.update(packageId, { notes: 'by a write' }));
    expect(insidesOf(store).inMemory.peek('return_packages', packageId)?.notes).toBe('by a write');
  });

  it("store.returns decides the path itself: the engine's record (frozen) when memory can answer, else a copy through Dexie", async () => {
    const { store, returnId } = await storeWithPackage(0);
    const hot = await store.returns.get(returnId);
    expect(hot).toEqual(await insidesOf(store).db.returns.get(returnId));
    expect(Object.isFrozen(hot) && Object.isFrozen(hot?.return_line_items[0])).toBe(true);
    // Shed from memory (only in SQLite now): read through Dexie, a copy.
    await store.shedCold();
    const cold = await store.returns.get(returnId);
    expect(cold).toEqual(hot);
    expect(Object.isFrozen(cold)).toBe(false);
    expect((await store.returns.many([returnId, 9_999, returnId])).map((r) => r.id)).toEqual([returnId, returnId]);
    expect(await store.returns.get(9_999)).toBeUndefined();
  });

  it('defer to Dexie while a write runs on the table, and see the write once it committed', async () => {
    const { store, packageId } = await storeWithPackage();
    let during: unknown = 'not read';
    let otherTable: unknown = 'not read';
    await store.write(async (t) => {
      await t.return_packages.update(packageId, { notes: 'uncommitted' });
      during = insidesOf(store).inMemory.get('return_packages', packageId);
      otherTable = insidesOf(store).inMemory.where('package_line_items', 'return_package_id', packageId);
    });
    expect(during).toBeUndefined();
    // The write's scope is every table: nothing is answered from memory while it runs.
    expect(otherTable).toBeUndefined();
    expect(insidesOf(store).inMemory.get('return_packages', packageId)?.notes).toBe('uncommitted');
  });

  it('defer to Dexie for a package shed from memory, and answer again once a write brought it back', async () => {
    const { store, packageId, returnId } = await storeWithPackage(0);
    expect(await store.shedCold()).toBe(1);
    expect(insidesOf(store).inMemory.get('return_packages', packageId)).toBeUndefined();
    expect(insidesOf(store).inMemory.where('package_line_items', 'return_package_id', packageId)).toBeUndefined();
    // Named by the caller or looked up on disk, the package's cluster is not in memory.
    expect(insidesOf(store).inMemory.peekWhere('package_line_items', 'return_package_id', packageId, returnId)).toBeUndefined();
    // Dexie's path still reads it (from SQLite).
    expect((await insidesOf(store).db.package_line_items.where('return_package_id').equals(packageId).toArray()).length).toBe(2);
    await store.write(async (t) => {
      const pkg = await t.return_packages.get(packageId); // brings its whole cluster in
      if (pkg) await t.return_packages.put({ ...pkg, notes: 'corrected' });
    });
    expect(insidesOf(store).inMemory.get('return_packages', packageId)?.notes).toBe('corrected');
    expect(insidesOf(store).inMemory.where('package_line_items', 'return_package_id', packageId)?.length).toBe(2);
    expect(insidesOf(store).inMemory.peekWhere('package_line_items', 'return_package_id', packageId, returnId)?.length).toBe(2);
  });

  it("peekEach answers a list page's records in the page's order, or nothing when one of them must be read through Dexie", async () => {
    const { store, packageId, returnId } = await storeWithPackage(0);
    const otherId = await store.write(async (t) => t.return_packages.add({ ...samplePackage(1, returnId, 2, { status: 'received' }) } as never));
    const page = insidesOf(store).inMemory.peekEach('return_packages', [otherId, packageId]);
    expect(page).toEqual(await insidesOf(store).db.return_packages.bulkGet([otherId, packageId]));
    expect(page?.[0]).toBe(insidesOf(store).inMemory.peek('return_packages', otherId)); // the engine's own records
    expect(insidesOf(store).inMemory.peekEach('return_packages', [])).toEqual([]);
    // One id gone (deleted since SQLite listed it), or a write running on the table: Dexie's path.
    expect(insidesOf(store).inMemory.peekEach('return_packages', [packageId, 9_999])).toBeUndefined();
    let during: unknown = 'not read';
    await store.write(async (t) => {
      await t.return_packages.update(otherId, { notes: 'uncommitted' });
      during = insidesOf(store).inMemory.peekEach('return_packages', [packageId]);
    });
    expect(during).toBeUndefined();
    // Shed from memory (the package is received, the window zero): cold, so Dexie's path.
    expect(await store.shedCold()).toBeGreaterThan(0);
    expect(insidesOf(store).inMemory.peekEach('return_packages', [packageId, otherId])).toBeUndefined();
    expect((await insidesOf(store).db.return_packages.bulkGet([packageId, otherId])).map((p) => p?.id)).toEqual([packageId, otherId]);
  });

  it('inside a write, t.peek answers what the write sees once the engine runs it, and nothing before it runs, after it ended or for a cold record', async () => {
    const { store, packageId, returnId } = await storeWithPackage(0);
    const seen: Record<string, unknown> = {};
    let bound: BoundTables | undefined;
    await store.write(async (t) => {
      bound = t;
      // Queued behind nothing, but not started yet: the engine starts a write on a later turn.
      seen.beforeRun = t.peek('return_packages', packageId);
      await t.returns.get(returnId);
      seen.running = t.peek('return_packages', packageId);
      await t.return_packages.update(packageId, { notes: 'this write' });
      seen.ownChange = t.peek('return_packages', packageId)?.notes;
      seen.missing = t.peek('return_packages', 9_999);
    });
    expect(seen.beforeRun).toBeUndefined();
    expect(seen.running).toEqual(
      await insidesOf(store)
        .db.return_packages.get(packageId)
        .then((p) => ({ ...p, notes: null })),
    );
    expect(seen.ownChange).toBe('this write');
    expect(seen.missing).toBeUndefined();
    expect(bound?.peek('return_packages', packageId)).toBeUndefined(); // the write has ended
    // Shed from memory: the write reads it through its table (which brings its cluster back).
    expect(await store.shedCold()).toBeGreaterThan(0);
    const cold = await store.write(async (t) => {
      await t.station_meta.get('nothing');
      return { peeked: t.peek('return_packages', packageId), read: await t.return_packages.get(packageId) };
    });
    expect(cold.peeked).toBeUndefined();
    expect(cold.read?.notes).toBe('this write');
  });

  it('inside a write, t.peekKeys finds a unique index value in memory and, for cold packages, in SQLite, as the query through the table does', async () => {
    const { store, packageId } = await storeWithPackage(0);
    const pkg = await insidesOf(store).db.return_packages.get(packageId);
    const key: [number, string] = [1, pkg?.tracking_key ?? ''];
    const index = '[account_id+tracking_key]';
    const inWrite = async () =>
      store.write(async (t) => {
        const beforeRun = t.peekKeys('return_packages', index, key);
        await t.station_meta.get('nothing');
        const peeked = t.peekKeys('return_packages', index, key);
        const none = t.peekKeys('return_packages', index, [1, 'no such number']);
        // The same query through the write's transaction (Dexie's zone), and the store's own question.
        const queried = await insidesOf(store).db.return_packages.where(index).equals(key).primaryKeys();
        const asked = await t.return_packages.idWithTracking(...key);
        return { beforeRun, peeked, none, queried, asked };
      });
    const hot = await inWrite();
    expect(hot).toEqual({ beforeRun: undefined, peeked: [packageId], none: [], queried: [packageId], asked: packageId });
    // Shed (received, a window of zero): only SQLite holds it, and the peek still finds it.
    expect(await store.shedCold()).toBeGreaterThan(0);
    expect(insidesOf(store).inMemory.peek('return_packages', packageId)).toBeUndefined();
    const cold = await inWrite();
    expect(cold).toEqual({ beforeRun: undefined, peeked: [packageId], none: [], queried: [packageId], asked: packageId });
    // Not a unique index: the table's query answers.
    const notUnique = await store.write(async (t) => {
      await t.station_meta.get('nothing');
      return t.peekKeys('return_packages', 'return_id', 1);
    });
    expect(notUnique).toBeUndefined();
  });

  it('answer nothing once the store is closed', async () => {
    const { store, packageId } = await storeWithPackage();
    expect(insidesOf(store).inMemory.get('return_packages', packageId)).toBeDefined();
    await store.close();
    expect(insidesOf(store).inMemory.get('return_packages', packageId)).toBeUndefined();
  });

  it('peek answers the engine records themselves, walked straight from its trees: the same as Dexie, deletions and many matches included', async () => {
    const { store, packageId, returnId } = await storeWithPackage();
    // A second package whose items interleave with the first's, many of them, some then deleted:
    // equal index keys spread over both sides of the tree, and tombstones among them.
    const otherId = await store.write(async (t) => {
      const other = await t.return_packages.add({ ...samplePackage(1, returnId, 2, { status: 'received' }) } as never);
      for (let n = 3; n < 60; n++) await t.package_line_items.add(sampleLineItem(n % 2 ? packageId : other, n) as never);
      await t.station_meta.put({ key: 'engine-reads.test', value: 'a string key' });
      return other;
    });
    await store.write(async (t) => {
      const items = await t.package_line_items.ofPackage(packageId);
      await t.package_line_items.bulkDelete(items.filter((_, i) => i % 3 === 0).map((item) => item.id));
    });
    for (const id of [packageId, otherId]) {
      const viaDexie = await insidesOf(store).db.package_line_items.where('return_package_id').equals(id).toArray();
      expect(viaDexie.length).toBeGreaterThan(15);
      expect(insidesOf(store).inMemory.peekWhere('package_line_items', 'return_package_id', id)).toEqual(viaDexie);
      expect(insidesOf(store).inMemory.where('package_line_items', 'return_package_id', id)).toEqual(viaDexie);
      expect(insidesOf(store).inMemory.peek('return_packages', id)).toEqual(await insidesOf(store).db.return_packages.get(id));
    }
    // No such package: its cluster is not known to be in memory, so Dexie's path answers.
    expect(insidesOf(store).inMemory.peekWhere('package_line_items', 'return_package_id', 9_999)).toBeUndefined();
    expect(insidesOf(store).inMemory.peek('return_packages', 9_999)).toBeUndefined();
    expect(insidesOf(store).inMemory.peek('return_packages', '1')).toBeUndefined();
    expect(insidesOf(store).inMemory.peek('station_meta', 'engine-reads.test')).toEqual({ key: 'engine-reads.test', value: 'a string key' });
    // The engine's own object (no copy) for peek; a copy for get.
    expect(insidesOf(store).inMemory.peek('return_packages', packageId)).toBe(insidesOf(store).inMemory.peek('return_packages', packageId));
    expect(insidesOf(store).inMemory.get('return_packages', packageId)).not.toBe(insidesOf(store).inMemory.peek('return_packages', packageId));
  });

  it("read through the engine's own lookups when its trees are not shaped as expected", () => {
    const records = new Map<number, { id: number; return_package_id: number }>([
      [1, { id: 1, return_package_id: 7 }],
      [2, { id: 2, return_package_id: 7 }],
    ]);
    // The methods are there, the trees behind them are not (a release that renamed `_root`).
    const store = {
      getValue: (key: number) => structuredClone(records.get(key)),
      records: { records: { root: {} } },
      rawIndexes: new Map([['return_package_id', { getAllValues: () => [...records.values()].map((r) => structuredClone(r)), records: {} }]]),
    };
    const backend = { _rawDatabase: { rawObjectStores: new Map([['package_line_items', store]]), transactions: [] } };
    const reads = engineReadsOf(backend, { holdsAllMatches: () => true, coldKeys: () => [], isClosed: () => false });
    expect(reads.get('package_line_items', 2)).toEqual({ id: 2, return_package_id: 7 });
    expect(reads.peek('package_line_items', 1)).toEqual({ id: 1, return_package_id: 7 });
    expect(reads.peekWhere('package_line_items', 'return_package_id', 7)).toEqual([...records.values()]);
  });

  it('always defer, and say so, with an engine whose internals are nearly but not quite the expected shape', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // One index lost its method, as a minor fake-indexeddb release might do.
    const store = { getValue: () => ({ id: 1 }), rawIndexes: new Map([['return_id', { getAll: () => [] }]]) };
    const backend = { _rawDatabase: { rawObjectStores: new Map([['return_packages', store]]), transactions: [] } };
    const reads = engineReadsOf(backend, { holdsAllMatches: () => true, coldKeys: () => [], isClosed: () => false });
    expect(reads.get('return_packages', 1)).toBeUndefined();
    expect(reads.where('return_packages', 'return_id', 1)).toBeUndefined();
    expect(reads.peek('return_packages', 1)).toBeUndefined();
    expect(reads.peekWhere('return_packages', 'return_id', 1)).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('index return_packages.return_id has no getAllValues'));
  });
});
