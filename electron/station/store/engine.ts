import { Dexie, type DBCore, type DBCoreTable, type Middleware } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { SchemaVersion, StationDexie } from './schema.ts';

const ENGINE_NAME = 'returns-station';

/** A private in-memory IndexedDB for one store: passed through Dexie's options, never a global. */
export type EngineFactory = InstanceType<typeof IDBFactory>;

export function newEngineFactory(): EngineFactory {
  return new IDBFactory();
}

/**
 * A Dexie over `factory` declaring `versions`, with the store's middlewares (recording, hot set) at
 * the bottom of its stack. `trimStack` (the fast path `trimmed-dexie-stack`, fast-paths.ts): Dexie's
 * own Cache and Observability middlewares are taken out by their names.
 */
export function newEngine(
  factory: EngineFactory,
  versions: readonly SchemaVersion[],
  middlewares: ReadonlyArray<Middleware<DBCore>>,
  trimStack = true,
): StationDexie {
  const db = new Dexie(ENGINE_NAME, { indexedDB: factory, IDBKeyRange, autoOpen: false, cache: 'disabled' }) as StationDexie;
  for (const version of versions) {
    const declared = db.version(version.version).stores(version.stores);
    if (version.upgrade) declared.upgrade(version.upgrade);
  }
  // Dexie's query cache is off (`cache: 'disabled'`), yet its middleware still creates an
  // AbortController per read-write transaction and aborts it at the end (a DOMException with a
  // stack each time): about a tenth of a small write's cost. Nothing of it is needed here.
  if (trimStack) db.unuse({ stack: 'dbcore', name: 'Cache' });
  // Dexie's liveQuery bookkeeping: for every mutation it works out the index ranges it touched, and
  // after every read-write transaction posts them on a BroadcastChannel (a structured clone to
  // other threads) for live queries, which the station does not use (its live events come from
  // the change log). About 8 % of a create's CPU in the store (measured in-process, 32 writers).
  if (trimStack) db.unuse({ stack: 'dbcore', name: 'Observability' });
  for (const middleware of middlewares) db.use(middleware);
  db.use(tableCacheMiddleware);
  return db;
}

/**
 * Dexie asks its DBCore stack for every table of every transaction afresh, and each middleware
 * builds a new table object (the virtual-index one recomputes its index lookup each time): a
 * good part of a small write's cost. The table objects keep no per-transaction state (requests
 * carry their transaction), so the top of the stack hands out one per table name.
 */
const tableCacheMiddleware: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'station-table-cache',
  level: 1_000,
  create(down) {
    const tables = new Map<string, DBCoreTable>();
    return {
      ...down,
      table(name: string): DBCoreTable {
        let table = tables.get(name);
        if (!table) {
          table = down.table(name);
          tables.set(name, table);
        }
        return table;
      },
    };
  },
};
