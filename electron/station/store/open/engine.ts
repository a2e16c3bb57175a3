import type { DatabaseSync } from 'node:sqlite';
import { newEngine, newEngineFactory } from '../engine.ts';
import type { FastPath } from '../fast-paths.ts';
import { type LoadReport, loadIntoEngine, storedTables } from '../load.ts';
import { createColdReads } from '../hot-set/cold-reads.ts';
import { type HotSetEngine, hotSetMiddleware } from '../hot-set/middleware.ts';
import { CLUSTER_TABLES, CHANGE_LOG_TABLE, dropHotKeys, ensureHotSetIndexes, hasHotSetTables, type HotSetOptions, selectHotKeys } from '../hot-set/rule.ts';
import { type StationDexie, tablesOf } from '../schema.ts';
import { ensureTables, markUpgraded, type SchemaPlan, versionOnDisk } from './create.ts';
import type { Durability } from './durability.ts';

export interface OpenedEngine {
  db: StationDexie;
  /** How SQLite was loaded into the engine; undefined for a new database. */
  load: LoadReport | undefined;
  /** The hot set's view of the engine (clusters present, the core the sweep uses). */
  hot: HotSetEngine;
}

/**
 * Steps "load" and "upgrade": opens the in-memory engine over the SQLite copy. A new database
 * opens an empty engine at the newest version. Otherwise the engine opens at the version on disk
 * and is loaded; if that version is older, Dexie then upgrades the loaded data, and the upgrade's
 * changes are written through like any other transaction.
 */
export async function openEngine(
  sqlite: DatabaseSync,
  plan: SchemaPlan,
  onDisk: number,
  durability: Durability,
  hotSet: HotSetOptions,
  fastPaths: ReadonlySet<FastPath>,
): Promise<OpenedEngine> {
  const factory = newEngineFactory();
  const trim = fastPaths.has('trimmed-dexie-stack');
  ensureHotSetIndexes(sqlite);
  const hot = hotSetMiddleware(createColdReads(sqlite));
  const middlewares = [...durability.middlewares, hot.middleware];
  if (onDisk === 0) {
    const db = newEngine(factory, plan.versions, middlewares, trim);
    await db.open();
    hot.enabled = hasHotSetTables(plan.tables);
    return { db, load: undefined, hot };
  }
  const onDiskVersions = plan.versions.filter((version) => version.version <= onDisk);
  const loaded = newEngine(factory, onDiskVersions, middlewares, trim);
  await loaded.open();
  if (!durability.loop.core) throw new Error('Store engine did not start.');
  // An upgrade function must see every record: then everything is loaded, and the sweep sheds later.
  const upgrades = plan.versions.some((version) => version.version > onDisk && version.upgrade);
  const onDiskTables = tablesOf(onDiskVersions);
  const tables = [...onDiskTables.keys()];
  const listed = new Set<string>(upgrades || !hasHotSetTables(onDiskTables) ? [] : CLUSTER_TABLES);
  if (listed.size > 0) selectHotKeys(sqlite, hotSet);
  // With the hot set on, the change log stays on disk too (it is read from SQLite: change-log-reads.ts).
  const leftOnDisk = new Set<string>(listed.size > 0 && onDiskTables.has(CHANGE_LOG_TABLE) ? [CHANGE_LOG_TABLE] : []);
  const load = await loadIntoEngine(durability.loop.core, loaded.backendDB(), storedTables(sqlite, tables, listed, leftOnDisk), fastPaths.has('direct-fill'));
  if (onDiskTables.has('returns')) {
    const present = sqlite.prepare(listed.size > 0 ? 'SELECT k FROM temp.hot_returns' : 'SELECT k FROM returns').all() as Array<{ k: number }>;
    for (const { k } of present) hot.present.add(k);
  }
  if (onDiskTables.has('outbox'))
    load.outboxSlots = (sqlite.prepare(`SELECT count(*) AS n FROM ${listed.size > 0 ? 'temp.hot_outbox' : 'outbox'}`).get() as { n: number }).n;
  dropHotKeys(sqlite);
  load.hotReturns = hot.present.size;
  hot.enabled = hasHotSetTables(plan.tables);
  if (onDisk === plan.latest) return { db: loaded, load, hot };

  loaded.close();
  return { db: await upgradeEngine(sqlite, plan, durability, () => newEngine(factory, plan.versions, middlewares, trim)), load, hot };
}

/**
 * Reopens the loaded engine at the newest version: Dexie runs the upgrade functions in one
 * versionchange transaction, whose commit also moves the version on disk (onUpgradeCommit). An
 * upgrade that changed no record commits nothing, so the version is moved here instead.
 */
async function upgradeEngine(sqlite: DatabaseSync, plan: SchemaPlan, durability: Durability, reopen: () => StationDexie): Promise<StationDexie> {
  ensureTables(sqlite, plan);
  const db = reopen();
  await db.open();
  await durability.loop.idle();
  if (versionOnDisk(sqlite) !== plan.latest) {
    sqlite.exec('BEGIN IMMEDIATE');
    markUpgraded(sqlite, plan);
    sqlite.exec('COMMIT');
  }
  return db;
}
