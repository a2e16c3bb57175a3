import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandheldPairedSchema, HandheldPairingSchema, PAIRING_WRONG_CODES_PER_MINUTE } from '#shared/api/handhelds.ts';
import { FieldErrorSchema } from '#shared/api/errors.ts';
import { TokenListResponseSchema } from '#shared/api/tokens.ts';
import { z } from 'zod';
import type { Clock } from '../../electron/station/domain/clock.ts';
import { STATION_BIN, startStation as startServe } from '../support/station-process.ts';
import { call, expectError, startStation, type TestStation } from './support.ts';

/*
 * Pairing a handheld over HTTP (docs/decisions/handheld-pairing.md): a supervisor's code works once,
 * for 10 minutes, becomes a terminal token of the device's own, revocable; wrong codes are refused
 * and, past the minute's limit, every pairing waits. The station's clock is the test's.
 */

let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs).toISOString() };
let s: TestStation;

beforeAll(async () => {
  s = await startStation({ clock });
});
afterAll(async () => {
  await s.close();
});

async function newCode(
  origin = s.origin,
  token = s.stationToken,
  body: { device_name?: string } = {},
): Promise<{ code: string; pair_url: string | null; device_name: string | null }> {
  const made = await call(origin, 'POST', '/api/v1/station/handhelds/pairings', { token, body });
  expect(made.status, made.text).toBe(201);
  return HandheldPairingSchema.parse(made.json);
}

let devices = 0;
/** Pairs with the device's own name (a new one each time unless given: names are unique among paired handhelds). */
function pair(code: string, device_name: string | null = `Test handheld ${++devices}`, origin = s.origin) {
  return call(origin, 'POST', '/api/v1/handhelds/pair', { body: device_name === null ? { code } : { code, device_name } });
}

/** The first field a 422 names. */
const firstField = (details: Record<string, unknown>) => z.array(FieldErrorSchema).parse(details.fields)[0];

async function tokenNames(origin = s.origin, token = s.stationToken): Promise<string[]> {
  const listed = TokenListResponseSchema.parse((await call(origin, 'GET', '/api/v1/station/tokens', { token })).json).data;
  return listed.filter((t) => t.revoked_at === null && t.name.startsWith('handheld: ')).map((t) => t.name);
}

