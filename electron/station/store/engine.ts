import { Dexie, type Middleware, type DBCore } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { SchemaVersion, StationDexie } from './schema.ts';

const ENGINE_NAME = 'returns-station';

/** A private in-memory IndexedDB for one store: passed through Dexie's options, never a global. */
export type EngineFactory = InstanceType<typeof IDBFactory>;

export function newEngineFactory(): EngineFactory {
  return new IDBFactory();
}

/** A Dexie over `factory` declaring `versions`, with the recording middleware at the bottom of its stack. */
export function newEngine(factory: EngineFactory, versions: readonly SchemaVersion[], middleware: Middleware<DBCore>): StationDexie {
  const db = new Dexie(ENGINE_NAME, { indexedDB: factory, IDBKeyRange, autoOpen: false, cache: 'disabled' }) as StationDexie;
  for (const version of versions) {
    const declared = db.version(version.version).stores(version.stores);
    if (version.upgrade) declared.upgrade(version.upgrade);
  }
  db.use(middleware);
  return db;
}
