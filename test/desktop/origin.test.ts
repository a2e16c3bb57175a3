import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { sampleMedia } from '../api/support.ts';
import { CHROMIUM_ARGS, chromiumExecutable } from '../support/chromium.ts';
import { type RunningShell, useShells } from './shell-process.ts';

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

/**
 * Page source (this file is type-checked without the DOM library): what the UI keeps when a package is
 * left in progress (localStorage) and a photo waits to upload (its IndexedDB queue, pending/pending-db.ts).
 */
const KEEP_WORK = `async ({ bytes, left, takenAt, accountId, packageId }) => {
  localStorage.setItem('returns-station.in-progress', JSON.stringify([left]));
  const db = await new Promise((resolve, reject) => {
    const opening = indexedDB.open('returns-station-pending');
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
  await new Promise((resolve, reject) => {
    const tx = db.transaction('uploads', 'readwrite');
    tx.objectStore('uploads').put({ id: crypto.randomUUID(), seq: Date.now(), accountId, packageId, blob: new Blob([new Uint8Array(bytes)], { type: 'image/png' }), contentType: 'image/png', capturedAt: takenAt });
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}`;

interface Connection {
  baseUrl: string;
  token: string;
  version: string;
}

/**
 * The window as Chromium on a profile that outlives the app (Electron keeps the window's storage in
 * `<data dir>/electron/`, the persist: partition): the UI loaded with what the preload would hand it.
 */
async function openWindow(profile: string, app: RunningShell, url: string): Promise<BrowserContext> {
  const connection = await app.ask<Connection>({ type: 'connection', frameUrl: url, isMainFrame: true, ownWebContents: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumExecutable(),
    args: CHROMIUM_ARGS,
    viewport: { width: 1366, height: 768 },
  });
  await context.addInitScript((value) => Object.defineProperty(globalThis, 'station', { value: Object.freeze(value) }), connection);
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(url);
  await expect.poll(() => page.getByTestId('station-version').textContent(), { timeout: 15_000 }).toMatch(/\d+\.\d+\.\d+/);
  return context;
}

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

  it('work the window held when the app quit (a photo not yet sent, a package in progress, the signed-in worker) is there after a restart, and the photo reaches the station with the time it was taken', async () => {
    const dir = dataDir();
    const profile = mkdtempSync(join(tmpdir(), 'desktop-window-'));
    const port = await freePort();
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ port, demo: true }));
    try {
      const app = shell(dir, FILE_PORT);
      const url = await app.loaded;
      const { token } = await app.ask<Connection>({ type: 'connection', frameUrl: url, isMainFrame: true, ownWebContents: true });
      const api = async (path: string) => (await fetch(new URL(path, url), { headers: { authorization: `Bearer ${token}` } })).json();
      const [pkg] = (
        (await api('/api/v1/station/lookup?code=1ZDEMO0000000001')) as {
          packages: Array<{ account_id: number; id: number; return_id: number; status: string; tracking_number: string }>;
        }
      ).packages;
      if (!pkg) throw new Error('the demo package is missing');

      let window = await openWindow(profile, app, url);
      let page = window.pages()[0];
      if (!page) throw new Error('no page');
      // A worker signs in by typing the demo's badge.
      await page.getByTestId('scan-field').pressSequentially('BADGE-001');
      await page.keyboard.press('Enter');
      await expect.poll(() => page?.getByTestId('operator').textContent()).toContain('Sam Rivera');

      // The app quits; what the window holds that the station does not: a photo taken meanwhile, a package left in progress.
      await app.ask({ type: 'quit' });
      expect((await app.exited).code).toBe(0);
      const takenAt = new Date(Date.now() - 5 * 60_000).toISOString();
      const left = { account_id: pkg.account_id, id: pkg.id, return_id: pkg.return_id, status: pkg.status, tracking_number: pkg.tracking_number };
      await page.evaluate(
        `(${KEEP_WORK})(${JSON.stringify({ bytes: [...sampleMedia('image/png', 42)], left, takenAt, accountId: pkg.account_id, packageId: pkg.id })})`,
      );
      await window.close();

      // The app starts again on the same settings: the same origin, so the window finds what it kept.
      const again = shell(dir, FILE_PORT);
      expect(await again.loaded).toBe(url);
      window = await openWindow(profile, again, url);
      page = window.pages()[0];
      if (!page) throw new Error('no page');
      await expect.poll(() => page?.getByTestId('operator').textContent()).toContain('Sam Rivera');
      await expect.poll(() => page?.locator(`[data-testid="in-progress-package"][data-tracking="${pkg.tracking_number}"]`).isVisible()).toBe(true);
      const { token: tokenAgain } = await again.ask<Connection>({ type: 'connection', frameUrl: url, isMainFrame: true, ownWebContents: true });
      const media = async () =>
        (
          (await (
            await fetch(new URL(`/api/v1/accounts/${pkg.account_id}/return_packages/${pkg.id}`, url), { headers: { authorization: `Bearer ${tokenAgain}` } })
          ).json()) as { media_files: Array<{ captured_at: string | null }> }
        ).media_files;
      await expect.poll(media, { timeout: 15_000 }).toEqual([expect.objectContaining({ captured_at: takenAt })]);
      await window.close();
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  }, 90_000);
});
