/**
 * The SQLite copy: one table per Dexie table, `k` (the primary key) and `v` (the record as JSON).
 * Tables that are listed by the API carry virtual generated columns over the JSON and indexes for
 * every filter and sort of the API (docs/api-reference.md, Lists), so a list page and its count are indexed queries.
 * Sorts break ties by id (`k`).
 */

interface TableLayout {
  columns: ReadonlyArray<readonly [name: string, expression: string]>;
  indexes: ReadonlyArray<readonly [name: string, columns: string]>;
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
      ['rp_account_return', 'account_id, return_id'],
      ['rp_account_carrier', 'account_id, carrier_id'],
      ['rp_account_location', 'account_id, location_id'],
      ['rp_tracking', 'tracking_lc'],
      ['rp_status_processed', 'status, processed_at'],
      ['rp_status_updated', 'status, updated_at'],
    ],
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
      ['ret_account_email', 'account_id, email_lc'],
      ['ret_account_updated', 'account_id, updated_at'],
      ['ret_email', 'email_lc'],
    ],
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
  const statements = [`CREATE TABLE IF NOT EXISTS ${quoteIdent(table)} (${columns.join(', ')})`];
  for (const [name, indexColumns] of layout?.indexes ?? []) {
    statements.push(`CREATE INDEX IF NOT EXISTS ${quoteIdent(name)} ON ${quoteIdent(table)} (${indexColumns})`);
  }
  return statements.join(';\n');
}

/** Bookkeeping tables that are not Dexie tables. */
export const INTERNAL_TABLES_SQL = `
CREATE TABLE IF NOT EXISTS _sequences (name TEXT PRIMARY KEY, last INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS _store_tables (name TEXT PRIMARY KEY, spec TEXT NOT NULL);
`;
