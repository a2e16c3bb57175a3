/**
 * The SQLite copy: one table per Dexie table, `k` (the primary key) and `v` (the record as JSON).
 * Tables that are listed by the API carry virtual generated columns over the JSON and indexes for
 * every filter and sort of the API (docs/api-reference.md, Lists), so a list page and its count are indexed queries.
 * Sorts break ties by id (`k`).
 */

import type { DatabaseSync } from 'node:sqlite';

interface TableLayout {
  columns: ReadonlyArray<readonly [name: string, expression: string]>;
  indexes: ReadonlyArray<readonly [name: string, columns: string]>;
  /** Indexes of earlier versions that the ones above replace: dropped at open. */
  retired?: readonly string[];
}

const field = (name: string): string => `json_extract(v, '$.${name}')`;

const LAYOUTS: Record<string, TableLayout> = {
  return_packages: {
    columns: [
      ['account_id', field('account_id')],
      ['status', field('status')],
      ['return_id', field('return_id')],
      ['tracking_lc', `lower(${field('tracking_number')})`],
      ['carrier_id', field('carrier_id')],
      ['location_id', field('location_id')],
      ['created_at', field('created_at')],
      ['updated_at', field('updated_at')],
      ['processed_at', field('processed_at')],
    ],
    indexes: [
      // One covering index per sort: `k` right after the sort column keeps the id tie-break in index
      // order, and the filter columns behind it are checked without reading (and parsing) the record.
      ['rp_account_created', 'account_id, created_at, k, status, updated_at, carrier_id, location_id, return_id'],
      ['rp_account_updated', 'account_id, updated_at, k, status, created_at, carrier_id, location_id, return_id'],
      ['rp_account_id', 'account_id, k, status, created_at, updated_at, carrier_id, location_id, return_id'],
      // Selective filters and counts.
      ['rp_account_status_created', 'account_id, status, created_at, k'],
      ['rp_account_status_updated', 'account_id, status, updated_at, k'],
      // Every account's lists ("All accounts"): the same orders without the account, each with the
      // tracking number, so a broad search checks its rows from the index alone.
      ['rp_created', 'created_at, k, status, tracking_lc'],
      ['rp_updated', 'updated_at, k, status, tracking_lc'],
      ['rp_status_created_tracking', 'status, created_at, k, tracking_lc'],
      ['rp_status_updated_tracking', 'status, updated_at, k, tracking_lc'],
      ['rp_status_id', 'status, k, account_id'],
      ['rp_account_return', 'account_id, return_id'],
      ['rp_account_carrier', 'account_id, carrier_id'],
      ['rp_account_location', 'account_id, location_id'],
      ['rp_tracking', 'tracking_lc'],
      ['rp_status_processed', 'status, processed_at'],
    ],
    // Each status's order now carries the tracking number, which a broad search checks from the index
    // (≈ 0.5 µs a row, against ≈ 7 µs reading the row's JSON).
    retired: ['rp_status_updated', 'rp_status_created'],
  },
  returns: {
    columns: [
      ['account_id', field('account_id')],
      ['status', field('status')],
      ['email_lc', `lower(${field('email')})`],
      ['created_at', field('created_at')],
      ['updated_at', field('updated_at')],
    ],
    indexes: [
      ['ret_account_created', 'account_id, created_at, k, status, updated_at, email_lc'],
      ['ret_account_status_created', 'account_id, status, created_at, k'],
      // Every account's list, newest first.
      ['ret_created', 'created_at, k, status, email_lc'],
      ['ret_status_created_email', 'status, created_at, k, email_lc'],
      ['ret_account_email', 'account_id, email_lc'],
      ['ret_account_updated', 'account_id, updated_at'],
      ['ret_email', 'email_lc'],
    ],
    retired: ['ret_status_created'],
  },
};

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** DDL for one store table; `integerKey` for `++id` tables (rowid alias: fastest, ordered). */
export function createTableSql(table: string, integerKey: boolean): string {
  const layout = LAYOUTS[table];
  const columns = [integerKey ? 'k INTEGER PRIMARY KEY' : 'k PRIMARY KEY', 'v TEXT NOT NULL'];
  for (const [name, expression] of layout?.columns ?? []) columns.push(`${name} GENERATED ALWAYS AS (${expression}) VIRTUAL`);
  return [`CREATE TABLE IF NOT EXISTS ${quoteIdent(table)} (${columns.join(', ')})`, ...listIndexesSql(table)].join(';\n');
}

const indexSql = (table: string, [name, columns]: readonly [string, string]): string =>
  `CREATE INDEX IF NOT EXISTS ${quoteIdent(name)} ON ${quoteIdent(table)} (${columns})`;

function listIndexesSql(table: string): string[] {
  return (LAYOUTS[table]?.indexes ?? []).map((index) => indexSql(table, index));
}

/**
 * Makes the list indexes a data directory of an earlier version lacks (its generated columns are
 * there already) and drops those they replace, in one transaction: the first open after an upgrade reads every row of the table
 * for each (docs/decisions/lists-from-sqlite.md, "Lists of every account"); a no-op afterwards.
 */
export function ensureListIndexes(sqlite: DatabaseSync): void {
  const has = sqlite.prepare(`SELECT 1 AS found FROM sqlite_schema WHERE name = ?`);
  const changes = Object.entries(LAYOUTS).flatMap(([table, layout]) =>
    has.get(table)
      ? [
          ...(layout.retired ?? []).filter((name) => has.get(name)).map((name) => `DROP INDEX ${quoteIdent(name)}`),
          ...layout.indexes.filter(([name]) => !has.get(name)).map((index) => indexSql(table, index)),
        ]
      : [],
  );
  if (changes.length === 0) return;
  sqlite.exec('BEGIN IMMEDIATE');
  try {
    for (const statement of changes) sqlite.exec(statement);
    sqlite.exec('COMMIT');
  } catch (error) {
    sqlite.exec('ROLLBACK');
    throw error;
  }
}

/** Bookkeeping tables that are not Dexie tables. */
export const INTERNAL_TABLES_SQL = `
CREATE TABLE IF NOT EXISTS _sequences (name TEXT PRIMARY KEY, last INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS _store_tables (name TEXT PRIMARY KEY, spec TEXT NOT NULL);
`;
