import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { createListQueries, type ListQueries } from '../../electron/station/store/list-queries.ts';
import { createTableSql } from '../../electron/station/store/sqlite/layout.ts';
import { ensureStatusCounts } from '../../electron/station/store/sqlite/status-counts.ts';
import { ensureTextSearchIndex } from '../../electron/station/store/sqlite/text-search-index.ts';

/*
 * The lists of every account (no `account_id`) read their pages in their own order from an index,
 * never by sorting every match: each statement that reads rows in a list's order is checked with
 * EXPLAIN QUERY PLAN, for every sort, plain, with statuses (one, several) and with a broad text.
 * SQLite's planner has no statistics here (no ANALYZE), so its choices do not depend on the rows;
 * the rows make the texts broad (list-queries.ts, COUNT_BUDGET) as at 1,000,000.
 */

const ROWS = 3_000;
let db: DatabaseSync;
/** Every statement the list queries ran, with its parameters. */
const ran: Array<{ sql: string; params: SQLInputValue[] }> = [];

beforeAll(() => {
  db = new DatabaseSync(':memory:');
  db.exec(createTableSql('return_packages', true));
  db.exec(createTableSql('returns', true));
  ensureTextSearchIndex(db);
  ensureStatusCounts(db);
  const addPackage = db.prepare('INSERT INTO return_packages (k, v) VALUES (?, ?)');
  const addReturn = db.prepare('INSERT INTO returns (k, v) VALUES (?, ?)');
  db.exec('BEGIN');
  for (let id = 1; id <= ROWS; id++) {
    const at = new Date(Date.parse('2026-01-01T00:00:00Z') + ((id * 7919) % ROWS) * 1000).toISOString();
    const account_id = 1 + (id % 4);
    addPackage.run(
      id,
      JSON.stringify({
        id,
        account_id,
        status: id % 50 ? 'received' : 'in_transit',
        tracking_number: `1Z${id.toString(36).padStart(10, '0')}`,
        created_at: at,
        updated_at: at,
      }),
    );
    addReturn.run(
      id,
      JSON.stringify({
        id,
        account_id,
        status: id % 50 ? 'received' : 'awaiting',
        email: `customer.${id}@example.com`,
        sku_keys: [`sw-${id}`],
        created_at: at,
        updated_at: at,
      }),
    );
  }
  db.exec('COMMIT');
});

/** The list queries over `db`, each statement they run recorded (what EXPLAIN QUERY PLAN is then asked about). */
function recordingQueries() {
  const recording = new Proxy(db, {
    get(target, name) {
      if (name !== 'prepare') return Reflect.get(target, name, target) as unknown;
      return (sql: string) => {
        const statement: StatementSync = target.prepare(sql);
        const params = (values: SQLInputValue[]) => {
          ran.push({ sql, params: values });
          return values;
        };
        return { all: (...values: SQLInputValue[]) => statement.all(...params(values)), get: (...values: SQLInputValue[]) => statement.get(...params(values)) };
      };
    },
  });
  return createListQueries(recording);
}

/** The plan's lines of each statement that read rows in the list's order (those with ORDER BY). */
function orderedReads(): Array<{ sql: string; plan: string[] }> {
  return ran
    .filter(({ sql }) => sql.includes('ORDER BY'))
    .map(({ sql, params }) => ({ sql, plan: (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((row) => row.detail) }));
}

type Case = { [K in keyof ListQueries]: { table: K; query: ListQueries[K]; index: RegExp } }[keyof ListQueries];

const PACKAGE_SORTS = [
  ['-created_at', /rp_created|rp_status_created_tracking/],
  ['created_at', /rp_created|rp_status_created_tracking/],
  ['-updated_at', /rp_updated|rp_status_updated_tracking/],
  ['updated_at', /rp_updated|rp_status_updated_tracking/],
  ['-id', /rp_status_id|^SCAN return_packages$/],
  ['id', /rp_status_id|^SCAN return_packages$/],
] as const;

const CASES: Case[] = [
  ...PACKAGE_SORTS.flatMap(([sort, index]) =>
    [
      {},
      { status: ['received' as const] },
      { status: ['in_transit' as const, 'received' as const] },
      { tracking_number_contains: '1z0' },
      { tracking_number_contains: '1z0', status: ['in_transit' as const, 'received' as const] },
    ].map((filters): Case => ({ table: 'return_packages', query: { ...filters, sort, per_page: 25, page: 3 }, index })),
  ),
  ...[
    {},
    { status: ['received' as const] },
    { status: ['awaiting' as const, 'received' as const] },
    { email_contains: 'example' },
    { sku_contains: 'sw-', status: ['awaiting' as const, 'received' as const] },
  ].map((filters): Case => ({ table: 'returns', query: { ...filters, per_page: 25, page: 3 }, index: /ret_created|ret_status_created_email/ })),
];

describe('the lists of every account read in their order from an index', () => {
  it.each(CASES.map((c) => [`${c.table} ${JSON.stringify(c.query)}`, c] as const))('%s', (_, { table, query, index }) => {
    ran.length = 0;
    const listed = recordingQueries().listIds(table, query as never);
    expect(listed.ids).toHaveLength(25);
    const reads = orderedReads();
    expect(reads.length).toBeGreaterThan(0);
    for (const { sql, plan } of reads) {
      // No sorter: the rows come in the order, and the walk stops at the page.
      expect(plan.join('\n'), sql).not.toMatch(/TEMP B-TREE/);
      // Every arm of the walk reads an index of the order, or the table in id order ("SCAN returns"
      // alone is also how a subquery named after its table is read back).
      const bare = plan.filter((line) => /^SCAN (return_packages|returns)$/.test(line));
      const walks = plan.filter((line) => /^(SCAN|SEARCH) (return_packages|returns) USING/.test(line));
      for (const line of walks.length ? walks : bare) expect(line, sql).toMatch(index);
    }
  });

  it('a selective text is read from its match set and sorted: a few rows', () => {
    ran.length = 0;
    const text = '0002';
    const matches = Array.from({ length: ROWS }, (_, i) => `1z${(i + 1).toString(36).padStart(10, '0')}`).filter((tracking) => tracking.includes(text)).length;
    expect(matches).toBeGreaterThan(25);
    expect(matches).toBeLessThan(1_000);
    const listed = recordingQueries().listIds('return_packages', { tracking_number_contains: text, sort: '-created_at', per_page: 25 });
    expect(listed.total).toBe(matches);
    expect(listed.lowerBound).toBeUndefined();
    const page = orderedReads().find(({ sql }) => sql.includes('LIMIT ? OFFSET ?'));
    expect(page?.plan.join('\n')).toMatch(/SEARCH return_packages USING INTEGER PRIMARY KEY \(rowid=\?\)/);
  });
});
