import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, ensurePrivateFile } from '../private-files.ts';
import type { CommitStats } from './durability/commit-loop.ts';
import type { LoadReport } from './load.ts';
import { assembleStore } from './open/assemble.ts';
import { createOnDisk, planOf } from './open/create.ts';
import { ensureSkuIndex } from './sqlite/sku-index.ts';
import { ensureTextSearchIndex } from './sqlite/text-search-index.ts';
import { ensureDispositionIndex } from './sqlite/disposition-index.ts';
import { ensureUnitIndex } from './sqlite/unit-index.ts';
import { ensureReviewIndex } from './sqlite/review-index.ts';
import { ensureSerialIndex } from './sqlite/serial-index.ts';
import { ensureStatusCounts } from './sqlite/status-counts.ts';
import { ensureListIndexes } from './sqlite/layout.ts';
import { type Durability, startDurability } from './open/durability.ts';
import { type OpenedEngine, openEngine } from './open/engine.ts';
import { engineReadsFor } from './engine-reads.ts';
import { FAST_PATHS, type FastPath, wantedFastPaths } from './fast-paths.ts';
import { compactionMismatch } from './hot-set/compact-trees.ts';
import { DamagedDatabaseError, DamagedRowError, isCorruption, MissingDatabaseError } from './errors.ts';
import { latestVersion, STATION_SCHEMA } from './schema.ts';
import { DEFAULT_HOT_DAYS, DEFAULT_HOT_RECENT_LIMIT } from './hot-set/rule.ts';
import { openStationDatabase } from './sqlite/open-database.ts';
import type { OpenStoreOptions, StationStore } from './station-store.ts';

export * from './errors.ts';
export type * from './records.ts';
export { outboxKey, trackingKey } from './records.ts';
export { type BoundTables, outsideWrite } from './bound-tables.ts';
export { allocateIds } from './sequences.ts';
export type { ListResult, PackageFilters, PackageSort, ReturnFilters } from './list-queries.ts';
export type { SchemaVersion, StationTableName } from './schema.ts';
export type { OpenStoreOptions, StationStore } from './station-store.ts';
export type { Frozen } from './frozen.ts';
export type { ListedPackage } from './aggregates.ts';
export type { ChangedRecord, StoreChange } from './changes.ts';
export type * from './read-tables.ts';
export type { StoredMedia } from '../media/index.ts';

export type { CommitStats } from './durability/commit-loop.ts';
export type { LoadReport } from './load.ts';
export { FAST_PATHS, FAST_PATHS_ENV, type FastPath } from './fast-paths.ts';

export { DEFAULT_HOT_DAYS, DEFAULT_HOT_RECENT_LIMIT } from './hot-set/rule.ts';
export { holdExclusively } from './sqlite/exclusive-lock.ts';

export const STORE_FILE = 'station.db';

/**
 * The newest version of the station's data (the store's schema), as `GET /health` reports it: the
 * store upgrades an older data directory at open, so a running station's is always this one.
 */
export const STORE_SCHEMA_VERSION = latestVersion(STATION_SCHEMA);

/** For the bench and diagnostics: how the store opened and how well its commits group. */
export interface StoreStats {
  /** Commits and the transactions they made durable since the store opened. */
  commits: Readonly<CommitStats>;
  /** How the SQLite copy was loaded into the engine; undefined for a new database. */
  load: LoadReport | undefined;
  /** The hot set's window and limit the store keeps, its defaults applied; undefined before it opened. */
  hotSet?: { days: number; recentLimit: number | null };
  /** The fast paths through private internals this store uses (fast-paths.ts): asked for, and the engine of the expected shape. */
  fastPaths?: FastPath[];
}

const storeStats = new WeakMap<StationStore, StoreStats>();

export function storeStatsOf(store: StationStore): StoreStats {
  return storeStats.get(store) ?? { commits: { commits: 0, transactions: 0 }, load: undefined };
}

