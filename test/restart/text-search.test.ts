import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, expect, it } from 'vitest';
import { STORE_FILE } from '../../electron/station/store/index.ts';
import { startStation } from '../support/station-process.ts';
import { call, createPackage, createReturn } from '../api/support.ts';
import { returnLine } from '../support/manual-return.ts';
import { cli } from './station-state.ts';

/*
 * Search by any part comes from trigram indexes kept beside the rows (store/sqlite/text-search-index.ts).
 * A data directory written before them (the index tables and triggers dropped, as an earlier version
 * left it) gets them, filled from its records, when the real `returns-station serve` next opens it;
 * they follow later writes and hold across a stop and a start.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

it('a data directory written before the text search index finds any part after a restart, and keeps finding', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'text-search-'));
  dirs.push(dir);
  const token = cli(dir, 'token', 'create', '--account', '1001', '--name', 'text search test').trim();
  const search = async (origin: string) => {
    const get = async (path: string) => {
      const response = await call(origin, 'GET', path, { token });
      expect(response.status, response.text).toBe(200);
      const page = response.json as { data: Array<{ id: number }>; meta: { total_count: number } };
      expect(page.meta.total_count).toBe(page.data.length);
      return page.data.map((r) => r.id).sort((a, b) => a - b);
    };
    return {
      sku: await get('/returns?sku_contains=wbn'),
      email: await get('/returns?email_contains=MARTIN'),
      tracking: await get('/api/v1/accounts/1001/return_packages?tracking_number_contains=demo00'),
    };
  };

  let station = await startStation({ dataDir: dir });
  const wbn = await createReturn(station.origin, token, { email: 'chloe.martin@example.com', return_line_items: [returnLine('AC-WBN-01', 1)] });
  const other = await createReturn(station.origin, token, { email: 'bob@example.com', return_line_items: [returnLine('LB-TEE-02', 1)] });
  const pkg = await createPackage(station.origin, token, 1001, wbn.id, { tracking_number: '1ZDEMO0000000010' });
  await createPackage(station.origin, token, 1001, other.id, { tracking_number: '1ZOTHER000000020' });
  const expected = { sku: [wbn.id], email: [wbn.id], tracking: [pkg.id] };
  expect(await search(station.origin)).toEqual(expected);
  expect(await station.stop()).toBe(0);

  // As an earlier version left it: no text search tables, no triggers.
  const sqlite = new DatabaseSync(join(dir, STORE_FILE));
  for (const name of ['_packages_text', '_returns_text']) for (const event of ['insert', 'update', 'delete']) sqlite.exec(`DROP TRIGGER ${name}_${event}`);
  sqlite.exec('DROP TABLE _package_text; DROP TABLE _return_text');
  sqlite.close();

  station = await startStation({ dataDir: dir });
  try {
    expect(await search(station.origin)).toEqual(expected);
    // The filled index follows writes: a new return, a changed tracking number.
    const anne = await createReturn(station.origin, token, { email: 'anne.martinez@example.com' });
    const changed = await call(station.origin, 'PATCH', `/api/v1/accounts/1001/return_packages/${pkg.id}`, {
      token,
      body: { tracking_number: '1ZFIXED000000010' },
    });
    expect(changed.status, changed.text).toBe(200);
    const after = { ...expected, email: [wbn.id, anne.id].sort((a, b) => a - b), tracking: [] };
    expect(await search(station.origin)).toEqual(after);
    expect(await station.stop()).toBe(0);
    station = await startStation({ dataDir: dir });
    expect(await search(station.origin)).toEqual(after);
  } finally {
    await station.stop();
  }
}, 60_000); // three starts of the real station, like the other restart tests
