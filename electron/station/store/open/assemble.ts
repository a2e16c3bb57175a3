import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { Dexie, type Transaction } from 'dexie';
import { openMediaFiles } from '../../media/index.ts';
import { StoreClosedError } from '../errors.ts';
import { createListQueries } from '../list-queries.ts';
import { mediaReferences } from '../media-references.ts';
import type { StationTableName } from '../schema.ts';
import type { OpenStoreOptions, StationStore } from '../station-store.ts';
import type { SchemaPlan } from './create.ts';
import type { Durability } from './durability.ts';
import type { OpenedEngine } from './engine.ts';
import type { HotSetOptions } from '../hot-set/rule.ts';
import { shedCold } from '../hot-set/shed.ts';
import { engineReadsOf } from '../engine-reads.ts';

const DEFAULT_SWEEP_MS = 10 * 60_000;

/** Step "assemble": the opened engine, SQLite and the commit loop become one StationStore. */
export async function assembleStore(
  options: OpenStoreOptions,
  plan: SchemaPlan,
  sqlite: DatabaseSync,
  durability: Durability,
  engine: OpenedEngine,
  hotSet: HotSetOptions,
): Promise<StationStore> {
  const { db } = engine;
  const { loop, records } = durability;
  const media = await openMediaFiles(join(options.dataDir, 'media'), {
    isReferenced: mediaReferences(db, sqlite),
    budgetBytes: options.mediaBudgetBytes ?? null,
  });
  // Open: from now on every write goes through the commit loop, which fsyncs the WAL itself off
  // the event loop before it acknowledges (durability/wal-sync.ts); SQLite's own fsync at each
  // COMMIT would block the loop. Until here (creation, upgrades) SQLite synced every commit.
  sqlite.exec('PRAGMA synchronous = NORMAL');
  const allTables = [...plan.tables.keys()];
  const lists = createListQueries(sqlite);
  // Durable now: counts remembered from SQLite may have changed.
  durability.onTablesChanged.add((tables) => {
    for (const table of tables) lists.forgetCounts(table);
  });
  let closed = false;
  let closing: Promise<void> | undefined;
  let writesInFlight = 0;

  // The sweep: one at a time, after every write so far is durable (hot-set/shed.ts).
  let sweeping: Promise<number> | undefined;
  const sweep = (): Promise<number> => {
    if (closed) return Promise.resolve(0);
    sweeping ??= loop
      .idle()
      .then(() => (closed ? 0 : shedCold(engine.hot, hotSet, () => loop.settled)))
      .then((shed) => {
        if (shed > 0) options.hotSet?.onShed?.(shed);
        return shed;
      })
      .finally(() => {
        sweeping = undefined;
      });
    return sweeping;
  };
  const sweepMs = options.hotSet?.sweepMs ?? DEFAULT_SWEEP_MS;
  const sweepTimer =
    sweepMs > 0
      ? setInterval(() => {
          sweep().catch((error: unknown) => console.error('Returns station store: the hot-set sweep failed (retried at the next one)', error));
        }, sweepMs)
      : undefined;
  sweepTimer?.unref();

  function write<T>(
    tablesOrFn: readonly StationTableName[] | ((tx: Transaction) => Promise<T> | T),
    maybeFn?: (tx: Transaction) => Promise<T> | T,
  ): Promise<T> {
    const fn = typeof tablesOrFn === 'function' ? tablesOrFn : maybeFn;
    const tables = typeof tablesOrFn === 'function' ? allTables : [...tablesOrFn];
    if (!fn) return Promise.reject(new TypeError('store.write needs a function.'));
    // Nested in a running write: join it as a Dexie sub-transaction (the outer write waits for the
    // commit). Not an async function on purpose: an extra native promise hop here would let the
    // IndexedDB transaction commit before the nested work is done.
    if (Dexie.currentTransaction) return db.transaction('rw', tables, fn);
    return writeOutermost(tables, fn);
  }

  async function writeOutermost<T>(tables: string[], fn: (tx: Transaction) => Promise<T> | T): Promise<T> {
    if (closed) throw new StoreClosedError();
    writesInFlight += 1;
    try {
      await loop.ready();
      let idbTransaction: object | undefined;
      // While this write is queued or running in the engine, the commit loop lets it join the next commit.
      loop.writeEntered();
      let result: T;
      try {
        result = await db.transaction('rw', tables, (tx) => {
          // Dexie's handle on the engine transaction: the key under which the recording middleware
          // files this write's mutations (docs/decisions/store-dexie-internals.md).
          idbTransaction = tx.idbtrans;
          return fn(tx);
        });
      } finally {
        loop.writeLeft();
      }
      const record = idbTransaction ? records.get(idbTransaction) : undefined;
      if (record) await record.durable;
      return result;
    } finally {
      writesInFlight -= 1;
    }
  }

  const inMemory = engineReadsOf(db.backendDB(), { holdsAllMatches: engine.hot.holdsAllMatches, isClosed: () => closed });

  return {
    dataDir: options.dataDir,
    db,
    inMemory,
    media,
    write,
    listIds(table, query) {
      if (closed) throw new StoreClosedError();
      return lists.listIds(table, query);
    },
    count(table, filters) {
      if (closed) throw new StoreClosedError();
      return lists.count(table, filters);
    },
    subscribe(listener) {
      durability.listeners.add(listener);
      return () => durability.listeners.delete(listener);
    },
    onTablesChanged(listener) {
      durability.onTablesChanged.add(listener);
      return () => durability.onTablesChanged.delete(listener);
    },
    shedCold: sweep,
    flush() {
      return loop.idle();
    },
    close() {
      closing ??= (async () => {
        closed = true;
        clearInterval(sweepTimer);
        await sweeping?.catch(() => 0);
        // Writes already started finish and commit; then nothing is in flight.
        while (writesInFlight > 0 || loop.active > 0) {
          await loop.idle();
          await new Promise((resolve) => setImmediate(resolve));
        }
        await loop.idle();
        db.close();
        durability.wal.close();
        sqlite.close();
      })();
      return closing;
    },
  };
}
