import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { call, createPackage, createReturn } from '../api/support.ts';
import { cli } from './station-state.ts';
import { startScaleSimulator } from '../support/scale-simulator.ts';
import { startStation } from '../support/station-process.ts';

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
    const pkg = await createPackage(station.origin, station.stationToken, 1001, ret.id);
    const weighed = await call(station.origin, 'POST', `/api/v1/accounts/1001/return_packages/${pkg.id}/weight`, {
      token: station.stationToken,
      body: { source: 'station_scale' },
    });
    expect(weighed.json).toMatchObject({ reading: { state: 'stable' }, weight: { weight: 2.5, unit: 'kg', source: 'scale' } });
    expect(await station.stop()).toBe(0);

    station = await startStation({ dataDir: dir });
    try {
      const kept = await call(station.origin, 'GET', '/api/v1/station/scale', { token: station.uiToken });
      expect(kept.json).toEqual(chosen.json);
      const reading = await call(station.origin, 'GET', '/api/v1/station/scale/weight', { token: station.uiToken });
      expect(reading.json).toMatchObject({ state: 'stable', weight: 2.5, unit: 'kg' });
      const kept2 = await call(station.origin, 'GET', `/api/v1/accounts/1001/return_packages/${pkg.id}/weight`, { token: station.uiToken });
      expect(kept2.json).toEqual((weighed.json as { weight: unknown }).weight);
    } finally {
      await station.stop();
    }
  } finally {
    await scale.close();
  }
}, 120_000);
