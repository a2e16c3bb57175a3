import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../shared/api/client.ts';
import { startStation } from '../support/station-process.ts';
import { asSupervisor } from '../support/supervisor.ts';
import { type RunningShell, useShells } from './shell-process.ts';

/*
 * The station core in its own process (docs/decisions/core-process.md), as built, under Node with the
 * Electron stand-in: its `utilityProcess.fork` starts a real child (child_process.fork) that gets
 * Electron's `process.parentPort`, so the core's code is the same as in Electron.
 */

const { dataDir, shell } = useShells('desktop-core-');

async function connectionOf(app: RunningShell, url: string): Promise<{ baseUrl: string; token: string }> {
  return app.ask({ type: 'connection', frameUrl: url, isMainFrame: true, ownWebContents: true });
}

async function operatorNames(origin: string, token: string): Promise<string[]> {
  const names: string[] = [];
  for (let page = 1; ; page++) {
    const answer = await fetch(`${origin}/api/v1/station/operators?per_page=100&page=${page}`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
    const { data } = (await answer.json()) as { data: Array<{ name: string }> };
    if (data.length === 0) return names;
    names.push(...data.map((operator) => operator.name));
  }
}

/** A supervisor session's token on the station the window's (terminal) token reaches: adding workers needs one. */
async function supervisorToken(origin: string, token: string): Promise<string> {
  const session = await asSupervisor(new ApiClient({ baseUrl: origin, token }));
  if (session.token === null) throw new Error('no supervisor session');
  return session.token;
}

async function createOperator(origin: string, token: string, name: string): Promise<number> {
  const answer = await fetch(`${origin}/api/v1/station/operators`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  await answer.arrayBuffer();
  return answer.status;
}

/** Waits until `pid` is gone. */
async function gone(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the desktop app runs the station core in its own process', () => {
  it('starts the core as a utility process with its V8 flags on its command line, not set at runtime', async () => {
    const app = shell(dataDir(), { RETURNS_STATION_LOG_LEVEL: 'debug' });
    await app.loaded;
    const record = await app.record();
    expect(record.utilityProcesses).toHaveLength(1);
    const [core] = record.utilityProcesses;
    expect(core?.modulePath).toMatch(/out[/\\]main[/\\]core\.js$/);
    expect(core?.serviceName).toBe('Returns Station core');
    expect(core?.execArgv).toEqual(['--js-flags=--heap-growing-percent=50 --max-semi-space-size=8']);
    expect(core?.pid).toBeGreaterThan(0);
    expect(core?.pid).not.toBe(app.child.pid);
    // The station found them given at start: it sets no heap growth of its own.
    const line = app
      .stderr()
      .split('\n')
      .find((entry) => entry.includes('V8 heap growth and young generation'));
    expect(line, app.stderr()).toBeDefined();
    expect(JSON.parse(line ?? '{}')).toMatchObject({ heap_growth: { source: 'command line' }, young_generation: { semi_space_mb: 8 } });

    // V8's own young generation and growth rule, as for serve: no flags, and the station sets none either.
    const own = shell(dataDir(), { RETURNS_STATION_SEMI_SPACE_MB: '0', RETURNS_STATION_HEAP_GROWTH_PERCENT: '0', RETURNS_STATION_LOG_LEVEL: 'debug' });
    await own.loaded;
    expect((await own.record()).utilityProcesses[0]?.execArgv).toEqual([]);
    const ownLine = own
      .stderr()
      .split('\n')
      .find((entry) => entry.includes('V8 heap growth and young generation'));
    expect(JSON.parse(ownLine ?? '{}')).toMatchObject({ heap_growth: { source: 'v8' }, young_generation: { semi_space_mb: null } });

    const bad = await shell(dataDir(), { RETURNS_STATION_SEMI_SPACE_MB: 'lots' }).exited;
    expect(bad.code).toBe(1);
    expect(bad.record?.errorBoxes[0]?.content).toMatch(/RETURNS_STATION_SEMI_SPACE_MB must be a whole number of MiB/);
    expect(bad.record?.utilityProcesses).toEqual([]);
  }, 60_000);

  it('starts a crashed core again on the same data and port, and loads the window on it again', async () => {
    const dir = dataDir();
    const app = shell(dir);
    const url = await app.loaded;
    const first = await connectionOf(app, url);
    expect(await createOperator(first.baseUrl, await supervisorToken(first.baseUrl, first.token), 'Before the crash')).toBe(201);
    const corePid = (await app.record()).utilityProcesses[0]?.pid ?? 0;

    process.kill(corePid, 'SIGKILL');
    const again = await app.load(2);
    await gone(corePid);
    // The same origin: the UI's unsent work, kept in the browser under it, is still there after the reload.
    expect(again).toBe(url);
    const second = await connectionOf(app, again);
    expect(second.baseUrl).toBe(first.baseUrl);
    expect(second.token).not.toBe(first.token);
    expect(await operatorNames(second.baseUrl, second.token)).toContain('Before the crash');
    expect(await createOperator(second.baseUrl, await supervisorToken(second.baseUrl, second.token), 'After the crash')).toBe(201);

    const record = await app.record();
    expect(record.windows).toHaveLength(1);
    expect(record.windows[0]?.loads).toBe(2);
    expect(record.windows[0]?.title).toBe('Returns Station');
    expect(record.utilityProcesses.map((core) => core.exitCode)).toEqual([9, null]);
    expect(record.errorBoxes).toEqual([]);
    expect(app.stderr()).toMatch(/the station core stopped unexpectedly \(exit code 9\); starting it again/);

    // It still quits through the new core's close, and everything is on disk.
    await app.ask({ type: 'quit' });
    expect((await app.exited).code).toBe(0);
    const station = await startStation({ dataDir: dir });
    expect(await operatorNames(station.origin, station.stationToken)).toEqual(expect.arrayContaining(['Before the crash', 'After the crash']));
    expect(await station.stop()).toBe(0);
  }, 60_000);

  it('loads the window on a new port when the old one was taken meanwhile', async () => {
    const app = shell(dataDir());
    const url = new URL(await app.loaded);
    const corePid = (await app.record()).utilityProcesses[0]?.pid ?? 0;
    process.kill(corePid, 'SIGKILL');
    await gone(corePid);
    // Whoever takes the port first keeps it.
    const { createServer } = await import('node:net');
    const squatter = createServer();
    const squatting = await new Promise<boolean>((resolve) => {
      squatter.once('error', () => resolve(false));
      squatter.listen(Number(url.port), '127.0.0.1', () => resolve(true));
    });
    try {
      const again = new URL(await app.load(2));
      if (squatting) {
        expect(again.port).not.toBe(url.port);
        // The worker is told where the work the window kept went (it stays with the old port).
        await expect
          .poll(async () => (await app.record()).messageBoxes.map((box) => box.message))
          .toEqual([`Port ${url.port} is in use by another program: the station opened on port ${again.port} for now.`]);
      }
      const connection = await connectionOf(app, again.href);
      expect(connection.baseUrl).toBe(again.origin);
      expect(await operatorNames(connection.baseUrl, connection.token)).toEqual([]);
      // The guards follow the station to its new origin.
      expect(await app.ask({ type: 'permission-check', permission: 'media', requestingOrigin: again.origin })).toBe(true);
      expect(await app.ask({ type: 'navigate', event: 'will-navigate', url: `${again.origin}/docs` })).toBe(false);
    } finally {
      squatter.close();
    }
  }, 60_000);

  it('stops with a message after three restarts within a minute instead of restarting for ever', async () => {
    const dir = dataDir();
    const app = shell(dir);
    await app.loaded;
    for (let crash = 1; crash <= 4; crash++) {
      const pid = (await app.record()).utilityProcesses[crash - 1]?.pid ?? 0;
      process.kill(pid, 'SIGKILL');
      if (crash < 4) await app.load(crash + 1);
    }
    const { code, record } = await app.exited;
    expect(code).toBe(1);
    expect(record?.utilityProcesses).toHaveLength(4);
    expect(record?.errorBoxes).toHaveLength(1);
    expect(record?.errorBoxes[0]?.title).toBe('Returns Station stopped');
    expect(record?.errorBoxes[0]?.content).toMatch(/stopped unexpectedly 4 times within a minute \(last exit code 9\)/);
    // The data directory is free again.
    const station = await startStation({ dataDir: dir });
    expect(await station.stop()).toBe(0);
  }, 60_000);

  it('quitting while writes are in flight lets them finish within the deadline, and every answered one is on disk', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ closeDeadlineSeconds: 3 }));
    const app = shell(dir);
    const url = new URL(await app.loaded);
    const window = await connectionOf(app, url.href);
    const token = await supervisorToken(window.baseUrl, window.token);

    // One write whose body is still on its way when the quit is asked: it must complete and be kept.
    const body = JSON.stringify({ name: 'Sent across the quit' });
    const socket = connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => undefined);
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      `POST /api/v1/station/operators HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 9)}`,
    );
    // Writers that keep writing until the station refuses them.
    const answered: string[] = [];
    let refused = 0;
    const writers = Array.from({ length: 4 }, async (_, writer) => {
      for (let n = 0; ; n++) {
        const name = `Writer ${writer} #${n}`;
        const status = await createOperator(url.origin, token, name).catch(() => 0);
        if (status === 201) answered.push(name);
        else {
          refused++;
          return;
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 500));

    const quitAsked = Date.now();
    await app.ask({ type: 'quit' });
    // The core is closing now: the write in flight may still send its body, and is answered.
    await new Promise((resolve) => setTimeout(resolve, 500));
    socket.write(body.slice(9));
    await expect.poll(() => answer, { timeout: 2000 }).toMatch(/^HTTP\/1\.1 201 /);
    await Promise.all(writers);
    expect(refused).toBe(4);
    expect(answered.length).toBeGreaterThan(0);

    const { code, record } = await app.exited;
    // Its connection, kept alive after the answer, is held until the deadline cuts it (the station's
    // close as it is: it closes idle connections once, when it begins).
    await ended;
    expect(Date.now() - quitAsked).toBeLessThan(3000 + 5000);
    expect(code).toBe(0);
    expect(record?.windows[0]?.title).toMatch(/finishing work in flight/);
    expect(record?.utilityProcesses[0]?.exitCode).toBe(0);

    const station = await startStation({ dataDir: dir });
    const kept = await operatorNames(station.origin, station.stationToken);
    expect(kept).toContain('Sent across the quit');
    expect(kept).toEqual(expect.arrayContaining(answered));
    expect(await station.stop()).toBe(0);
  }, 60_000);
});
