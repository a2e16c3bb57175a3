import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { call, packageBody, returnBody, sampleMedia } from '../api/support.ts';
import { STATION_BIN, startStation } from '../support/station-process.ts';

/* The data directory is the owner's alone: 0700 directories and 0600 files (POSIX platforms). */

const root = mkdtempSync(join(tmpdir(), 'harden-perm-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = { '.': mode(dir) };
  for (const name of readdirSync(dir)) out[name] = mode(join(dir, name));
  for (const name of readdirSync(join(dir, 'media'))) out[`media/${name.slice(0, 8)}`] = mode(join(dir, 'media', name));
  return out;
}

it.skipIf(process.platform === 'win32')(
  'creates the data directory 0700 with 0600 files, and tightens an existing one',
  async () => {
    const dir = join(root, 'new', 'data');
    execFileSync(process.execPath, [STATION_BIN, 'token', 'create', '--account', '1', '--data-dir', dir], { stdio: 'ignore' });
    const station = await startStation({ dataDir: dir });
    const token = station.stationToken;
    const ret = await call(station.origin, 'POST', '/returns', { token, body: { ...returnBody(), account_id: 1 } });
    const pkg = await call(station.origin, 'POST', '/api/v1/accounts/1/return_packages', { token, body: packageBody((ret.json as { id: number }).id) });
    const upload = await call(station.origin, 'POST', `/api/v1/accounts/1/return_packages/${(pkg.json as { id: number }).id}/media_files`, {
      token,
      raw: sampleMedia('image/png'),
      headers: { 'content-type': 'image/png' },
    });
    expect(upload.status, upload.text).toBe(201);
    const running = modes(dir);
    expect(await station.stop()).toBe(0);
    for (const [name, found] of Object.entries(running)) expect(`${name} ${found}`).toBe(`${name} ${name === '.' || name === 'media' ? '700' : '600'}`);
    expect(Object.keys(running)).toEqual(expect.arrayContaining(['station.db', 'station.db-wal', 'station.lock', 'station.lock.holder.json', 'media']));

    // A directory made by an older version, readable by everyone: tightened at the next start.
    const old = join(root, 'old');
    mkdirSync(old);
    execFileSync(process.execPath, [STATION_BIN, 'token', 'create', '--station', '--data-dir', old], { stdio: 'ignore' });
    chmodSync(old, 0o755);
    chmodSync(join(old, 'station.db'), 0o644);
    const again = await startStation({ dataDir: old });
    expect(await again.stop()).toBe(0);
    expect(mode(old)).toBe('700');
    expect(mode(join(old, 'station.db'))).toBe('600');
  },
  60_000,
);
