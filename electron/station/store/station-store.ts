import type { Transaction } from 'dexie';
import type { ChangeLogReads } from './change-log-reads.ts';
import type { MediaFiles } from '../media/index.ts';
import type { CountFilters, ListableTable, ListQueries, ListResult } from './list-queries.ts';
import type { AccountReads, ConfigReads, OperatorReads, ReturnReads, TokenReads } from './aggregates.ts';
import type { EngineReads } from './engine-reads.ts';
import type { Mutation } from './durability/mutations.ts';
import type { Carrier, ChangeLogEntry, Location } from './records.ts';
import type { SchemaVersion, StationDexie, StationTableName } from './schema.ts';

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
  /** Fault injection for tests: awaited before each fsync of the WAL (durability/wal-sync.ts); rejecting makes that sync fail. */
  beforeSync?: () => Promise<void>;
  /**
   * The hot set (docs/decisions/store-hot-set.md): `days` a changed record stays in the engine
   * (default 14; 0: only open and unsent records), at most `recentLimit` returns' records kept for a
   * recent change alone (default 100,000, the most recently changed; null: no limit), the clock that ends the window (default: the
   * system clock), and how often the sweep sheds what left it (default 10 minutes; 0: never, for tests); `onShed` hears how many returns' records a sweep shed.
   */
  hotSet?: { days?: number; recentLimit?: number | null; now?: () => string; sweepMs?: number; onShed?: (returns: number) => void };
}

/**
 * The durable station store.
 *
 * - `db`: the typed Dexie instance (in-memory engine) for reads outside a write. Inside `write`,
 *   work on `boundTables(tx)` (a `BoundTables`), never on `db`: see docs/decisions/store-bound-tables.md.
 * - `write(fn)` / `write(tables, fn)`: runs `fn` in a Dexie read-write transaction (all tables, or
 *   the given ones) and resolves only after its mutations are committed to SQLite. If the commit
 *   fails it rejects with CommitFailedError, and memory is brought back to the disk state for every
 *   key the failed transactions touched before the next `write` runs (reads ordered after the
 *   repair by IndexedDB itself).
 * - `inMemory`: synchronous reads of committed records from the engine's memory for the hottest
 *   GETs; each answers `undefined` when the caller must read through `db` instead (engine-reads.ts).
 * - `listIds(table, query)` / `count(table, filters)`: list pages and counts from SQLite indexes.
 * - `subscribe(listener)`: change-log entries, called after the commit that made them durable.
 * - `changeLog`: the committed change log, read from SQLite (the engine sheds it: change-log-reads.ts).
 * - `onTablesChanged(listener)`: the tables whose stored state changed, after each commit and
 *   after each repair of a failed one, before any writer hears back: caches of records forget them.
 *   After a commit it also gets the commit's mutations (a put with the record's JSON, a delete with
 *   its key), so a cache can forget single records; after a repair none (any record may differ).
 * - `shedCold()`: the hot-set sweep now (it also runs every `hotSet.sweepMs`); resolves to the
 *   number of returns whose records left the engine (they stay in SQLite).
 * - `returns`, `accounts`, `carriers`, `locations`, `operators`, `tokens`: reads of one aggregate each (aggregates.ts), values no caller can
 *   change (Frozen); which path serves them (engine memory, Dexie, SQLite) is the store's own
 *   decision. The rest of the reads are moving behind such an interface (docs/decisions/store-interface.md);
 *   `db` and `inMemory` are the store's insides, refused by lint outside store/ but in the files not yet moved.
 * - `media`: content-addressed media files under `<dataDir>/media/`.
 * - `flush()`: waits until every write in flight is durable and none is left; `committedSoFar()`:
 *   until every write completed so far is durable and reported to `onTablesChanged` (later ones are
 *   not waited for); `close()`: flush, then close.
 */
export interface StationStore {
  readonly dataDir: string;
  readonly db: StationDexie;
  readonly inMemory: EngineReads;
  readonly returns: ReturnReads;
  readonly accounts: AccountReads;
  readonly carriers: ConfigReads<Carrier>;
  readonly locations: ConfigReads<Location>;
  readonly operators: OperatorReads;
  readonly tokens: TokenReads;
  readonly media: MediaFiles;
  write<T>(fn: (tx: Transaction) => Promise<T> | T): Promise<T>;
  write<T>(tables: readonly StationTableName[], fn: (tx: Transaction) => Promise<T> | T): Promise<T>;
  listIds<K extends ListableTable>(table: K, query: ListQueries[K]): ListResult;
  count<K extends ListableTable>(table: K, filters: CountFilters[K]): number;
  readonly changeLog: ChangeLogReads;
  subscribe(listener: (entries: ChangeLogEntry[]) => void): () => void;
  onTablesChanged(listener: (tables: ReadonlySet<string>, mutations?: readonly Mutation[]) => void): () => void;
  shedCold(): Promise<number>;
  flush(): Promise<void>;
  committedSoFar(): Promise<void>;
  close(): Promise<void>;
}
