import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '#shared/api/client.ts';
import { type RunningStation, startStation } from '../support/station-process.ts';
import { call, expectError } from './support.ts';

/*
 * The station's settings belong to the station (its data directory), not to one terminal's browser:
 * every terminal reads the same ones, a change is validated and logged, and they survive a stop and
 * a start of the real `returns-station serve`.
 */

let station: RunningStation;
let dataDir: string;
let api: ApiClient;

beforeAll(async () => {
  // Our own directory: a station started without one removes its directory when it stops.
  dataDir = mkdtempSync(join(tmpdir(), 'station-settings-'));
  station = await startStation({ dataDir });
  api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
}, 60_000);

afterAll(async () => {
  await station?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('a new station has the defaults: scans told by speed, no currency, confirm before receiving with conditions not set', async () => {
  expect(await api.stationSettings()).toEqual({
    scanner: null,
    currency: null,
    unset_conditions: 'confirm',
    labels: { printer: { kind: 'browser' }, package_slip: false },
    weight_check: { tolerance_percent: 10, tolerance_absolute: 0.1, box_tare: 0, unit: 'kg' },
    serial_rules: [],
    updated_at: null,
  });
  expect((await api.station()).settings.unset_conditions).toBe('confirm');
});

test('bad settings are refused with the field and a plain reason, and change nothing', async () => {
  const before = await api.stationSettings();
  const cases: Array<[unknown, string]> = [
    [{ scanner: { prefix: 'not a key' } }, 'scanner.prefix'],
    [{ scanner: { prefix: 'F12', suffix: 'F12' } }, 'scanner.suffix'],
    [{ currency: 'eur' }, 'currency'],
    [{ unset_conditions: 'sometimes' }, 'unset_conditions'],
    [{ colour: 'blue' }, ''],
    [{}, ''],
  ];
  for (const [body, path] of cases) {
    const res = await call(station.origin, 'PATCH', '/api/v1/station/settings', { token: station.stationToken, body });
    const details = expectError(res, 'VALIDATION_FAILED');
    const fields = details.fields as Array<{ path: string; message: string }>;
    expect(
      fields.map((f) => f.path),
      JSON.stringify(body),
    ).toContain(path);
    expect(fields[0]?.message.length).toBeGreaterThan(5);
  }
  expect(await api.stationSettings()).toEqual(before);
});

test('an account token can neither read nor change them', async () => {
  const { secret: token } = await api.createToken({ scope: 'account', account_id: 7, name: 'integration' });
  expectError(await call(station.origin, 'GET', '/api/v1/station/settings', { token }), 'ACCOUNT_FORBIDDEN');
  expectError(await call(station.origin, 'PATCH', '/api/v1/station/settings', { token, body: { unset_conditions: 'allow' } }), 'ACCOUNT_FORBIDDEN');
});

test('a change applies to every terminal at once and survives a stop and a start', async () => {
  const changed = await api.updateStationSettings({ scanner: { prefix: 'F12' }, currency: 'EUR', unset_conditions: 'allow' });
  expect(changed).toMatchObject({ scanner: { prefix: 'F12', suffix: 'Enter' }, currency: 'EUR', unset_conditions: 'allow' });
  expect(changed.updated_at).not.toBeNull();
  // Another terminal (its own client) sees the same, in the status it polls too.
  const other = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
  expect((await other.station()).settings).toEqual(changed);
  // Only the fields given change; null clears.
  const cleared = await other.updateStationSettings({ scanner: null });
  expect(cleared).toMatchObject({ scanner: null, currency: 'EUR', unset_conditions: 'allow' });

  expect(await station.stop()).toBe(0);
  station = await startStation({ dataDir });
  api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
  expect(await api.stationSettings()).toEqual(cleared);
}, 60_000);
