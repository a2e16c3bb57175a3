import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { DBCore, Middleware } from 'dexie';
import { openStore, STORE_FILE } from '../../electron/station/store/index.ts';
import { newEngine, newEngineFactory } from '../../electron/station/store/engine.ts';
import { type LoadReport, loadIntoEngine, storedTables } from '../../electron/station/store/load.ts';
import { STATION_SCHEMA, type StationDexie, tablesOf } from '../../electron/station/store/schema.ts';
import { samplePackage, sampleReturn, tempDataDir, timestamp } from './fixtures.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

// Opening fills the engine through fake-indexeddb's internals (direct-fill.ts) and falls back to
// the engine's public API when those internals differ. Both paths must give the same engine.

let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDataDir());
  const store = await openStore({ dataDir: dir });
  await store.write(async () => {
    for (let n = 0; n < 40; n++) {
      const returnId = await insidesOf(store).db.returns.add(sampleReturn(1 + (n % 2), n, [n * 10 + 1, n * 10 + 2]));
      // Cancelled packages have no tracking key: no entry in the unique [account_id+tracking_key] index.
      const packageId = await insidesOf(store).db.return_packages.add(samplePackage(1 + (n % 2), returnId, n, n % 4 === 0 ? { status: 'cancelled' } : {}));
      await insidesOf(store).db.package_line_items.add({
        account_id: 1 + (n % 2),
        return_package_id: packageId,
        return_line_item_id: null,
        quantity: 1,
        merchant_sku: `SKU-${n}`,
        name: `Item ${n}`,
        condition: 'new',
        defective: false,
        notes: null,
        barcode: null,
        tags: [],
        created_at: timestamp(n),
        updated_at: timestamp(n),
      });
    }
    await insidesOf(store).db.idempotency_keys.bulkAdd([
      { key: 'b:POST /x', request_hash: 'h2', status: 201, response: '{}', created_at: timestamp(2) },
      { key: 'a:POST /x', request_hash: 'h1', status: 201, response: '{}', created_at: timestamp(1) },
    ]);
    await insidesOf(store).db.station_meta.put({ key: 'station', value: { name: 'Dock 1' } });
  });
  // The highest ids were handed out and deleted: a reload must not give them again.
  await store.write(() => insidesOf(store).db.return_packages.bulkDelete([39, 40]));
  await store.close();
});
afterEach(async () => {
  await cleanup();
});

/**
 * What the loader is shown of the engine: its real internals; none at all (a very different
 * fake-indexeddb); or nearly right — every object store as expected but one index of
 * return_packages has lost a method, as a minor fake-indexeddb release might do.
 */
type EngineShape = 'real' | 'none' | 'nearly-right';

function shownBackend(db: StationDexie, shape: EngineShape): unknown {
  if (shape === 'none') return {};
  const backend = db.backendDB() as unknown as { _rawDatabase: { rawObjectStores: Map<string, { rawIndexes: Map<string, object> }> } };
  if (shape === 'real') return backend;
  const stores = new Map(backend._rawDatabase.rawObjectStores);
  const packages = stores.get('return_packages');
  if (!packages) throw new Error('The engine has no return_packages store.');
  // A copy of an index keeps its fields but not its class's methods (getIndexKey).
  const indexes = new Map([...packages.rawIndexes].map(([name, index]) => [name, name === 'return_id' ? { ...index } : index]));
  stores.set(
    'return_packages',
    Object.assign(Object.create(Object.getPrototypeOf(packages) as object) as object, packages, { rawIndexes: indexes }) as typeof packages,
  );
  return { _rawDatabase: { rawObjectStores: stores } };
}

/** A fresh engine at the station schema, loaded from the data directory through the given engine shape. */
async function loadedEngine(shape: EngineShape): Promise<{ db: StationDexie; path: LoadReport['path'] }> {
  let core: DBCore | undefined;
  const captureCore: Middleware<DBCore> = {
    stack: 'dbcore',
    name: 'capture-core',
    level: -100,
    create(down) {
      core = down;
      return down;
    },
  };
  const db = newEngine(newEngineFactory(), STATION_SCHEMA, [captureCore]);
  await db.open();
  const sqlite = new DatabaseSync(join(dir, STORE_FILE), { readOnly: true });
  try {
    if (!core) throw new Error('The engine did not start.');
    const tables = storedTables(sqlite, [...tablesOf(STATION_SCHEMA).keys()]);
    return { db, path: (await loadIntoEngine(core, shownBackend(db, shape), tables)).path };
  } finally {
    sqlite.close();
  }
}

/** Every table's records and every index's keys in index order, and the next auto-increment ids. */
async function snapshot(db: StationDexie): Promise<unknown> {
  const state: Record<string, unknown> = {};
  for (const table of db.tables) {
    state[table.name] = await table.toArray();
    for (const index of table.schema.indexes) {
      state[`${table.name}.${index.name}`] = await table.orderBy(index.name).primaryKeys();
      state[`${table.name}.${index.name} keys`] = await table.orderBy(index.name).keys();
    }
  }
  await db.transaction('rw', db.return_packages, db.returns, async () => {
    state['next ids'] = [await db.return_packages.add(samplePackage(1, 1, 999)), await db.returns.add(sampleReturn(1, 999))];
  });
  return state;
}

it('fills the engine directly with the installed fake-indexeddb, exactly as the portable path does', async () => {
  const direct = await loadedEngine('real');
  const portable = await loadedEngine('none');
  expect(direct.path).toBe('direct');
  expect(portable.path).toBe('portable');

  const directState = await snapshot(direct.db);
  const portableState = (await snapshot(portable.db)) as Record<string, unknown[]>;
  expect(directState).toEqual(portableState);
  expect(portableState['return_packages']).toHaveLength(38);
  expect(portableState['return_packages.[account_id+tracking_key]']).toHaveLength(28);
  expect(portableState['returns.sku_keys']).toHaveLength(80);
  expect(portableState['next ids']).toEqual([41, 41]);
  direct.db.close();
  portable.db.close();
});

it('loads through the public API, says so, and fills nothing directly when the engine is nearly the expected shape', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    const nearly = await loadedEngine('nearly-right');
    expect(nearly.path).toBe('portable');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/public API.*return_packages.*index return_id/);
    const direct = await loadedEngine('real');
    expect(warn).toHaveBeenCalledTimes(1);
    // Not a table filled twice or half-filled: exactly what the direct path gives.
    expect(await snapshot(nearly.db)).toEqual(await snapshot(direct.db));
    nearly.db.close();
    direct.db.close();
  } finally {
    warn.mockRestore();
  }
});

it('keeps the unique indexes after a load: a second live tracking number is refused', async () => {
  for (const shape of ['real', 'none', 'nearly-right'] as const) {
    const { db } = await loadedEngine(shape);
    const taken = (await db.return_packages.get(2))?.tracking_number;
    expect(taken).toBeDefined();
    await expect(db.return_packages.add(samplePackage(2, 1, 1, { tracking_number: taken ?? '' }))).rejects.toThrow(/constraint/i);
    db.close();
  }
});
