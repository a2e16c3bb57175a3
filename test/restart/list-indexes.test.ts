import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, expect, it } from 'vitest';
import { STORE_FILE } from '../../electron/station/store/index.ts';
import { startStation } from '../support/station-process.ts';
import { call, createPackage, createReturn } from '../api/support.ts';
import { cli } from './station-state.ts';

/*
 * The lists of every account read in their order from indexes without the account
 * (store/sqlite/layout.ts). A data directory written before them (the indexes dropped, as an earlier
 * version left it) gets them when the real `returns-station serve` next opens it, keeps them, and
 * its lists of every account answer as a plain sort of the same records, before and after a write.
 */

/** The indexes an earlier version did not have. */
const NEW_INDEXES = [
  'rp_created',
  'rp_updated',
  'rp_status_created_tracking',
  'rp_status_updated_tracking',
  'rp_status_id',
  'ret_created',
  'ret_status_created_email',
];
/** What an earlier version had in their place. */
const OLD_INDEXES: Array<[name: string, sql: string]> = [
  ['rp_status_updated', 'CREATE INDEX rp_status_updated ON return_packages (status, updated_at)'],
  ['ret_status_created', 'CREATE INDEX ret_status_created ON returns (status, created_at, k)'],
];

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Made {
  id: number;
  status: string;
  tracking_number: string;
  created_at: string;
  updated_at: string;
}

const indexesOf = (dir: string): string[] => {
  const sqlite = new DatabaseSync(join(dir, STORE_FILE), { readOnly: true });
  try {
    return (sqlite.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index'`).all() as Array<{ name: string }>).map((row) => row.name);
  } finally {
    sqlite.close();
  }
};

it('a data directory written before the indexes of every account gets them at its next start, and its lists of every account page right', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'list-indexes-'));
  dirs.push(dir);
  // An account token makes its account (one: each run of the command line is a start of node, ≈ 6 s
  // on a loaded machine; two accounts' rows in one list are list-contains.test.ts's); the station
  // token lists every account.
  cli(dir, 'token', 'create', '--account', '1001', '--name', 'account 1001');
  const token = cli(dir, 'token', 'create', '--station', '--name', 'list indexes test').trim();
  const made: Made[] = [];
  const returnIds: number[] = [];

  /** Every account's package list in each sort and with statuses, page by page, against a plain sort of `made`. */
  const check = async (origin: string) => {
    const byTime = (key: 'created_at' | 'updated_at') => (a: Made, z: Made) => a[key].localeCompare(z[key]) || a.id - z.id;
    const sorts: Record<string, (a: Made, z: Made) => number> = {
      created_at: byTime('created_at'),
      '-created_at': (a, z) => byTime('created_at')(z, a),
      '-updated_at': (a, z) => byTime('updated_at')(z, a),
      id: (a, z) => a.id - z.id,
      '-id': (a, z) => z.id - a.id,
    };
    for (const [sort, compare] of Object.entries(sorts)) {
      for (const statuses of [[], ['in_transit', 'delivered']]) {
        for (const text of ['', 'LIX']) {
          const expected = made
            .filter((p) => (statuses.length === 0 || statuses.includes(p.status)) && p.tracking_number.includes(text))
            .sort(compare)
            .map((p) => p.id);
          for (const page of [1, 3]) {
            const query = `sort=${sort}&per_page=4&page=${page}${statuses.length ? `&status=${statuses.join(',')}` : ''}${text ? `&tracking_number_contains=${text}` : ''}`;
            const response = await call(origin, 'GET', `/api/v1/station/return_packages?${query}`, { token });
            expect(response.status, response.text).toBe(200);
            const got = response.json as { data: Array<{ id: number }>; meta: { total_count: number } };
            expect(
              got.data.map((p) => p.id),
              query,
            ).toEqual(expected.slice((page - 1) * 4, page * 4));
            expect(got.meta.total_count, query).toBe(expected.length);
          }
        }
      }
    }
    const returns = await call(origin, 'GET', '/returns?per_page=250', { token });
    expect(returns.status, returns.text).toBe(200);
    expect((returns.json as { data: Array<{ id: number }> }).data.map((r) => r.id)).toEqual([...returnIds].reverse());
  };

  let station = await startStation({ dataDir: dir });
  for (const r of [0, 1]) {
    const ret = await createReturn(station.origin, token, { account_id: 1001, email: `lix-${r}@example.com` });
    returnIds.push(ret.id);
    for (let n = 0; n < 7; n++) {
      const status = ['in_transit', 'delivered', 'pending'][n % 3] ?? 'pending';
      // Every other package is found by the text "LIX".
      const tracking_number = `${n % 2 ? 'LIX' : 'OTH'}${r}N${n}`;
      const pkg = await createPackage(station.origin, token, 1001, ret.id, { status: status as 'pending', tracking_number });
      made.push({ id: pkg.id, status, tracking_number, created_at: pkg.created_at, updated_at: pkg.updated_at });
    }
  }
  expect(await station.stop()).toBe(0);

  // As an earlier version left it: no indexes of every account's lists.
  expect(indexesOf(dir)).toEqual(expect.arrayContaining(NEW_INDEXES));
  const sqlite = new DatabaseSync(join(dir, STORE_FILE));
  for (const name of NEW_INDEXES) sqlite.exec(`DROP INDEX ${name}`);
  for (const [, sql] of OLD_INDEXES) sqlite.exec(sql);
  sqlite.close();
  expect(indexesOf(dir).filter((name) => NEW_INDEXES.includes(name))).toEqual([]);

  station = await startStation({ dataDir: dir });
  try {
    await check(station.origin);
    // A change of status moves a package between the lists of a status.
    const first = made[0];
    if (!first) throw new Error('no package made');
    const changed = await call(station.origin, 'PATCH', `/api/v1/accounts/1001/return_packages/${first.id}`, { token, body: { status: 'delivered' } });
    expect(changed.status, changed.text).toBe(200);
    const after = changed.json as { status: string; updated_at: string };
    Object.assign(first, { status: after.status, updated_at: after.updated_at });
    await check(station.origin);
  } finally {
    expect(await station.stop()).toBe(0);
  }
  // Made once, kept: the next start finds them; the ones they replace are gone.
  expect(indexesOf(dir)).toEqual(expect.arrayContaining(NEW_INDEXES));
  expect(indexesOf(dir).filter((name) => OLD_INDEXES.some(([old]) => old === name))).toEqual([]);
}, 90_000); // two starts of the real station and two runs of its command line, on a shared machine (≈ 30 s at load 14)
