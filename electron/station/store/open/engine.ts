import type { DatabaseSync } from 'node:sqlite';
import { newEngine, newEngineFactory } from '../engine.ts';
import { type LoadReport, loadIntoEngine, storedTables } from '../load.ts';
import { type StationDexie, tablesOf } from '../schema.ts';
import { ensureTables, markUpgraded, type SchemaPlan, versionOnDisk } from './create.ts';
import type { Durability } from './durability.ts';

export interface OpenedEngine {
  db: StationDexie;
  /** How SQLite was loaded into the engine; undefined for a new database. */
  load: LoadReport | undefined;
}

/**
 * Steps "load" and "upgrade": opens the in-memory engine over the SQLite copy. A new database
 * opens an empty engine at the newest version. Otherwise the engine opens at the version on disk
 * and is loaded; if that version is older, Dexie then upgrades the loaded data, and the upgrade's
 * changes are written through like any other transaction.
 */
export async function openEngine(sqlite: DatabaseSync, plan: SchemaPlan, onDisk: number, durability: Durability): Promise<OpenedEngine> {
  const factory = newEngineFactory();
  if (onDisk === 0) {
    const db = newEngine(factory, plan.versions, durability.middleware);
    await db.open();
    return { db, load: undefined };
  }
  const onDiskVersions = plan.versions.filter((version) => version.version <= onDisk);
  const loaded = newEngine(factory, onDiskVersions, durability.middleware);
  await loaded.open();
  if (!durability.loop.core) throw new Error('Store engine did not start.');
  const load = await loadIntoEngine(durability.loop.core, loaded.backendDB(), storedTables(sqlite, [...tablesOf(onDiskVersions).keys()]));
  if (onDisk === plan.latest) return { db: loaded, load };

  loaded.close();
  return { db: await upgradeEngine(sqlite, plan, durability, () => newEngine(factory, plan.versions, durability.middleware)), load };
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
