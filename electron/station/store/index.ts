import { existsSync, statSync } from 'node:fs';
import { ensurePrivateDir, ensurePrivateFile } from '../private-files.ts';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { Dexie, type Transaction } from 'dexie';
import { type MediaFiles, openMediaFiles } from '../media/index.ts';
import { type CommitStats, createCommitLoop } from './durability/commit-loop.ts';
import type { Mutation, TransactionRecord } from './durability/mutations.ts';
import { recordingMiddleware } from './durability/recording-middleware.ts';
import { createSqliteWriter } from './durability/sqlite-writer.ts';
import { mediaReferences } from './media-references.ts';
import { newEngine, newEngineFactory } from './engine.ts';
import { DamagedDatabaseError, DamagedRowError, isCorruption, MissingDatabaseError, StoreClosedError } from './errors.ts';
import { type CountFilters, createListQueries, type ListableTable, type ListQueries, type ListResult } from './list-queries.ts';
import { type LoadReport, loadIntoEngine, storedTables } from './load.ts';
import type { ChangeLogEntry } from './records.ts';
import { latestVersion, STATION_SCHEMA, type SchemaVersion, type StationDexie, type StationTableName, tablesOf } from './schema.ts';
import { allocateIds, type SequenceName } from './sequences.ts';
import { createTableSql, INTERNAL_TABLES_SQL, quoteIdent } from './sqlite/layout.ts';
import { openStationDatabase, STATION_APPLICATION_ID } from './sqlite/open-database.ts';

export * from './errors.ts';
export type * from './records.ts';
export { trackingKey } from './records.ts';
export { boundTables, type StationTables } from './bound-tables.ts';
export { allocateIds } from './sequences.ts';
export type { CountFilters, ListableTable, ListQueries, ListResult, PackageFilters, PackageSort, ReturnFilters, Page } from './list-queries.ts';
export type { SchemaVersion, StationDexie, StationTableName } from './schema.ts';
export type { SequenceName } from './sequences.ts';
export type { MediaFiles, StoredMedia } from '../media/index.ts';

export type { CommitStats } from './durability/commit-loop.ts';
export type { LoadReport } from './load.ts';

export const STORE_FILE = 'station.db';

function isMissingOrEmpty(file: string): boolean {
  return !existsSync(file) || statSync(file).size === 0;
}

/** For the bench and diagnostics: how the store opened and how well its commits group. */
export interface StoreStats {
  /** Commits and the transactions they made durable since the store opened. */
  commits: Readonly<CommitStats>;
  /** How the SQLite copy was loaded into the engine; undefined for a new database. */
  load: LoadReport | undefined;
}

const storeStats = new WeakMap<StationStore, StoreStats>();

export function storeStatsOf(store: StationStore): StoreStats {
  return storeStats.get(store) ?? { commits: { commits: 0, transactions: 0 }, load: undefined };
}

export interface OpenStoreOptions {
  /** Holds `station.db` (+ WAL) and `media/`. The caller holds the data-directory lock. */
  dataDir: string;
  /** The Dexie versions; defaults to the station schema. For tests and tools. */
  schema?: readonly SchemaVersion[];
  /**
   * Why a missing or empty `station.db` must not be started afresh (media files, a crashed holder):
   * then opening refuses with MissingDatabaseError. Null or absent: a new database is created.
   */
  refuseNewBecause?: string | null;
  /** Most bytes `media/` may hold (null or absent: no budget). */
  mediaBudgetBytes?: number | null;
  /** Fault injection for tests: runs inside each SQLite commit; throwing makes that commit fail. */
  beforeCommit?: () => void;
}

