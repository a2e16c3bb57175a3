import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandheldPairedSchema, HandheldPairingSchema, PAIRING_WRONG_CODES_PER_MINUTE } from '#shared/api/handhelds.ts';
import { TokenListResponseSchema } from '#shared/api/tokens.ts';
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

async function newCode(origin = s.origin, token = s.stationToken): Promise<{ code: string; pair_url: string | null }> {
  const made = await call(origin, 'POST', '/api/v1/station/handhelds/pairings', { token });
  expect(made.status, made.text).toBe(201);
  return HandheldPairingSchema.parse(made.json);
}

function pair(code: string, device_name = 'TC52 dock 3', origin = s.origin) {
  return call(origin, 'POST', '/api/v1/handhelds/pair', { body: { code, device_name } });
}

describe('pairing a handheld', () => {
  it('gives the device a terminal token of its own, named after it, once; the address the QR code holds carries the code only in its fragment', async () => {
    const { code, pair_url } = await newCode();
    expect(pair_url).toBe(`${s.origin}/pair#code=${code}`);
    const paired = await pair(code.toLowerCase().replace('-', ' '));
    expect(paired.status, paired.text).toBe(200);
    const device = HandheldPairedSchema.parse(paired.json);
    expect(device.name).toBe('handheld: TC52 dock 3');

    // The dock's work and reads: yes. What only a supervisor may: no.
    expect((await call(s.origin, 'GET', '/api/v1/station/settings', { token: device.token })).status).toBe(200);
    expectError(await call(s.origin, 'POST', '/api/v1/station/tokens', { token: device.token, body: { scope: 'station' } }), 'SUPERVISOR_REQUIRED');
    expectError(await call(s.origin, 'POST', '/api/v1/station/handhelds/pairings', { token: device.token }), 'SUPERVISOR_REQUIRED');

    const listed = TokenListResponseSchema.parse((await call(s.origin, 'GET', '/api/v1/station/tokens', { token: s.stationToken })).json).data.find((t) => t.id === device.token_id);
    expect(listed).toMatchObject({ scope: 'station', role: 'terminal', name: 'handheld: TC52 dock 3', expires_at: null, revoked_at: null });

    const again = expectError(await pair(code), 'PAIRING_CODE_REFUSED');
    expect(again.message).toMatch(/was used at .*a code works once/);
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
    const noName = await call(s.origin, 'POST', '/api/v1/handhelds/pair', { body: { code } });
    expect(JSON.stringify(expectError(noName, 'VALIDATION_FAILED'))).toContain('device_name');
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
