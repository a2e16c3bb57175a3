import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { call } from '../api/support.ts';
import { startScaleSimulator } from '../support/scale-simulator.ts';
import { startStation } from '../support/station-process.ts';

/* The chosen scale is the data directory's: a stop and a start of the real `serve` keep it, and it reads as before. */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

it('keeps the chosen scale across a stop and a start, and reads it after', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'scale-restart-'));
  dirs.push(dir);
  const scale = await startScaleSimulator('mt_sics', { weight: 2.5, unit: 'kg' });
  try {
    let station = await startStation({ dataDir: dir });
    const chosen = await call(station.origin, 'PUT', '/api/v1/station/scale', {
      token: station.stationToken,
      body: { scale: { kind: 'tcp', host: '127.0.0.1', port: scale.port, protocol: 'mt_sics' } },
    });
    expect(chosen.status, chosen.text).toBe(200);
    expect(await station.stop()).toBe(0);

    station = await startStation({ dataDir: dir });
    try {
      const kept = await call(station.origin, 'GET', '/api/v1/station/scale', { token: station.uiToken });
      expect(kept.json).toEqual(chosen.json);
      const reading = await call(station.origin, 'GET', '/api/v1/station/scale/weight', { token: station.uiToken });
      expect(reading.json).toMatchObject({ state: 'stable', weight: 2.5, unit: 'kg' });
    } finally {
      await station.stop();
    }
  } finally {
    await scale.close();
  }
}, 120_000);