/**
 * Opens the store in `dataDir`, in four steps (docs/decisions/store-open-steps.md):
 *
 * 1. create — open `station.db`, refusing one held by another process, written by a newer app or
 *    not a station database (errors.ts); a new one gets its tables;
 * 2. load — start the write-through machinery, open the in-memory engine and load the hot set
 *    of SQLite into it (docs/decisions/store-hot-set.md);
 * 3. upgrade — if the database is of an older version, Dexie upgrades the loaded data, written
 *    through like any other transaction;
 * 4. assemble — media files, list queries and the write/close protocol become one StationStore.
 */
export async function openStore(options: OpenStoreOptions): Promise<StationStore> {
  const plan = planOf(options.schema ?? STATION_SCHEMA);
  ensurePrivateDir(options.dataDir);
  const file = join(options.dataDir, STORE_FILE);
  if (options.refuseNewBecause && isMissingOrEmpty(file)) throw new MissingDatabaseError(file, options.refuseNewBecause);
  let opened: ReturnType<typeof openStationDatabase>;
  // Owner-only before SQLite writes a byte (its WAL takes the same mode); an existing file is tightened.
  for (const own of [file, `${file}-wal`]) if (existsSync(own) || own === file) ensurePrivateFile(own);
  try {
    opened = openStationDatabase(file, plan.latest);
  } catch (error) {
    throw isCorruption(error) ? new DamagedDatabaseError(file, error instanceof Error ? error.message : String(error)) : error;
  }
  const { db: sqlite, version: onDisk } = opened;
  let durability: Durability | undefined;
  try {
    if (onDisk === 0) createOnDisk(sqlite, plan);
    ensureSkuIndex(sqlite);
    ensureTextSearchIndex(sqlite);
    ensureDispositionIndex(sqlite);
    ensureUnitIndex(sqlite);
    ensureReviewIndex(sqlite);
    ensureSerialIndex(sqlite);
    ensureStatusCounts(sqlite);
    ensureListIndexes(sqlite);
    durability = startDurability(sqlite, file, plan, {
      ...(options.beforeCommit ? { beforeCommit: options.beforeCommit } : {}),
      ...(options.beforeSync ? { beforeSync: options.beforeSync } : {}),
    });
    const hotSet = {
      days: options.hotSet?.days ?? DEFAULT_HOT_DAYS,
      recentLimit: options.hotSet?.recentLimit === undefined ? DEFAULT_HOT_RECENT_LIMIT : options.hotSet.recentLimit,
      now: options.hotSet?.now ?? (() => new Date().toISOString()),
    };
    const wanted = wantedFastPaths();
    const engine = await openEngine(sqlite, plan, onDisk, durability, hotSet, wanted);
    const store = await assembleStore(options, plan, sqlite, durability, engine, hotSet, wanted);
    storeStats.set(store, {
      commits: durability.loop.stats,
      load: engine.load,
      hotSet: { days: hotSet.days, recentLimit: hotSet.recentLimit },
      fastPaths: activeFastPaths(wanted, engine),
    });
    return store;
  } catch (error) {
    durability?.wal.close();
    if (sqlite.isOpen) sqlite.close();
    if (error instanceof DamagedRowError || isCorruption(error)) throw new DamagedDatabaseError(file, error instanceof Error ? error.message : String(error));
    throw error;
  }
}

/** The fast paths asked for that the engine's shape allows (a new database loads nothing: its fill counts as asked). */
function activeFastPaths(wanted: ReadonlySet<FastPath>, engine: OpenedEngine): FastPath[] {
  const backend = engine.db.backendDB();
  const active: Record<FastPath, boolean> = {
    'direct-fill': engine.load === undefined || engine.load.path === 'direct',
    'tree-reads': engineReadsFor(backend) !== undefined,
    'tree-compaction': compactionMismatch(backend) === undefined,
    'trimmed-dexie-stack': true,
  };
  return FAST_PATHS.filter((path) => wanted.has(path) && active[path]);
}

function isMissingOrEmpty(file: string): boolean {
  return !existsSync(file) || statSync(file).size === 0;
}
