import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HealthSchema } from '#shared/health.ts';
import { DataDirLockedError } from '../../electron/station/data-dir-lock.ts';
import { openStation, type Station } from '../../electron/station/station.ts';

const open: Station[] = [];
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'station-core-'));
  dirs.push(dir);
  return dir;
};
async function station(dataDir = tempDir()) {
  const s = await openStation({ dataDir, rendererDir: join(dataDir, 'no-ui'), logLevel: 'silent' });
  open.push(s);
  return s;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('station core', () => {
  it('answers /healthz with its name and version, without auth', async () => {
    const s = await station();
    const response = await s.server.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(HealthSchema.parse(response.json()).name).toBe('Returns Station');
  });

  it('answers unknown routes with the contract error shape', async () => {
    const s = await station();
    const response = await s.server.inject({ method: 'GET', url: '/nope?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Not Found', error_code: 'NOT_FOUND', details: { message: 'No route for GET /nope.' } });
  });

  it('says the UI is not built instead of failing when out/renderer is missing', async () => {
    const s = await station();
    const response = await s.server.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error_code: 'UNAVAILABLE' });
  });

  it('refuses a second station on the same data directory, naming the holder', async () => {
    const dir = tempDir();
    await station(dir);
    const second = station(dir);
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(second).rejects.toThrow(new RegExp(`process ${process.pid}`));
  });

  it('frees the data directory on close', async () => {
    const dir = tempDir();
    const first = await station(dir);
    await first.close();
    await expect(station(dir)).resolves.toBeDefined();
  });

  it('listens on a real port when asked for port 0', async () => {
    const s = await station();
    const origin = await s.listen('127.0.0.1', 0);
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(origin).not.toMatch(/:0$/);
    const response = await fetch(`${origin}/healthz`);
    expect(response.status).toBe(200);
  });
});