describe('pairing a handheld', () => {
  it('gives the device a terminal token of its own, named after it, once; the address the QR code holds carries the code only in its fragment', async () => {
    const { code, pair_url } = await newCode();
    expect(pair_url).toBe(`${s.origin}/pair#code=${code}`);
    const paired = await pair(code.toLowerCase().replace('-', ' '), 'TC52 dock 3');
    expect(paired.status, paired.text).toBe(200);
    const device = HandheldPairedSchema.parse(paired.json);
    expect(device.name).toBe('handheld: TC52 dock 3');

    // The dock's work and reads: yes. What only a supervisor may: no.
    expect((await call(s.origin, 'GET', '/api/v1/station/settings', { token: device.token })).status).toBe(200);
    expectError(await call(s.origin, 'POST', '/api/v1/station/tokens', { token: device.token, body: { scope: 'station' } }), 'SUPERVISOR_REQUIRED');
    expectError(await call(s.origin, 'POST', '/api/v1/station/handhelds/pairings', { token: device.token }), 'SUPERVISOR_REQUIRED');

    const listed = TokenListResponseSchema.parse((await call(s.origin, 'GET', '/api/v1/station/tokens', { token: s.stationToken })).json).data.find(
      (t) => t.id === device.token_id,
    );
    expect(listed).toMatchObject({ scope: 'station', role: 'terminal', name: 'handheld: TC52 dock 3', expires_at: null, revoked_at: null });

    const again = expectError(await pair(code), 'PAIRING_CODE_REFUSED');
    expect(again.message).toMatch(/was used at .*a code works once/);
  });

  it('names the device as the supervisor named it with the code, whatever the device sends; a code without a name needs the device to name itself', async () => {
    const named = await newCode(s.origin, s.stationToken, { device_name: 'Zebra by the door' });
    expect(named.device_name).toBe('Zebra by the door');
    const device = HandheldPairedSchema.parse((await pair(named.code, 'Handheld 2026-11-28 05:23')).json);
    expect(device.name).toBe('handheld: Zebra by the door');
    // The QR code's page sends no name at all: the code's is used.
    const silent = await newCode(s.origin, s.stationToken, { device_name: 'Zebra at bench 2' });
    expect(HandheldPairedSchema.parse((await pair(silent.code, null)).json).name).toBe('handheld: Zebra at bench 2');

    // Made without a name and sent without one: refused on the field, not counted as a wrong code, the code still works.
    const unnamed = await newCode();
    expect(unnamed.device_name).toBeNull();
    const refused = expectError(await pair(unnamed.code, null), 'VALIDATION_FAILED');
    expect(firstField(refused)).toMatchObject({ path: 'device_name', message: expect.stringContaining('Name this handheld') as unknown });
    expect(HandheldPairedSchema.parse((await pair(unnamed.code, 'TC21 returns desk')).json).name).toBe('handheld: TC21 returns desk');
    expect(await tokenNames()).toEqual(expect.arrayContaining(['handheld: Zebra by the door', 'handheld: Zebra at bench 2', 'handheld: TC21 returns desk']));
  });

  it('keeps the names of paired handhelds apart: a name in use is refused when the code is made and when it is used, and free again once that device is revoked', async () => {
    const first = HandheldPairedSchema.parse((await pair((await newCode()).code, 'Scanner 7')).json);
    const atStation = await call(s.origin, 'POST', '/api/v1/station/handhelds/pairings', { token: s.stationToken, body: { device_name: 'Scanner 7' } });
    expect(firstField(expectError(atStation, 'VALIDATION_FAILED'))).toMatchObject({
      path: 'device_name',
      message: expect.stringContaining('already named "Scanner 7"') as unknown,
    });
    const { code } = await newCode();
    expect(firstField(expectError(await pair(code, ' Scanner 7 '), 'VALIDATION_FAILED'))?.path).toBe('device_name');
    expect(await tokenNames()).toEqual(expect.arrayContaining(['handheld: Scanner 7']));
    expect((await tokenNames()).filter((n) => n === 'handheld: Scanner 7')).toHaveLength(1);

    expect((await call(s.origin, 'DELETE', `/api/v1/station/tokens/${first.token_id}`, { token: s.stationToken })).status).toBe(204);
    // The same code, refused before, pairs the replacement under the freed name.
    expect(HandheldPairedSchema.parse((await pair(code, 'Scanner 7')).json).name).toBe('handheld: Scanner 7');
  });

  it('refuses a code after its 10 minutes', async () => {
    const { code } = await newCode();
    offsetMs += 10 * 60_000;
    try {
      expect(expectError(await pair(code), 'PAIRING_CODE_REFUSED').message).toMatch(/expired at/);
    } finally {
      offsetMs += 60_000; // past any wrong-code window this left open
    }
  });

  it('stops working once revoked', async () => {
    const device = HandheldPairedSchema.parse((await pair((await newCode()).code, 'TC21')).json);
    expect((await call(s.origin, 'GET', '/api/v1/station/settings', { token: device.token })).status).toBe(200);
    expect((await call(s.origin, 'DELETE', `/api/v1/station/tokens/${device.token_id}`, { token: s.stationToken })).status).toBe(204);
    expectError(await call(s.origin, 'GET', '/api/v1/station/settings', { token: device.token }), 'INVALID_TOKEN');
  });

  it('refuses a malformed request with the field named, and the code still works after it', async () => {
    const { code } = await newCode();
    const longName = await call(s.origin, 'POST', '/api/v1/handhelds/pair', { body: { code, device_name: 'x'.repeat(256) } });
    expect(JSON.stringify(expectError(longName, 'VALIDATION_FAILED'))).toContain('device_name');
    expect(
      JSON.stringify(
        expectError(
          await call(s.origin, 'POST', '/api/v1/station/handhelds/pairings', { token: s.stationToken, body: { device_name: '' } }),
          'VALIDATION_FAILED',
        ),
      ),
    ).toContain('device_name');
    expectError(await call(s.origin, 'POST', '/api/v1/handhelds/pair', { body: { code: 'ABCD-EFGH-J', device_name: 'x' } }), 'VALIDATION_FAILED');
    expect((await pair(code)).status).toBe(200);
  });

  it(`refuses wrong codes, and past ${PAIRING_WRONG_CODES_PER_MINUTE} a minute makes every pairing wait, the right code too, until the minute ends`, async () => {
    offsetMs += 2 * 60_000;
    const { code } = await newCode();
    for (let i = 0; i < PAIRING_WRONG_CODES_PER_MINUTE; i++) {
      expect(expectError(await pair(`ZZZZ-${String(1000 + i)}`), 'PAIRING_CODE_REFUSED').message).toMatch(/unknown/);
    }
    const waiting = await pair(code);
    expectError(waiting, 'RATE_LIMITED');
    const retryAfter = Number(waiting.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    offsetMs += 60_000;
    expect((await pair(code)).status).toBe(200);
  });
});

describe('returns-station handheld pair --name', () => {
  it('names the device, the station running or not; a name in use or a blank one is refused in words', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'handheld-cli-'));
    const cli = (...args: string[]) => spawnSync(process.execPath, [STATION_BIN, 'handheld', 'pair', ...args, '--data-dir', dataDir], { encoding: 'utf8' });
    let station: Awaited<ReturnType<typeof startServe>> | null = null;
    try {
      // Not running: the code is made in the data directory.
      const stopped = cli('--name', 'TC52 dock 3');
      expect(stopped.status, stopped.stderr).toBe(0);
      expect(stopped.stderr).toContain('It will be named "TC52 dock 3".');
      station = await startServe({ dataDir });
      const first = HandheldPairedSchema.parse((await pair(stopped.stdout.trim(), null, station.origin)).json);
      expect(first.name).toBe('handheld: TC52 dock 3');

      // Running: through the station's API, the same rules.
      const taken = cli('--name', 'TC52 dock 3');
      expect(taken.status).not.toBe(0);
      expect(taken.stderr).toContain('already named "TC52 dock 3"');
      const running = cli('--name', 'TC52 dock 4');
      expect(running.status, running.stderr).toBe(0);
      expect(HandheldPairedSchema.parse((await pair(running.stdout.trim(), 'whatever the page says', station.origin)).json).name).toBe('handheld: TC52 dock 4');
      expect(await tokenNames(station.origin, station.stationToken)).toEqual(['handheld: TC52 dock 3', 'handheld: TC52 dock 4']);

      const blank = cli('--name', '  ');
      expect(blank.status).not.toBe(0);
      expect(blank.stderr).toContain('--name');
      expect(blank.stdout).toBe('');
    } finally {
      await station?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('across a restart of serve', () => {
  it('keeps an open code (as its hash only) and a paired device; `token revoke` ends the device', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'handheld-restart-'));
    let station = await startServe({ dataDir });
    try {
      const { code } = await newCode(station.origin, station.stationToken);
      await station.stop();
      station = await startServe({ dataDir });
      const device = HandheldPairedSchema.parse((await pair(code, 'TC52', station.origin)).json);
      await station.stop();
      station = await startServe({ dataDir });
      expect((await call(station.origin, 'GET', '/api/v1/station/settings', { token: device.token })).status).toBe(200);
      expectError(await pair(code, 'TC52', station.origin), 'PAIRING_CODE_REFUSED');
      execFileSync(process.execPath, [STATION_BIN, 'token', 'revoke', String(device.token_id), '--data-dir', dataDir], { stdio: 'pipe' });
      expectError(await call(station.origin, 'GET', '/api/v1/station/settings', { token: device.token }), 'INVALID_TOKEN');
    } finally {
      await station.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
