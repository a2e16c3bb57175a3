import type { DatabaseSync } from 'node:sqlite';
import { latestVersion, type SchemaVersion, tablesOf } from '../schema.ts';
import { createTableSql, INTERNAL_TABLES_SQL, quoteIdent } from '../sqlite/layout.ts';
import { STATION_APPLICATION_ID } from '../sqlite/open-database.ts';

/** What the opening steps need to know about a schema: its versions, newest tables and auto-increment ones. */
export interface SchemaPlan {
  versions: readonly SchemaVersion[];
  latest: number;
  /** Table name → Dexie spec, as the newest version has them. */
  tables: ReadonlyMap<string, string>;
  /** Tables whose primary key the engine assigns (`++id`): SQLite remembers the highest one handed out. */
  autoIncrement: ReadonlySet<string>;
}

const isAutoIncrement = (spec: string): boolean => spec.split(',')[0]?.trim().startsWith('++') ?? false;

export function planOf(versions: readonly SchemaVersion[]): SchemaPlan {
  const tables = tablesOf(versions);
  return {
    versions,
    latest: latestVersion(versions),
    tables,
    autoIncrement: new Set([...tables].filter(([, spec]) => isAutoIncrement(spec)).map(([name]) => name)),
  };
}

/** Step "create": a new database gets the newest tables, its station id and version in one transaction. */
export function createOnDisk(sqlite: DatabaseSync, plan: SchemaPlan): void {
  sqlite.exec('BEGIN IMMEDIATE');
  ensureTables(sqlite, plan);
  sqlite.exec(`PRAGMA application_id = ${STATION_APPLICATION_ID}; PRAGMA user_version = ${plan.latest}`);
  sqlite.exec('COMMIT');
}

/** Creates the tables (and list indexes) of the newest version that do not exist yet. */
export function ensureTables(sqlite: DatabaseSync, plan: SchemaPlan): void {
  sqlite.exec(INTERNAL_TABLES_SQL);
  for (const [name, spec] of plan.tables) sqlite.exec(createTableSql(name, isAutoIncrement(spec)));
}

/**
 * Inside the commit that upgrades (or right after an upgrade that changed no record): the new
 * version on disk, and the tables no version keeps any more are dropped.
 */
export function markUpgraded(sqlite: DatabaseSync, plan: SchemaPlan): void {
  const existing = sqlite
    .prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'`)
    .all() as Array<{ name: string }>;
  for (const { name } of existing) if (!plan.tables.has(name)) sqlite.exec(`DROP TABLE ${quoteIdent(name)}`);
  sqlite.exec(`PRAGMA user_version = ${plan.latest}`);
}

export function versionOnDisk(sqlite: DatabaseSync): number {
  return Number((sqlite.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
}
