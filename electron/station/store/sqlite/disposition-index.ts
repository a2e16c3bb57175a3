import type { DatabaseSync } from 'node:sqlite';

/*
 * Lists filtered by disposition: packages with a line item of a disposition, returns with
 * such a package. An index on the line items' JSON (disposition, package) answers it without a
 * column or a trigger: SQLite keeps an expression index itself, and one created on a data directory
 * of an earlier version is filled from its rows at once. Its name starts with `_` like the store's
 * other additions (sku-index.ts).
 */

const DISPOSITION = `json_extract(v, '$.disposition')`;
const PACKAGE = `json_extract(v, '$.return_package_id')`;

export function ensureDispositionIndex(sqlite: DatabaseSync): void {
  const has = sqlite.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'package_line_items'`).get() !== undefined;
  if (has) sqlite.exec(`CREATE INDEX IF NOT EXISTS _pli_disposition ON package_line_items (${DISPOSITION}, ${PACKAGE})`);
}

/** The condition on `return_packages` for packages with a line item of any of `count` dispositions (the parameters). */
export function packageDispositionCondition(count: number): string {
  return `k IN (SELECT ${PACKAGE} FROM package_line_items WHERE ${DISPOSITION} IN (${Array.from({ length: count }, () => '?').join(', ')}))`;
}

/** The condition on `returns` for returns with such a package. */
export function returnDispositionCondition(count: number): string {
  return `k IN (SELECT return_id FROM return_packages WHERE ${packageDispositionCondition(count)})`;
}