/**
 * The durable station store.
 *
 * - `db`: the typed Dexie instance (in-memory engine) for point reads and for writes inside `write`.
 * - `write(fn)` / `write(tables, fn)`: runs `fn` in a Dexie read-write transaction (all tables, or
 *   the given ones) and resolves only after its mutations are committed to SQLite. If the commit
 *   fails it rejects with CommitFailedError, and memory is brought back to the disk state for every
 *   key the failed transactions touched before the next `write` runs (reads ordered after the
 *   repair by IndexedDB itself).
 * - `listIds(table, query)` / `count(table, filters)`: list pages and counts from SQLite indexes.
 * - `allocateIds(sequence, n)`: ids for embedded records (return line items); inside `write`.
 * - `subscribe(listener)`: change-log entries, called after the commit that made them durable.
 * - `media`: content-addressed media files under `<dataDir>/media/`.
 * - `flush()`: waits until every completed transaction is durable; `close()`: flush, then close.
 */
export interface StationStore {
  readonly dataDir: string;
  readonly db: StationDexie;
  readonly media: MediaFiles;
  write<T>(fn: (tx: Transaction) => Promise<T> | T): Promise<T>;
  write<T>(tables: readonly StationTableName[], fn: (tx: Transaction) => Promise<T> | T): Promise<T>;
  listIds<K extends ListableTable>(table: K, query: ListQueries[K]): ListResult;
  count<K extends ListableTable>(table: K, filters: CountFilters[K]): number;
  allocateIds(sequence: SequenceName, count: number): Promise<number[]>;
  subscribe(listener: (entries: ChangeLogEntry[]) => void): () => void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the store in `dataDir`: refuses a database held by another process, written by a newer
 * app or not a station database (errors.ts); loads SQLite into the engine; runs schema upgrades,
 * whose changes are written through like any other transaction.
 */
export async function openStore(options: OpenStoreOptions): Promise<StationStore> {
  const schema = options.schema ?? STATION_SCHEMA;
  const latest = latestVersion(schema);
  ensurePrivateDir(options.dataDir);
  const file = join(options.dataDir, STORE_FILE);
  if (options.refuseNewBecause && isMissingOrEmpty(file)) throw new MissingDatabaseError(file, options.refuseNewBecause);
  let opened: ReturnType<typeof openStationDatabase>;
  // Owner-only before SQLite writes a byte (its WAL takes the same mode); an existing file is tightened.
  for (const own of [file, `${file}-wal`]) if (existsSync(own) || own === file) ensurePrivateFile(own);
  try {
    opened = openStationDatabase(file, latest);
  } catch (error) {
    throw isCorruption(error) ? new DamagedDatabaseError(file, error instanceof Error ? error.message : String(error)) : error;
  }
  const { db: sqlite, version: onDisk } = opened;
  try {
    return await openOnDatabase(options, schema, sqlite, onDisk);
  } catch (error) {
    if (sqlite.isOpen) sqlite.close();
    if (error instanceof DamagedRowError || isCorruption(error)) throw new DamagedDatabaseError(file, error instanceof Error ? error.message : String(error));
    throw error;
  }
}

async function openOnDatabase(
  options: OpenStoreOptions,
  schema: readonly SchemaVersion[],
  sqlite: DatabaseSync,
  onDisk: number,
): Promise<StationStore> {
  const latest = latestVersion(schema);
  const latestTables = tablesOf(schema);
  const autoIncrement = new Set([...latestTables].filter(([, spec]) => spec.split(',')[0]?.trim().startsWith('++')).map(([name]) => name));
  const ensureTables = (tables: Map<string, string>): void => {
    sqlite.exec(INTERNAL_TABLES_SQL);
    for (const [name, spec] of tables) sqlite.exec(createTableSql(name, spec.split(',')[0]?.trim().startsWith('++') ?? false));
  };
  /** Inside the commit that upgrades: the new version on disk, and tables no version keeps any more. */
  const markUpgraded = (): void => {
    const existing = sqlite.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'`).all() as Array<{ name: string }>;
    for (const { name } of existing) if (!latestTables.has(name)) sqlite.exec(`DROP TABLE ${quoteIdent(name)}`);
    sqlite.exec(`PRAGMA user_version = ${latest}`);
  };

  if (onDisk === 0) {
    sqlite.exec('BEGIN IMMEDIATE');
    ensureTables(latestTables);
    sqlite.exec(`PRAGMA application_id = ${STATION_APPLICATION_ID}; PRAGMA user_version = ${latest}`);
    sqlite.exec('COMMIT');
  }

  // The list queries exist once the engine is loaded; commits during an upgrade come before them.
  let forgetCounts: (table: string) => void = () => undefined;
  const listeners = new Set<(entries: ChangeLogEntry[]) => void>();
  const records = new WeakMap<object, TransactionRecord>();
  const loop = createCommitLoop({
    writer: createSqliteWriter(sqlite, autoIncrement),
    ...(options.beforeCommit ? { beforeCommit: options.beforeCommit } : {}),
    onUpgradeCommit: markUpgraded,
    onCommitted: (mutations) => {
      // Durable now: counts remembered from SQLite may have changed.
      for (const table of new Set(mutations.map((m) => m.table))) forgetCounts(table);
      notify(listeners, mutations);
    },
  });
  const middleware = recordingMiddleware(loop, records);
  const factory = newEngineFactory();

  let db: StationDexie;
  let load: LoadReport | undefined;
  if (onDisk === 0) {
    db = newEngine(factory, schema, middleware);
    await db.open();
  } else {
    // Load at the version on disk, then let Dexie upgrade the loaded data to the newest version.
    const onDiskVersions = schema.filter((version) => version.version <= onDisk);
    const loaded = newEngine(factory, onDiskVersions, middleware);
    await loaded.open();
    if (!loop.core) throw new Error('Store engine did not start.');
    load = await loadIntoEngine(loop.core, loaded.backendDB(), storedTables(sqlite, [...tablesOf(onDiskVersions).keys()]));
    if (onDisk === latest) {
      db = loaded;
    } else {
      loaded.close();
      ensureTables(latestTables);
      db = newEngine(factory, schema, middleware);
      await db.open();
      await loop.idle();
      if (Number((sqlite.prepare('PRAGMA user_version').get() as { user_version: number }).user_version) !== latest) {
        sqlite.exec('BEGIN IMMEDIATE');
        markUpgraded();
        sqlite.exec('COMMIT');
      }
    }
  }

  const media = await openMediaFiles(join(options.dataDir, 'media'), {
    isReferenced: mediaReferences(db, sqlite),
    budgetBytes: options.mediaBudgetBytes ?? null,
  });
  const allTables = [...latestTables.keys()];
  const lists = createListQueries(sqlite);
  forgetCounts = (table) => lists.forgetCounts(table);
  let closed = false;
  let closing: Promise<void> | undefined;
  let writesInFlight = 0;

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

  const store: StationStore = {
    dataDir: options.dataDir,
    db,
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
    allocateIds(sequence, count) {
      return allocateIds(db, sequence, count);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush() {
      return loop.idle();
    },
    close() {
      closing ??= (async () => {
        closed = true;
        // Writes already started finish and commit; then nothing is in flight.
        while (writesInFlight > 0 || loop.active > 0) {
          await loop.idle();
          await new Promise((resolve) => setImmediate(resolve));
        }
        await loop.idle();
        db.close();
        sqlite.close();
      })();
      return closing;
    },
  };
  storeStats.set(store, { commits: loop.stats, load });
  return store;
}

function notify(listeners: Set<(entries: ChangeLogEntry[]) => void>, mutations: readonly Mutation[]): void {
  if (listeners.size === 0) return;
  const entries: ChangeLogEntry[] = [];
  for (const mutation of mutations) {
    if (mutation.kind === 'put' && mutation.table === 'change_log') entries.push(JSON.parse(mutation.json) as ChangeLogEntry);
  }
  if (entries.length === 0) return;
  for (const listener of listeners) {
    try {
      listener(entries);
    } catch (error) {
      console.error('Returns station store: a change listener failed', error);
    }
  }
}
