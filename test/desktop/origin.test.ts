import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useShells } from './shell-process.ts';

/*
 * The desktop app's window origin (http://127.0.0.1:<port>) is where the browser keeps the UI's unsent
 * work, packages in progress and screen settings: it must be the same at every start of the app. The
 * built app under the Electron stand-in, on the port desktop.json keeps.
 */

const { dataDir, shell } = useShells('desktop-origin-');

/** A port nobody listens on right now (the OS's pick, released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function squat(port: number): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return server;
}

/** desktop.json's port alone (the stand-in's default of a free port per start is switched off). */
const FILE_PORT = { RETURNS_STATION_DESKTOP_PORT: '' };

describe("the desktop app's window keeps one origin across starts", () => {
  it('opens the window on the port desktop.json keeps, start after start', async () => {
    const dir = dataDir();
    const port = await freePort();
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ port }));
    const origins: string[] = [];
    for (let start = 0; start < 2; start++) {
      const app = shell(dir, FILE_PORT);
      origins.push(await app.loaded);
      await app.ask({ type: 'quit' });
      const { code, record } = await app.exited;
      expect(code).toBe(0);
      expect(record?.messageBoxes).toEqual([]);
    }
    expect(origins).toEqual([`http://127.0.0.1:${port}/`, `http://127.0.0.1:${port}/`]);
  }, 60_000);

  it('with its port taken, opens on another for that start and says where the kept work is; the next start has it back', async () => {
    const dir = dataDir();
    const port = await freePort();
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ port }));
    const squatter = await squat(port);
    try {
      const app = shell(dir, FILE_PORT);
      const url = new URL(await app.loaded);
      expect(url.port).not.toBe(String(port));
      const record = await app.record();
      expect(record.errorBoxes).toEqual([]);
      expect(record.messageBoxes).toHaveLength(1);
      expect(record.messageBoxes[0]?.message).toBe(`Port ${port} is in use by another program: the station opened on port ${url.port} for now.`);
      expect(record.messageBoxes[0]?.detail).toMatch(new RegExp(`is not lost: it stays there and is sent when the app starts on port ${port} again`));
      expect(record.messageBoxes[0]?.detail).toContain(join(dir, 'desktop.json'));
      expect(app.stderr()).toContain(`Port ${port} is in use by another program`);
      await app.ask({ type: 'quit' });
      expect((await app.exited).code).toBe(0);
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
    const again = shell(dir, FILE_PORT);
    expect(await again.loaded).toBe(`http://127.0.0.1:${port}/`);
    expect((await again.record()).messageBoxes).toEqual([]);
  }, 60_000);

  it('the environment names the port over desktop.json; a bad port stops the start with a message', async () => {
    const dir = dataDir();
    const [filePort, envPort] = [await freePort(), await freePort()];
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ port: filePort }));
    const app = shell(dir, { RETURNS_STATION_DESKTOP_PORT: String(envPort) });
    expect(await app.loaded).toBe(`http://127.0.0.1:${envPort}/`);
    await app.ask({ type: 'quit' });
    await app.exited;

    const badEnv = await shell(dir, { RETURNS_STATION_DESKTOP_PORT: '70000' }).exited;
    expect(badEnv.code).toBe(1);
    expect(badEnv.record?.errorBoxes[0]?.content).toBe('RETURNS_STATION_DESKTOP_PORT must be a port from 0 to 65535, got "70000".');
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ port: 'auto' }));
    const badFile = await shell(dir, FILE_PORT).exited;
    expect(badFile.code).toBe(1);
    expect(badFile.record?.errorBoxes[0]?.content).toMatch(/desktop\.json: port: /);
    expect(badFile.record?.utilityProcesses).toEqual([]);
  }, 60_000);
});
