import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { call, createPackage, createReturn } from '../api/support.ts';
import { cli } from './station-state.ts';
import { startScaleSimulator } from '../support/scale-simulator.ts';
import { startStation } from '../support/station-process.ts';
import { openStore } from '../../electron/station/store/index.ts';

/*
 * The chosen scale and the weights it recorded are the data directory's: a stop and a start of the
 * real `serve` keep them, and the scale reads as before.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

it("keeps the chosen scale and a parcel's weight across a stop and a start, and reads the scale after", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'scale-restart-'));
  dirs.push(dir);
  cli(dir, 'token', 'create', '--account', '1001', '--name', 'account');
  const scale = await startScaleSimulator('mt_sics', { weight: 2.5, unit: 'kg' });
  try {
    let station = await startStation({ dataDir: dir });
    const chosen = await call(station.origin, 'PUT', '/api/v1/station/scale', {
      token: station.stationToken,
      body: { scale: { kind: 'tcp', host: '127.0.0.1', port: scale.port, protocol: 'mt_sics' } },
    });
    expect(chosen.status, chosen.text).toBe(200);
    const ret = await createReturn(station.origin, station.stationToken, { account_id: 1001 });
    // A tare and a tolerance of the site's kind: a setting, kept like the others.
    const check = await call(station.origin, 'PATCH', '/api/v1/station/settings', {
      token: station.stationToken,
      body: { weight_check: { tolerance_percent: 5, tolerance_absolute: 50, box_tare: 120, unit: 'g' } },
    });
    expect(check.status, check.text).toBe(200);
    const pkg = await createPackage(station.origin, station.stationToken, 1001, ret.id, { weight: 3, weight_unit: 'kg' });
    const weighed = await call(station.origin, 'POST', `/api/v1/accounts/1001/return_packages/${pkg.id}/weight`, {
      token: station.stationToken,
      body: { source: 'station_scale' },
    });
    expect(weighed.json).toMatchObject({
      reading: { state: 'stable' },
      weight: { weight: 2.5, unit: 'kg', source: 'scale', expected_weight: 3, expected_from: 'package', verdict: 'light' },
    });
    expect(await station.stop()).toBe(0);

    station = await startStation({ dataDir: dir });
    try {
      const kept = await call(station.origin, 'GET', '/api/v1/station/scale', { token: station.uiToken });
      expect(kept.json).toEqual(chosen.json);
      const reading = await call(station.origin, 'GET', '/api/v1/station/scale/weight', { token: station.uiToken });
      expect(reading.json).toMatchObject({ state: 'stable', weight: 2.5, unit: 'kg' });
      const kept2 = await call(station.origin, 'GET', `/api/v1/accounts/1001/return_packages/${pkg.id}/weight`, { token: station.uiToken });
      expect(kept2.json).toEqual((weighed.json as { weight: unknown }).weight);
      const settings = await call(station.origin, 'GET', '/api/v1/station/settings', { token: station.uiToken });
      expect(settings.json).toMatchObject({ weight_check: { tolerance_percent: 5, tolerance_absolute: 50, box_tare: 120, unit: 'g' } });
    } finally {
      await station.stop();
    }
  } finally {
    await scale.close();
  }
}, 120_000);

it('keeps a weighing recorded before the weight check (the old row beside the package) across the upgrade, with its verdict', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'scale-upgrade-'));
  dirs.push(dir);
  cli(dir, 'token', 'create', '--account', '1001', '--name', 'account');
  let station = await startStation({ dataDir: dir });
  const ret = await createReturn(station.origin, station.stationToken, { account_id: 1001 });
  const pkg = await createPackage(station.origin, station.stationToken, 1001, ret.id, { weight: 1.8, weight_unit: 'kg' });
  const other = await createPackage(station.origin, station.stationToken, 1001, ret.id);
  expect(await station.stop()).toBe(0);

  // The data directory as the first weighings left it: one station_meta row per weighed package.
  const old = { return_package_id: pkg.id, weight: 0.21, unit: 'kg', source: 'typed', scale: null, operator_id: null, weighed_at: '2026-11-28T13:00:00.000Z' };
  const store = await openStore({ dataDir: dir });
  await store.write(['station_meta'], async (t) => {
    await t.station_meta.put({ key: `package.weight.${pkg.id}`, value: old });
    await t.station_meta.put({ key: 'package.weight.999999', value: { ...old, return_package_id: 999_999 } });
  });
  await store.close();

  station = await startStation({ dataDir: dir });
  try {
    const kept = await call(station.origin, 'GET', `/api/v1/accounts/1001/return_packages/${pkg.id}/weight`, { token: station.uiToken });
    expect(kept.json).toEqual({ ...old, expected_weight: 1.8, expected_from: 'package', verdict: 'light' });
    const view = await call(station.origin, 'GET', `/api/v1/accounts/1001/return_packages/${pkg.id}`, { token: station.uiToken });
    expect(view.json).toMatchObject({ weighing: { measured_weight: 0.21, weighed_at: old.weighed_at, weight_verdict: 'light' } });
    // A package stored before the weight check reads as never weighed.
    const never = await call(station.origin, 'GET', `/api/v1/accounts/1001/return_packages/${other.id}`, { token: station.uiToken });
    expect(Object.values((never.json as { weighing: object }).weighing).every((v) => v === null)).toBe(true);
  } finally {
    await station.stop();
  }
  // The rows are gone once moved: a later start reads the fields alone.
  const after = await openStore({ dataDir: dir });
  try {
    expect((await after.tables.station_meta.all()).filter((row) => row.key.startsWith('package.weight.'))).toEqual([]);
  } finally {
    await after.close();
  }
}, 120_000);
