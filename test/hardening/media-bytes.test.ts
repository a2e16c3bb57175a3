import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, expectError, packageBody, rawCall, returnBody } from '../api/support.ts';
import { type RunningStation, STATION_BIN, startStation } from '../support/station-process.ts';

/*
 * Media bytes against the real `returns-station serve`: bytes a committed record names are never
 * removed (delete of the only record racing an upload of the same bytes), and bytes no record names
 * do not pile up (refused uploads, leftovers found at start), within a configurable budget.
 */

const TRIES = 300;

function png(extra = 0): Uint8Array {
  return Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...randomBytes(200 + extra)]);
}

function mediaFiles(dataDir: string): string[] {
  return readdirSync(join(dataDir, 'media')).filter((name) => !name.startsWith('.'));
}

async function newPackage(station: RunningStation): Promise<string> {
  const token = station.stationToken;
  const ret = await call(station.origin, 'POST', '/returns', { token, body: { ...returnBody(), account_id: 1 } });
  expect(ret.status, ret.text).toBe(200);
  const pkg = await call(station.origin, 'POST', '/api/v1/accounts/1/return_packages', { token, body: packageBody((ret.json as { id: number }).id) });
  expect(pkg.status, pkg.text).toBe(201);
  return `/api/v1/accounts/1/return_packages/${(pkg.json as { id: number }).id}/media_files`;
}

function upload(station: RunningStation, path: string, bytes: Uint8Array, headers: Record<string, string> = {}) {
  return call(station.origin, 'POST', path, { token: station.stationToken, raw: bytes, headers: { 'content-type': 'image/png', ...headers } });
}

const running: RunningStation[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const station of running) await station.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A data directory where account 1 exists (its token made by the real command). */
function accountDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'harden-media-'));
  dirs.push(dir);
  execFileSync(process.execPath, [STATION_BIN, 'token', 'create', '--account', '1', '--data-dir', dir], { stdio: 'ignore' });
  return dir;
}

async function start(options: Parameters<typeof startStation>[0] = {}): Promise<RunningStation> {
  const station = await startStation({ dataDir: accountDir(), ...options });
  running.push(station);
  return station;
}

describe('bytes a record names are never removed', () => {
  it(`survive ${TRIES} races of deleting their only record against uploading them again, and a restart`, async () => {
    let station = await start();
    const path = await newPackage(station);
    const kept: string[] = [];
    let lost = 0;
    for (let i = 0; i < TRIES; i++) {
      const bytes = png();
      const first = await upload(station, path, bytes);
      expect(first.status, first.text).toBe(201);
      const { id } = first.json as { id: number };
      const [deleted, again] = await Promise.all([
        call(station.origin, 'DELETE', `${path}/${id}`, { token: station.stationToken }),
        upload(station, path, bytes),
      ]);
      expect(deleted.status, deleted.text).toBe(204);
      expect(again.status, again.text).toBe(201);
      const url = (again.json as { url: string }).url;
      kept.push(url);
      if ((await fetch(url)).status !== 200) lost += 1;
    }
    console.info(`media race: ${TRIES} uploads raced against deletes, ${lost} lost before restart`);
    expect(lost).toBe(0);

    const dataDir = station.dataDir;
    expect(await station.stop()).toBe(0);
    station = await start({ dataDir });
    let lostAfterRestart = 0;
    for (const url of kept) {
      const response = await fetch(url.replace(/^http:\/\/[^/]+/, station.origin));
      if (response.status !== 200) lostAfterRestart += 1;
      await response.arrayBuffer();
    }
    console.info(`media race: ${lostAfterRestart} of ${kept.length} lost after restart`);
    expect(lostAfterRestart).toBe(0);
    expect(mediaFiles(dataDir)).toHaveLength(kept.length);
  }, 120_000);
});

describe('bytes no record names do not pile up', () => {
  it('a refused upload leaves no file, and leftovers are removed at start', async () => {
    const station = await start();
    const path = await newPackage(station);
    const big = png(10 * 1024 * 1024);
    // Refused before a byte is read: a malformed key.
    expectError(await upload(station, path, big, { 'idempotency-key': 'with space' }), 'VALIDATION_FAILED');
    // Refused after streaming: the key was used with other bytes.
    expect((await upload(station, path, png(), { 'idempotency-key': 'k-1' })).status).toBe(201);
    for (let i = 0; i < 5; i++) expectError(await upload(station, path, png(10 * 1024 * 1024), { 'idempotency-key': 'k-1' }), 'IDEMPOTENCY_KEY_REUSED');
    // Refused before a byte is read: the declared length is over the type's limit.
    const declaredTooLarge = await rawCall(station.origin, {
      method: 'POST',
      path,
      headers: { authorization: `Bearer ${station.stationToken}`, 'content-type': 'image/png', 'content-length': String(26 * 1024 * 1024) },
      body: Buffer.from(png()),
    });
    expectError({ ...declaredTooLarge, json: JSON.parse(declaredTooLarge.text) as unknown, headers: new Headers() }, 'PAYLOAD_TOO_LARGE');
    expect(mediaFiles(station.dataDir)).toHaveLength(1);

    // Bytes left by a crash between file and record (or an older version) are collected at start.
    const dataDir = station.dataDir;
    expect(await station.stop()).toBe(0);
    writeFileSync(join(dataDir, 'media', 'a'.repeat(64)), 'orphan');
    await start({ dataDir });
    expect(mediaFiles(dataDir)).toHaveLength(1);
  }, 60_000);

  it('a media budget refuses uploads beyond it with a clear 503, shown in /api/v1/station', async () => {
    const station = await start({ args: ['--media-budget-mb', '1'] });
    const path = await newPackage(station);
    expect((await upload(station, path, png(600 * 1024))).status).toBe(201);
    const refused = await upload(station, path, png(600 * 1024));
    const details = expectError(refused, 'UNAVAILABLE');
    expect(details.reason).toBe('media_budget_reached');
    expect(String(details.message)).toMatch(/media storage is full/);
    const status = await call(station.origin, 'GET', '/api/v1/station', { token: station.stationToken });
    const storage = (status.json as { storage: Record<string, unknown> }).storage;
    expect(storage).toMatchObject({ media_budget_bytes: 1024 * 1024, state: 'ok' });
    expect(storage.media_bytes).toBeGreaterThan(600 * 1024);
    expect(typeof storage.disk_free_bytes).toBe('number');
    expect(mediaFiles(station.dataDir)).toHaveLength(1);
  }, 60_000);
});
