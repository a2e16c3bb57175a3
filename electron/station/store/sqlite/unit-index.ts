import type { DatabaseSync } from 'node:sqlite';

/*
 * Unit ids (issue 26: a unit label scans back to its package and item). A line item names its unit
 * in a `unit:<id>` tag, and once dispositions are kept on line items also in a `unit_id` field;
 * neither an array element nor a field added later has a column index, so `_line_item_units` holds
 * one row per (unit id lower-cased, line item). Triggers on `package_line_items` keep it, as
 * `_return_skus` is kept (sku-index.ts): every write-through fires them, so no path can forget it.
 * The leading `_` keeps it out of the tables an upgrade compares with the schema (open/create.ts).
 */

/** The unit ids of one line item's JSON `v`, as a sub-select of one column `u`. */
function unitsOf(v: string): string {
  return `SELECT lower(substr(value, 6)) AS u FROM json_each(${v}, '$.tags')
      WHERE typeof(value) = 'text' AND lower(substr(value, 1, 5)) = 'unit:' AND length(value) > 5
    UNION SELECT lower(json_extract(${v}, '$.unit_id')) WHERE json_type(${v}, '$.unit_id') = 'text'`;
}

const UNIT_INDEX_SQL = `
CREATE TABLE IF NOT EXISTS _line_item_units (unit TEXT NOT NULL, k INTEGER NOT NULL, PRIMARY KEY (unit, k)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS _line_item_units_k ON _line_item_units (k);
CREATE TRIGGER IF NOT EXISTS _line_item_units_insert AFTER INSERT ON package_line_items BEGIN
  INSERT OR IGNORE INTO _line_item_units (unit, k) SELECT u, NEW.k FROM (${unitsOf('NEW.v')});
END;
CREATE TRIGGER IF NOT EXISTS _line_item_units_update AFTER UPDATE OF v ON package_line_items BEGIN
  DELETE FROM _line_item_units WHERE k = OLD.k;
  INSERT OR IGNORE INTO _line_item_units (unit, k) SELECT u, NEW.k FROM (${unitsOf('NEW.v')});
END;
CREATE TRIGGER IF NOT EXISTS _line_item_units_delete AFTER DELETE ON package_line_items BEGIN
  DELETE FROM _line_item_units WHERE k = OLD.k;
END;
`;

/**
 * Creates the unit index if this data directory does not have it yet, filled from the line items
 * it already holds (once: a directory written by an earlier version), in one transaction.
 */
export function ensureUnitIndex(sqlite: DatabaseSync): void {
  const has = (name: string) => sqlite.prepare(`SELECT 1 FROM sqlite_schema WHERE name = ?`).get(name) !== undefined;
  if (!has('package_line_items') || has('_line_item_units_delete')) return;
  sqlite.exec('BEGIN IMMEDIATE');
  try {
    sqlite.exec(UNIT_INDEX_SQL);
    sqlite.exec(`INSERT OR IGNORE INTO _line_item_units (unit, k)
      SELECT lower(substr(j.value, 6)), p.k FROM package_line_items p, json_each(p.v, '$.tags') j
        WHERE typeof(j.value) = 'text' AND lower(substr(j.value, 1, 5)) = 'unit:' AND length(j.value) > 5`);
    sqlite.exec(`INSERT OR IGNORE INTO _line_item_units (unit, k)
      SELECT lower(json_extract(v, '$.unit_id')), k FROM package_line_items WHERE json_type(v, '$.unit_id') = 'text'`);
    sqlite.exec('COMMIT');
  } catch (error) {
    sqlite.exec('ROLLBACK');
    throw error;
  }
}

/** The line items (ids, ascending) whose unit id is `unitId`, compared without case; at most `limit`. */
export function lineItemIdsOfUnit(sqlite: DatabaseSync): (unitId: string, limit: number) => number[] {
  return (unitId, limit) =>
    (sqlite.prepare('SELECT k FROM _line_item_units WHERE unit = ? ORDER BY k LIMIT ?').all(unitId.toLowerCase(), limit) as Array<{ k: number }>).map((row) => Number(row.k));
}
