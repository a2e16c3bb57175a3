import type { DatabaseSync } from 'node:sqlite';

/*
 * SKU prefix search ("WBN" finds the returns with a line WBN-01…). A return keeps its lines' SKUs as
 * an array (`sku_keys`, trimmed and lower-cased), which no column index can cover, so `_return_skus`
 * holds one row per (SKU, return). Triggers on `returns` keep it: the write-through's upsert fires the
 * insert or update trigger, its deletes the delete trigger, so no code path can forget it. The
 * leading `_` keeps it out of the tables an upgrade compares with the schema (open/create.ts).
 */

const SKU_INDEX_SQL = `
CREATE TABLE IF NOT EXISTS _return_skus (sku TEXT NOT NULL, k INTEGER NOT NULL, PRIMARY KEY (sku, k)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS _return_skus_k ON _return_skus (k);
CREATE TRIGGER IF NOT EXISTS _returns_skus_insert AFTER INSERT ON returns BEGIN
  INSERT OR IGNORE INTO _return_skus (sku, k) SELECT value, NEW.k FROM json_each(NEW.v, '$.sku_keys');
END;
CREATE TRIGGER IF NOT EXISTS _returns_skus_update AFTER UPDATE OF v ON returns BEGIN
  DELETE FROM _return_skus WHERE k = OLD.k;
  INSERT OR IGNORE INTO _return_skus (sku, k) SELECT value, NEW.k FROM json_each(NEW.v, '$.sku_keys');
END;
CREATE TRIGGER IF NOT EXISTS _returns_skus_delete AFTER DELETE ON returns BEGIN
  DELETE FROM _return_skus WHERE k = OLD.k;
END;
`;

/**
 * Creates the SKU index if this data directory does not have it yet, filled from the returns it
 * already holds (once: a directory written by an earlier version), in one transaction.
 */
export function ensureSkuIndex(sqlite: DatabaseSync): void {
  const has = (name: string) => sqlite.prepare(`SELECT 1 FROM sqlite_schema WHERE name = ?`).get(name) !== undefined;
  if (!has('returns') || has('_returns_skus_delete')) return;
  sqlite.exec('BEGIN IMMEDIATE');
  try {
    sqlite.exec(SKU_INDEX_SQL);
    sqlite.exec(`INSERT OR IGNORE INTO _return_skus (sku, k) SELECT j.value, r.k FROM returns r, json_each(r.v, '$.sku_keys') j`);
    sqlite.exec('COMMIT');
  } catch (error) {
    sqlite.exec('ROLLBACK');
    throw error;
  }
}

/** The condition on `returns` for SKUs starting with `prefix` (lower-cased by the caller): an index range. */
export const SKU_PREFIX_CONDITION = `k IN (SELECT k FROM _return_skus WHERE sku BETWEEN ? AND ? || char(1114111))`;
