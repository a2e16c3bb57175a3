import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { call, expectError } from '../api/support.ts';
import { STATION_BIN, startStation } from '../support/station-process.ts';

/*
 * Tokens are made and revoked while the station runs — over the API with a station token, and by
 * the command line, which talks to the running station — and a revoked token stops working at once,
 * even one the station has already verified (and cached). Per-start tokens expire and are pruned.
 */

/** The real command, run without blocking this process (its HTTP connections stay serviced). */
function cli(dataDir: string, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [STATION_BIN, 'token', ...args, '--data-dir', dataDir], { encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

it('makes and revokes tokens while the station runs; a revoke takes effect at once', async () => {
  const station = await startStation();
  // The command line's administrative token; the UI link's terminal token may not manage tokens.
  const { origin, stationToken: admin, uiToken, dataDir } = station;
  expectError(await call(origin, 'POST', '/api/v1/station/tokens', { token: uiToken, body: { scope: 'station' } }), 'SUPERVISOR_REQUIRED');
  expectError(await call(origin, 'GET', '/api/v1/station/tokens', { token: uiToken }), 'SUPERVISOR_REQUIRED');

  // Over the API.
  const made = await call(origin, 'POST', '/api/v1/station/tokens', {
    token: admin,
    body: { scope: 'account', account_id: 7, name: 'label printer', expires_in_days: 30 },
  });
  expect(made.status, made.text).toBe(201);
  const { id, secret } = made.json as { id: number; secret: string };
  expect((await call(origin, 'GET', '/api/v1/accounts/7/return_packages', { token: secret })).status).toBe(200);
  expect((await call(origin, 'GET', '/api/v1/accounts/7/return_packages', { token: secret })).status).toBe(200);
  const listed = await call(origin, 'GET', '/api/v1/station/tokens', { token: admin });
  expect(JSON.stringify(listed.json)).not.toContain(secret);
  expectError(await call(origin, 'POST', '/api/v1/station/tokens', { token: secret, body: { scope: 'station' } }), 'ACCOUNT_FORBIDDEN');
  expect((await call(origin, 'DELETE', `/api/v1/station/tokens/${id}`, { token: admin })).status).toBe(204);
  expectError(await call(origin, 'GET', '/api/v1/accounts/7/return_packages', { token: secret }), 'INVALID_TOKEN');

  // From the command line, against the running station.
  const created = await cli(dataDir, 'create', '--account', '7', '--name', 'wms agent');
  expect(created.status, created.stderr).toBe(0);
  const cliSecret = created.stdout.trim();
  expect((await call(origin, 'GET', '/api/v1/accounts/7/return_packages', { token: cliSecret })).status).toBe(200);
  const list = await cli(dataDir, 'list');
  expect(list.status, list.stderr).toBe(0);
  const row = list.stdout.split('\n').find((line) => line.includes('wms agent'));
  const cliId = row?.split(/\s+/)[0] ?? '';
  expect(cliId).toMatch(/^\d+$/);
  const revoked = await cli(dataDir, 'revoke', cliId);
  expect(revoked.status, revoked.stderr).toBe(0);
  expectError(await call(origin, 'GET', '/api/v1/accounts/7/return_packages', { token: cliSecret }), 'INVALID_TOKEN');

  // The command line's way in goes with the station.
  expect(await station.stop()).toBe(0);
  expect(existsSync(join(dataDir, 'station.control.json'))).toBe(false);
}, 60_000);

it('per-start tokens expire, and are pruned a week after', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'harden-tokens-'));
  try {
    expect((await cli(dataDir, 'create', '--station', '--name', 'kept')).status).toBe(0);
    const first = await startStation({ dataDir });
    const firstLink = first.stationToken;
    expect(await first.stop()).toBe(0);
    // Fifteen days later: the first link expired on day 7 and is pruned at start (a week after).
    const later = await startStation({ dataDir, env: { RETURNS_STATION_CLOCK_OFFSET: '15d' } });
    expectError(await call(later.origin, 'GET', '/api/v1/station', { token: firstLink }), 'INVALID_TOKEN');
    const names = (
      (await call(later.origin, 'GET', '/api/v1/station/tokens', { token: later.stationToken })).json as { data: Array<{ name: string }> }
    ).data.map((t) => t.name);
    expect(await later.stop()).toBe(0);
    expect(names.filter((name) => name.startsWith('UI link'))).toHaveLength(1);
    expect(names).toContain('kept');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
