import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STATION_BIN, startStation } from '../support/station-process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'station-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const run = (...args: string[]) => spawnSync(process.execPath, [STATION_BIN, ...args], { encoding: 'utf8', timeout: 20_000 });

describe('returns-station serve', () => {
  it('prints exactly the ready line on stdout, refuses a second process on the data dir, and exits 0 on SIGTERM', async () => {
    const station = await startStation({ dataDir });
    const [ready, link, ...rest] = station.output().stdout.split('\n');
    expect(ready).toMatch(/^Returns station listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(link).toBe(`Open the station UI: ${station.origin}/#token=${link?.split('#token=')[1]}`);
    expect(link).toMatch(/#token=rst_[\w-]{43}$/);
    expect(rest.join('')).toBe('');
    expect((await fetch(`${station.origin}/healthz`)).status).toBe(200);

    const second = run('serve', '--port', '0', '--data-dir', dataDir);
    expect(second.status).not.toBe(0);
    expect(second.stdout).toBe('');
    expect(second.stderr).toContain(`in use by process ${station.process.pid}`);

    expect(await station.stop()).toBe(0);
  });

  it('finishes with SIGINT too, and the data directory is free again afterwards', async () => {
    const station = await startStation({ dataDir });
    const exited = new Promise<string>((resolve) => station.process.once('exit', (code, signal) => resolve(`code ${code}, signal ${signal}`)));
    station.process.kill('SIGINT');
    expect(await exited, station.output().stderr).toBe('code 0, signal null');
    expect(await station.stop()).toBe(0);
    const again = await startStation({ dataDir });
    expect(await again.stop()).toBe(0);
  });

  it('rejects a bad port and unknown options with usage and exit code 2', () => {
    const badPort = run('serve', '--port', '70000', '--data-dir', dataDir);
    expect(badPort.status).toBe(2);
    expect(badPort.stderr).toContain('--port must be an integer from 0 to 65535');
    const badLimit = run('serve', '--hot-recent-max', 'lots', '--data-dir', dataDir);
    expect(badLimit.status).toBe(2);
    expect(badLimit.stderr).toContain('--hot-recent-max or RETURNS_STATION_HOT_RECENT_MAX) must be a whole number of returns (0 or more), got "lots"');
    const unknown = run('serve', '--frobnicate');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--frobnicate'");
  });

  it('says which port is taken', async () => {
    const holder = await startStation();
    const port = new URL(holder.origin).port;
    const clash = run('serve', '--port', port, '--data-dir', join(dataDir, 'other'));
    expect(clash.status).toBe(1);
    expect(clash.stderr).toContain('the port is taken');
    await holder.stop();
  });
});
