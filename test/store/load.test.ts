import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { DBCore, Middleware } from 'dexie';
import { openStore, STORE_FILE } from '../../electron/station/store/index.ts';
import { newEngine, newEngineFactory } from '../../electron/station/store/engine.ts';
import { type LoadReport, loadIntoEngine, storedTables } from '../../electron/station/store/load.ts';
import { STATION_SCHEMA, type StationDexie, tablesOf } from '../../electron/station/store/schema.ts';
import { samplePackage, sampleReturn, tempDataDir, timestamp } from './fixtures.ts';

// Opening fills the engine through fake-indexeddb's internals (direct-fill.ts) and falls back to
// the engine's public API when those internals differ. Both paths must give the same engine.

let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDataDir());
  const store = await openStore({ dataDir: dir });
  await store.write(async () => {
    for (let n = 0; n < 40; n++) {
      const returnId = await store.db.returns.add(sampleReturn(1 + (n % 2), n, [n * 10 + 1, n * 10 + 2]));
      // Cancelled packages have no tracking key: no entry in the unique [account_id+tracking_key] index.
      const packageId = await store.db.return_packages.add(samplePackage(1 + (n % 2), returnId, n, n % 4 === 0 ? { status: 'cancelled' } : {}));
      await store.db.package_line_items.add({
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
    await store.db.idempotency_keys.bulkAdd([
      { key: 'b:POST /x', request_hash: 'h2', status: 201, response: '{}', created_at: timestamp(2) },
      { key: 'a:POST /x', request_hash: 'h1', status: 201, response: '{}', created_at: timestamp(1) },
    ]);
    await store.db.station_meta.put({ key: 'station', value: { name: 'Dock 1' } });
  });
  // The highest ids were handed out and deleted: a reload must not give them again.
  await store.write(() => store.db.return_packages.bulkDelete([39, 40]));
  await store.close();
});
afterEach(async () => {
  await cleanup();
});

/** A fresh engine at the station schema, loaded from the data directory by one of the two paths. */
async function loadedEngine(path: LoadReport['path']): Promise<{ db: StationDexie; path: LoadReport['path'] }> {
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
  const db = newEngine(newEngineFactory(), STATION_SCHEMA, captureCore);
  await db.open();
  const sqlite = new DatabaseSync(join(dir, STORE_FILE), { readOnly: true });
  try {
    if (!core) throw new Error('The engine did not start.');
    const tables = storedTables(sqlite, [...tablesOf(STATION_SCHEMA).keys()]);
    // No engine internals to reach into: what a different fake-indexeddb would look like.
    const backend = path === 'direct' ? db.backendDB() : {};
    return { db, path: (await loadIntoEngine(core, backend, tables)).path };
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
  const direct = await loadedEngine('direct');
  const portable = await loadedEngine('portable');
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

it('keeps the unique indexes after a load: a second live tracking number is refused', async () => {
  for (const path of ['direct', 'portable'] as const) {
    const { db } = await loadedEngine(path);
    const taken = (await db.return_packages.get(2))?.tracking_number;
    expect(taken).toBeDefined();
    await expect(db.return_packages.add(samplePackage(2, 1, 1, { tracking_number: taken ?? '' }))).rejects.toThrow(/constraint/i);
    db.close();
  }
});
