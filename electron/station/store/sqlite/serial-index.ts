import type { DatabaseSync } from 'node:sqlite';
import { ensureSideIndex } from './side-index.ts';

/*
 * Serial numbers (a serial recorded on another unit is flagged: docs/decisions/serials.md). A line
 * item carries its serial in a `serial` field and in its `serial:<value>` tag (an item that came
 * from another station or the hub has the tag alone); the side index `_line_item_serials`
 * (side-index.ts) holds one row per (serial upper-cased, line item), as serialKey compares them.
 */

/** The serials of one line item's JSON `v`, as a sub-select of one column `u`. */
function serialsOf(v: string): string {
  return `SELECT upper(substr(value, 8)) AS u FROM json_each(${v}, '$.tags')
      WHERE typeof(value) = 'text' AND substr(value, 1, 7) = 'serial:' AND length(value) > 7
    UNION SELECT upper(trim(json_extract(${v}, '$.serial'))) WHERE json_type(${v}, '$.serial') = 'text'`;
}

/** Creates the serial index if this data directory does not have it yet (filled from its line items). */
export function ensureSerialIndex(sqlite: DatabaseSync): void {
  ensureSideIndex(sqlite, {
    of: 'package_line_items',
    table: '_line_item_serials',
    column: 'serial',
    triggers: '_line_item_serials',
    valuesOf: serialsOf,
    backfill: [
      `INSERT OR IGNORE INTO _line_item_serials (serial, k)
        SELECT upper(substr(j.value, 8)), p.k FROM package_line_items p, json_each(p.v, '$.tags') j
          WHERE typeof(j.value) = 'text' AND substr(j.value, 1, 7) = 'serial:' AND length(j.value) > 7`,
      `INSERT OR IGNORE INTO _line_item_serials (serial, k)
        SELECT upper(trim(json_extract(v, '$.serial'))), k FROM package_line_items WHERE json_type(v, '$.serial') = 'text'`,
    ],
  });
}

/** The line items (ids, ascending) whose serial is `serial`, compared without case; at most `limit`. */
export function lineItemIdsOfSerial(sqlite: DatabaseSync): (serial: string, limit: number) => number[] {
  return (serial, limit) =>
    (
      sqlite.prepare('SELECT k FROM _line_item_serials WHERE serial = ? ORDER BY k LIMIT ?').all(serial.trim().toUpperCase(), limit) as Array<{ k: number }>
    ).map((row) => Number(row.k));
}
