import type { DatabaseSync } from 'node:sqlite';
import { ensureSideIndex } from './side-index.ts';

/*
 * Unit ids (a unit label scans back to its package and item). A line item names its unit
 * in a `unit:<id>` tag, and once dispositions are kept on line items also in a `unit_id` field;
 * neither an array element nor a field added later has a column index, so the side index
 * `_line_item_units` (side-index.ts) holds one row per (unit id lower-cased, line item).
 */

/** The unit ids of one line item's JSON `v`, as a sub-select of one column `u`. */
function unitsOf(v: string): string {
  return `SELECT lower(substr(value, 6)) AS u FROM json_each(${v}, '$.tags')
      WHERE typeof(value) = 'text' AND lower(substr(value, 1, 5)) = 'unit:' AND length(value) > 5
    UNION SELECT lower(json_extract(${v}, '$.unit_id')) WHERE json_type(${v}, '$.unit_id') = 'text'`;
}

/** Creates the unit index if this data directory does not have it yet (filled from its line items). */
export function ensureUnitIndex(sqlite: DatabaseSync): void {
  ensureSideIndex(sqlite, {
    of: 'package_line_items',
    table: '_line_item_units',
    column: 'unit',
    triggers: '_line_item_units',
    valuesOf: unitsOf,
    backfill: [
      `INSERT OR IGNORE INTO _line_item_units (unit, k)
        SELECT lower(substr(j.value, 6)), p.k FROM package_line_items p, json_each(p.v, '$.tags') j
          WHERE typeof(j.value) = 'text' AND lower(substr(j.value, 1, 5)) = 'unit:' AND length(j.value) > 5`,
      `INSERT OR IGNORE INTO _line_item_units (unit, k)
        SELECT lower(json_extract(v, '$.unit_id')), k FROM package_line_items WHERE json_type(v, '$.unit_id') = 'text'`,
    ],
  });
}

/** The line items (ids, ascending) whose unit id is `unitId`, compared without case; at most `limit`. */
export function lineItemIdsOfUnit(sqlite: DatabaseSync): (unitId: string, limit: number) => number[] {
  return (unitId, limit) =>
    (sqlite.prepare('SELECT k FROM _line_item_units WHERE unit = ? ORDER BY k LIMIT ?').all(unitId.toLowerCase(), limit) as Array<{ k: number }>).map((row) =>
      Number(row.k),
    );
}
