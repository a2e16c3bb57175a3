import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, expectError, packageBody, returnBody } from '../api/support.ts';
import { type RunningStation, STATION_BIN, startStation } from '../support/station-process.ts';

/*
 * A full disk through the real `serve`: the data directory sits on a small tmpfs (mounting needs
 * root; elsewhere the test is skipped). A write that does not fit is 503 UNAVAILABLE with
 * reason "disk_full", never 500; nothing half-saved, and the station works again once space is
 * freed and starts again.
 */

const mountPoint = mkdtempSync(join(tmpdir(), 'harden-full-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=12m', 'tmpfs', mountPoint]).status === 0;
const stations: RunningStation[] = [];
/** A stored token for account 1: it outlives a start (the control token of a start does not). */
let stored = '';

beforeAll(() => {
  stored = mounted
    ? execFileSync(process.execPath, [STATION_BIN, 'token', 'create', '--account', '1', '--data-dir', mountPoint], { encoding: 'utf8' }).trim()
    : '';
});
afterAll(async () => {
  for (const station of stations) await station.stop();
  if (mounted) spawnSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

it.skipIf(!mounted)(
  'answers 503 disk_full for uploads and writes that do not fit, and recovers once space is freed',
  async () => {
    let station = await startStation({ dataDir: mountPoint });
    stations.push(station);
    const token = stored;
    const ret = await call(station.origin, 'POST', '/returns', { token, body: { ...returnBody(), account_id: 1 } });
    expect(ret.status, ret.text).toBe(200);
    const pkg = await call(station.origin, 'POST', '/api/v1/accounts/1/return_packages', { token, body: packageBody((ret.json as { id: number }).id) });
    const packagePath = `/api/v1/accounts/1/return_packages/${(pkg.json as { id: number }).id}`;

    // The disk full to the last byte.
    const filler = join(mountPoint, 'filler');
    try {
      writeFileSync(filler, Buffer.alloc(12 * 1024 * 1024));
    } catch {
      // ENOSPC: the filler takes whatever was left.
    }
    const photo = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(256 * 1024, 0x20)]);
    const upload = await call(station.origin, 'POST', `${packagePath}/media_files`, { token, raw: photo, headers: { 'content-type': 'application/pdf' } });
    const details = expectError(upload, 'UNAVAILABLE');
    expect(details.reason).toBe('disk_full');
    expect(String(details.message)).toMatch(/disk is full/);

    let refused = 0;
    for (let i = 0; i < 20; i++) {
      const write = await call(station.origin, 'PATCH', packagePath, { token, body: { notes: `note ${i} ${'n'.repeat(2000)}` } });
      if (write.status === 200) continue;
      expect(expectError(write, 'UNAVAILABLE').reason).toBe('disk_full');
      refused += 1;
    }
    expect(refused).toBeGreaterThan(0);
    const status = await call(station.origin, 'GET', '/api/v1/station', { token: station.stationToken });
    expect((status.json as { storage: { state: string } }).storage.state).toBe('full');

    // Space freed: writes work again, and the station starts again on the directory.
    rmSync(filler, { force: true });
    const after = await call(station.origin, 'PATCH', packagePath, { token, body: { notes: 'after' } });
    expect(after.status, after.text).toBe(200);
    expect(await station.stop()).toBe(0);
    station = await startStation({ dataDir: mountPoint });
    stations.push(station);
    const reread = await call(station.origin, 'GET', packagePath, { token });
    expect(reread.status, reread.text).toBe(200);
    expect((reread.json as { updated_at: string }).updated_at).toBe((after.json as { updated_at: string }).updated_at);
  },
  60_000,
);
