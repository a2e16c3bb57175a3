import type { DatabaseSync } from 'node:sqlite';

/*
 * A side index: values inside a row's JSON that no column index can cover (an array's elements, a
 * field added in a later version), one row per (value, row key) in a table of their own. Triggers on
 * the indexed table keep it: every write-through fires them, so no code path can forget it. The
 * side table's name starts with `_`, which keeps it out of the tables an upgrade compares with the
 * schema (open/create.ts). Used by sku-index.ts and unit-index.ts; text-search-index.ts makes its
 * full-text tables with the same once-only builder (ensureIndexOnce).
 */

export interface SideIndex {
  /** The indexed table (rows of key `k` and JSON `v`). */
  of: string;
  /** The side table, e.g. `_return_skus`, and its value column. */
  table: string;
  column: string;
  /** The triggers' common name (`<name>_insert`, `_update`, `_delete`; present on data directories already). */
  triggers: string;
  /** A select of one column `u`, the values to index in the JSON `v` (an SQL expression). */
  valuesOf(v: string): string;
  /** The statements that fill it from the rows a data directory of an earlier version already holds. */
  backfill: readonly string[];
}

function sideIndexSql(x: SideIndex): string {
  const add = `INSERT OR IGNORE INTO ${x.table} (${x.column}, k) SELECT u, NEW.k FROM (${x.valuesOf('NEW.v')});`;
  return `
CREATE TABLE IF NOT EXISTS ${x.table} (${x.column} TEXT NOT NULL, k INTEGER NOT NULL, PRIMARY KEY (${x.column}, k)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ${x.table}_k ON ${x.table} (k);
CREATE TRIGGER IF NOT EXISTS ${x.triggers}_insert AFTER INSERT ON ${x.of} BEGIN
  ${add}
END;
CREATE TRIGGER IF NOT EXISTS ${x.triggers}_update AFTER UPDATE OF v ON ${x.of} BEGIN
  DELETE FROM ${x.table} WHERE k = OLD.k;
  ${add}
END;
CREATE TRIGGER IF NOT EXISTS ${x.triggers}_delete AFTER DELETE ON ${x.of} BEGIN
  DELETE FROM ${x.table} WHERE k = OLD.k;
END;
`;
}

/**
 * Creates the side index if this data directory does not have it yet, filled from the rows it
 * already holds (once: a directory written by an earlier version), in one transaction.
 */
export function ensureSideIndex(sqlite: DatabaseSync, index: SideIndex): void {
  ensureIndexOnce(sqlite, { of: index.of, triggers: index.triggers, sql: sideIndexSql(index), backfill: index.backfill });
}

/** What any index kept by triggers needs to be made once: its DDL and triggers, and its fill. */
export interface TriggerIndex {
  of: string;
  /** The triggers' common name; `<name>_delete` existing means the index is made. */
  triggers: string;
  sql: string;
  backfill: readonly string[];
}

/** Runs an index's DDL and fill in one transaction, unless the data directory has it already. */
export function ensureIndexOnce(sqlite: DatabaseSync, index: TriggerIndex): void {
  const has = (name: string) => sqlite.prepare(`SELECT 1 FROM sqlite_schema WHERE name = ?`).get(name) !== undefined;
  if (!has(index.of) || has(`${index.triggers}_delete`)) return;
  sqlite.exec('BEGIN IMMEDIATE');
  try {
    sqlite.exec(index.sql);
    for (const statement of index.backfill) sqlite.exec(statement);
    sqlite.exec('COMMIT');
  } catch (error) {
    sqlite.exec('ROLLBACK');
    throw error;
  }
}
