import type { ChangeLogReads } from './change-log-reads.ts';
import type { MediaFiles } from '../media/index.ts';
import type { CountFilters, ListableTable, ListQueries, ListResult } from './list-queries.ts';
import type { AccountReads, ConfigReads, OperatorReads, PackageReads, ReturnReads, TokenReads } from './aggregates.ts';
import type { ChangeListener } from './changes.ts';
import type { BoundTables } from './bound-tables.ts';
import type { ReadTables } from './read-tables.ts';
import type { Carrier, ChangeLogEntry, Location } from './records.ts';
import type { SchemaVersion, StationTableName } from './schema.ts';

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
  /** The rows a search by any part of a list reads at most to plan and count (list-queries.ts, COUNT_BUDGET by default). */
  listCountBudget?: number;
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
 * The durable station store. Outside `store/` it is read and written through this interface alone
 * (docs/decisions/store-interface.md):
 *
 * - `returns`, `packages`, `accounts`, `carriers`, `locations`, `operators`, `tokens`: reads of one
 *   aggregate each (aggregates.ts), values no caller can change (Frozen); which path serves them
 *   (the engine's memory, Dexie, SQLite) is the store's own decision.
 * - `tables`: every table, read only (read-tables.ts): reads by key, whole tables, and each
 *   table's named questions (`package_line_items.ofPackage(id)`, ...), answering copies; a GET
 *   route's `t`. For records no aggregate reads.
 * - `write(fn)` / `write(tables, fn)`: runs `fn` in a read-write transaction of the engine (all
 *   tables, or the given ones) and resolves only after its mutations are committed to SQLite. `fn`
 *   gets the write's tables (`BoundTables`, the store's own type): see
 *   docs/decisions/store-bound-tables.md. If the commit
 *   fails it rejects with CommitFailedError, and memory is brought back to the disk state for every
 *   key the failed transactions touched before the next `write` runs (reads ordered after the
 *   repair by IndexedDB itself).
 * - `listIds(table, query)` / `count(table, filters)`: list pages and counts from SQLite indexes.
 * - `subscribe(listener)`: change-log entries, called after the commit that made them durable.
 * - `changeLog`: the committed change log, read from SQLite (the engine sheds it: change-log-reads.ts).
 * - `onChange(tables, listener)`: what each commit changed of `tables` (the records it put, with
 *   their values, and deleted), or that any of them may differ (a repair of a failed commit, a range
 *   delete), once durable and before any writer hears back: caches forget what changed (changes.ts).
 * - `shedCold()`: the hot-set sweep now (it also runs every `hotSet.sweepMs`); resolves to the
 *   number of returns whose records left the engine (they stay in SQLite).
 * - `media`: content-addressed media files under `<dataDir>/media/`.
 * - `flush()`: waits until every write in flight is durable and none is left; `committedSoFar()`:
 *   until every write completed so far is durable and reported to `onChange` (later ones are
 *   not waited for); `close()`: flush, then close.
 *
 * The Dexie instance and the engine's own records are the store's insides: not on this interface
 * (insides.ts, for the store's own tests and the bench).
 */
export interface StationStore {
  readonly dataDir: string;
  readonly returns: ReturnReads;
  readonly packages: PackageReads;
  readonly accounts: AccountReads;
  readonly carriers: ConfigReads<Carrier>;
  readonly locations: ConfigReads<Location>;
  readonly operators: OperatorReads;
  readonly tokens: TokenReads;
  readonly tables: ReadTables;
  readonly media: MediaFiles;
  write<T>(fn: (t: BoundTables) => Promise<T> | T): Promise<T>;
  write<T>(tables: readonly StationTableName[], fn: (t: BoundTables) => Promise<T> | T): Promise<T>;
  listIds<K extends ListableTable>(table: K, query: ListQueries[K]): ListResult;
  count<K extends ListableTable>(table: K, filters: CountFilters[K]): number;
  readonly changeLog: ChangeLogReads;
  subscribe(listener: (entries: ChangeLogEntry[]) => void): () => void;
  onChange(tables: readonly StationTableName[], listener: ChangeListener): () => void;
  shedCold(): Promise<number>;
  flush(): Promise<void>;
  committedSoFar(): Promise<void>;
  close(): Promise<void>;
}
