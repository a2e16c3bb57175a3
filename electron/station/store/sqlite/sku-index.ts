import type { DatabaseSync } from 'node:sqlite';
import { ensureSideIndex } from './side-index.ts';

/*
 * SKU prefix search ("WBN" finds the returns with a line WBN-01…). A return keeps its lines' SKUs as
 * an array (`sku_keys`, trimmed and lower-cased), which no column index can cover, so the side index
 * `_return_skus` (side-index.ts) holds one row per (SKU, return).
 */

/** Creates the SKU index if this data directory does not have it yet (filled from its returns). */
export function ensureSkuIndex(sqlite: DatabaseSync): void {
  ensureSideIndex(sqlite, {
    of: 'returns',
    table: '_return_skus',
    column: 'sku',
    triggers: '_returns_skus',
    valuesOf: (v) => `SELECT value AS u FROM json_each(${v}, '$.sku_keys')`,
    backfill: [`INSERT OR IGNORE INTO _return_skus (sku, k) SELECT j.value, r.k FROM returns r, json_each(r.v, '$.sku_keys') j`],
  });
}

/** The condition on `returns` for SKUs starting with `prefix` (lower-cased by the caller): an index range. */
export const SKU_PREFIX_CONDITION = `k IN (SELECT k FROM _return_skus WHERE sku BETWEEN ? AND ? || char(1114111))`;
