import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync, statSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { call, returnBody } from '../api/support.ts';
import { STATION_BIN, startStation } from '../support/station-process.ts';

/*
 * A damaged or missing database, met by the real `returns-station serve`: it refuses to start with a
 * message that names the file and says what to do, exit code 1, and never starts a new empty
 * station beside existing data unless told to (--new-store).
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'harden-damaged-'));
  dirs.push(dir);
  return dir;
}

/** A data directory with returns (and a media file) written by a real station, stopped cleanly. */
async function stationWithData(returns = 1): Promise<{ dir: string; returnIds: number[] }> {
  const dir = newDir();
  execFileSync(process.execPath, [STATION_BIN, 'token', 'create', '--account', '1', '--data-dir', dir], { stdio: 'ignore' });
  const station = await startStation({ dataDir: dir });
  const returnIds: number[] = [];
  for (let i = 0; i < returns; i++) {
    const created = await call(station.origin, 'POST', '/returns', {
      token: station.stationToken,
      body: { ...returnBody({ reason_of_return: 'x'.repeat(400) }), account_id: 1 },
    });
    returnIds.push((created.json as { id: number }).id);
  }
  expect(await station.stop()).toBe(0);
  return { dir, returnIds };
}

function serveRefused(dir: string): string {
  const run = spawnSync(process.execPath, [STATION_BIN, 'serve', '--port', '0', '--data-dir', dir], { encoding: 'utf8', timeout: 20_000 });
  expect(run.status, run.stderr).toBe(1);
  expect(run.stdout).not.toMatch(/listening/);
  return run.stderr;
}

describe('a damaged station.db', () => {
  it('one corrupt row: names the file, the table and the row, and what to do', async () => {
    const { dir } = await stationWithData();
    const db = new DatabaseSync(join(dir, 'station.db'));
    const { k } = db.prepare('SELECT max(k) AS k FROM carriers').get() as { k: number };
    db.prepare('UPDATE carriers SET v = ? WHERE k = ?').run('{"id": 1, "name": ', k);
    db.close();
    const message = serveRefused(dir);
    expect(message).toContain(join(dir, 'station.db'));
    expect(message).toContain(`damaged (table carriers, row with key ${k} is not valid JSON)`);
    expect(message).toMatch(/backup/);
    expect(message).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('a truncated file: names the file and what to do', async () => {
    const { dir } = await stationWithData(300);
    const file = join(dir, 'station.db');
    truncateSync(file, Math.floor(statSync(file).size / 2));
    const message = serveRefused(dir);
    expect(message).toContain(file);
    expect(message).toMatch(/is damaged/);
    expect(message).toMatch(/--new-store/);
  }, 60_000);
});

describe('a missing or empty station.db where a station has run', () => {
  it('0 bytes next to media files: refused unless --new-store', async () => {
    const dir = newDir();
    mkdirSync(join(dir, 'media'));
    writeFileSync(join(dir, 'media', 'b'.repeat(64)), 'photo bytes');
    writeFileSync(join(dir, 'station.db'), '');
    const message = serveRefused(dir);
    expect(message).toContain(join(dir, 'station.db'));
    expect(message).toMatch(/missing or empty/);
    expect(message).toMatch(/holds 1 media file/);
    expect(message).toMatch(/--new-store/);
    const fresh = await startStation({ dataDir: dir, args: ['--new-store'] });
    expect(await fresh.stop()).toBe(0);
    // Started afresh on purpose: from now on the database exists and plain starts work.
    const again = await startStation({ dataDir: dir });
    expect(await again.stop()).toBe(0);
  }, 60_000);

  it('missing next to the holder file of a station that did not stop cleanly: refused', () => {
    const dir = newDir();
    writeFileSync(
      join(dir, 'station.lock.holder.json'),
      JSON.stringify({ pid: 4242, host: 'dock-1', command: 'returns-station serve (port 4780)', started_at: '2026-11-20T08:00:00.000Z' }),
    );
    const message = serveRefused(dir);
    expect(message).toMatch(/missing or empty/);
    expect(message).toMatch(/process 4242 .* did not stop cleanly/);
  });

  it('a fresh, empty directory starts as a new station', async () => {
    const station = await startStation({ dataDir: newDir() });
    expect(await station.stop()).toBe(0);
  });
});
