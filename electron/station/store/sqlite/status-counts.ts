import type { DatabaseSync, SQLInputValue } from 'node:sqlite';

/*
 * Counts of the listed tables by account and status, kept by triggers (docs/decisions/lists-from-sqlite.md,
 * counts): a list's count with no filter but those (a dock screen's tabs, an integration's
 * "received" list) is a sum of a few rows, where count(*) walks every match of an index — 250,000
 * entries, ≈ 20–30 ms, at a million packages. The write-through's upsert fires the insert or update
 * trigger and its deletes the delete trigger (as for the SKU index, sku-index.ts), in the same
 * transaction as the row, so no code path can leave a count behind. The columns have no type (no
 * affinity): a value is compared exactly as the generated column it counts. The leading `_` keeps
 * it out of the tables an upgrade compares with the schema (open/create.ts).
 */

/** The tables whose counts are kept (their generated `account_id` and `status` columns: layout.ts). */
const COUNTED = ['return_packages', 'returns'] as const;
type CountedTable = (typeof COUNTED)[number];

/** A record without an account or status (the station never writes one) is counted apart, under a value no filter asks for. */
const NONE = `'(none)'`;

/** The counts row of a trigger's NEW or OLD record of `table`. */
const rowOf = (record: 'NEW' | 'OLD', table: string) => `'${table}', coalesce(${record}.account_id, ${NONE}), coalesce(${record}.status, ${NONE})`;

const add = (record: 'NEW' | 'OLD', table: string, delta: 1 | -1) =>
  `INSERT INTO _status_counts (tbl, account_id, status, n) VALUES (${rowOf(record, table)}, ${delta}) ON CONFLICT (tbl, account_id, status) DO UPDATE SET n = n + ${delta};`;

const COUNTS_SQL = [
  `CREATE TABLE IF NOT EXISTS _status_counts (tbl TEXT NOT NULL, account_id NOT NULL, status NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (tbl, account_id, status)) WITHOUT ROWID;`,
  ...COUNTED.flatMap((table) => [
    `CREATE TRIGGER IF NOT EXISTS _${table}_count_insert AFTER INSERT ON ${table} BEGIN ${add('NEW', table, 1)} END;`,
    `CREATE TRIGGER IF NOT EXISTS _${table}_count_update AFTER UPDATE OF v ON ${table}
       WHEN OLD.account_id IS NOT NEW.account_id OR OLD.status IS NOT NEW.status BEGIN ${add('OLD', table, -1)} ${add('NEW', table, 1)} END;`,
    `CREATE TRIGGER IF NOT EXISTS _${table}_count_delete AFTER DELETE ON ${table} BEGIN ${add('OLD', table, -1)} END;`,
  ]),
].join('\n');

/**
 * Creates the counts and their triggers if this data directory does not have them yet, counted from
 * the records it already holds (once: a directory written by an earlier version), in one transaction.
 */
export function ensureStatusCounts(sqlite: DatabaseSync): void {
  const has = (name: string) => sqlite.prepare(`SELECT 1 FROM sqlite_schema WHERE name = ?`).get(name) !== undefined;
  if (!COUNTED.every(has) || COUNTED.every((table) => has(`_${table}_count_delete`))) return;
  sqlite.exec('BEGIN IMMEDIATE');
  try {
    sqlite.exec('DROP TABLE IF EXISTS _status_counts');
    for (const table of COUNTED) for (const kind of ['insert', 'update', 'delete']) sqlite.exec(`DROP TRIGGER IF EXISTS _${table}_count_${kind}`);
    sqlite.exec(COUNTS_SQL);
    for (const table of COUNTED) {
      sqlite.exec(`INSERT INTO _status_counts (tbl, account_id, status, n)
        SELECT '${table}', coalesce(account_id, ${NONE}), coalesce(status, ${NONE}), count(*) FROM ${table} GROUP BY 2, 3`);
    }
    sqlite.exec('COMMIT');
  } catch (error) {
    sqlite.exec('ROLLBACK');
    throw error;
  }
}

/**
 * The count of `table`'s records matching an account (or any) and any of some statuses (or any),
 * from the kept counts: a SQL statement and its parameters.
 */
export function statusCountQuery(
  table: CountedTable,
  accountId: number | undefined,
  statuses: readonly string[] | undefined,
): { sql: string; params: SQLInputValue[] } {
  const conditions = ['tbl = ?'];
  const params: SQLInputValue[] = [table];
  if (accountId !== undefined) {
    conditions.push('account_id = ?');
    params.push(accountId);
  }
  if (statuses !== undefined) {
    conditions.push(statuses.length ? `status IN (${statuses.map(() => '?').join(', ')})` : '0');
    params.push(...statuses);
  }
  return { sql: `SELECT coalesce(sum(n), 0) AS n FROM _status_counts WHERE ${conditions.join(' AND ')}`, params };
}

export function isCountedTable(table: string): table is CountedTable {
  return (COUNTED as readonly string[]).includes(table);
}
