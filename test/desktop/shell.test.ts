import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { chromium } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { STATION_APPLICATION_ID } from '../../electron/station/store/sqlite/open-database.ts';
import { CHROMIUM_ARGS, chromiumExecutable } from '../support/chromium.ts';
import { startStation } from '../support/station-process.ts';
import { MAIN_BUNDLE, type RunningShell, useShells } from './shell-process.ts';

/*
 * The desktop shell as built (out/main/index.js), under Node with a stand-in for Electron: what it asks
 * of Electron (window, web preferences, session, permission and navigation handlers, IPC, menu, quit)
 * is recorded and checked, and the UI it loads is opened in Chromium. A missing external or a bundling
 * mistake fails here, not on a warehouse PC.
 */

const { dataDir, shell } = useShells('desktop-shell-');

describe('the built desktop shell', () => {
  it('exists (run `npm run build` first)', () => {
    expect(existsSync(MAIN_BUNDLE)).toBe(true);
  });

  it('opens one sandboxed window on its own session, with guards for permissions, IPC and navigation', async () => {
    const app = shell(dataDir(), { STAND_IN_PACKAGED: '1' });
    const url = await app.loaded;
    const origin = new URL(url).origin;
    expect(url).toBe(`${origin}/`);
    expect(new URL(url).hostname).toBe('127.0.0.1');

    const record = await app.record();
    expect(record.windows).toHaveLength(1);
    const prefs = record.windows[0]?.options.webPreferences;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      devTools: false,
      session: 'persist:returns-station',
    });
    // The preload the window names was built next to the main bundle.
    expect(existsSync(resolve(MAIN_BUNDLE, '..', String(prefs?.preload)))).toBe(true);
    expect(record.partitions).toEqual(['persist:returns-station']);
    expect(record.defaultSessionTouched).toBe(false);

    // Camera only: video, asked by a frame on the station's own origin.
    const ask = (permission: string, requestingUrl: string, mediaTypes?: string[]) =>
      app.ask<boolean>({ type: 'permission', permission, requestingUrl, mediaTypes });
    expect(await ask('media', `${origin}/`, ['video'])).toBe(true);
    expect(await ask('media', `${origin}/`, ['audio'])).toBe(false);
    expect(await ask('media', `${origin}/`, ['video', 'audio'])).toBe(false);
    expect(await ask('media', 'http://127.0.0.1:1/', ['video'])).toBe(false);
    expect(await ask('media', `${origin}.evil.example/`, ['video'])).toBe(false);
    expect(await ask('geolocation', `${origin}/`)).toBe(false);
    expect(await ask('notifications', `${origin}/`)).toBe(false);
    expect(await app.ask({ type: 'permission-check', permission: 'media', requestingOrigin: origin })).toBe(true);
    expect(await app.ask({ type: 'permission-check', permission: 'media', requestingOrigin: 'http://example.com' })).toBe(false);
    expect(await app.ask({ type: 'permission-check', permission: 'clipboard-read', requestingOrigin: origin })).toBe(false);
    // A USB scale through WebHID: the station's own page only, HID devices only, the first scale offered.
    expect(await app.ask({ type: 'permission-check', permission: 'hid', requestingOrigin: origin })).toBe(true);
    expect(await app.ask({ type: 'permission-check', permission: 'hid', requestingOrigin: 'http://example.com' })).toBe(false);
    expect(await app.ask({ type: 'device-permission', deviceType: 'hid', origin })).toBe(true);
    expect(await app.ask({ type: 'device-permission', deviceType: 'hid', origin: 'http://example.com' })).toBe(false);
    expect(await app.ask({ type: 'device-permission', deviceType: 'usb', origin })).toBe(false);
    expect(await app.ask({ type: 'select-hid-device', frameUrl: `${origin}/`, deviceIds: ['scale-1', 'scale-2'] })).toEqual({
      prevented: true,
      chosen: 'scale-1',
    });
    expect(await app.ask({ type: 'select-hid-device', frameUrl: 'http://example.com/', deviceIds: ['scale-1'] })).toEqual({ prevented: true, chosen: 'none' });

    // The connection (with its station token) goes to the window's own main frame only.
    const connection = await app.ask<{ baseUrl: string; token: string; version: string } | null>({
      type: 'connection',
      frameUrl: `${origin}/`,
      isMainFrame: true,
      ownWebContents: true,
    });
    expect(Object.keys(connection ?? {}).sort()).toEqual(['baseUrl', 'token', 'version']);
    expect(connection?.baseUrl).toBe(origin);
    expect(await app.ask({ type: 'connection', frameUrl: `${origin}/`, isMainFrame: false, ownWebContents: true })).toBeNull();
    expect(await app.ask({ type: 'connection', frameUrl: 'http://example.com/', isMainFrame: true, ownWebContents: true })).toBeNull();
    expect(await app.ask({ type: 'connection', frameUrl: `${origin}/`, isMainFrame: true, ownWebContents: false })).toBeNull();

    // Navigation and new windows are refused; the station's own pages are not.
    expect(await app.ask({ type: 'navigate', event: 'will-navigate', url: 'https://example.com/' })).toBe(true);
    expect(await app.ask({ type: 'navigate', event: 'will-redirect', url: 'https://example.com/' })).toBe(true);
    expect(await app.ask({ type: 'navigate', event: 'will-navigate', url: `${origin}/docs` })).toBe(false);
    expect(await app.ask({ type: 'open-window', url: `${origin}/docs` })).toEqual({ action: 'deny' });

    // The UI the window loads works in Chromium with what the preload hands it.
    const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      await page.addInitScript((value) => Object.defineProperty(globalThis, 'station', { value: Object.freeze(value) }), connection);
      await page.goto(url);
      await expect.poll(() => page.getByTestId('station-version').textContent(), { timeout: 15_000 }).toMatch(/\d+\.\d+\.\d+/);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('has its own small menu, without devtools in a packaged build unless the debug switch is on', async () => {
    const dir = dataDir();
    const app = shell(dir, { STAND_IN_PACKAGED: '1' });
    await app.loaded;
    const menu = JSON.stringify((await app.record()).menu);
    for (const item of ['Open Data Folder', 'API Documentation', 'zoomIn', 'zoomOut', 'resetZoom', 'Quit']) expect(menu).toContain(item);
    expect(menu).not.toContain('toggleDevTools');
    expect(menu).not.toContain('reload');
    expect(await app.ask({ type: 'menu-click', label: 'Open Data Folder' })).toBe(`shell.openPath ${dir}`);
    expect(await app.ask({ type: 'menu-click', label: 'API Documentation' })).toMatch(/^shell\.openExternal http:\/\/127\.0\.0\.1:\d+\/docs$/);
    app.kill();

    const debug = shell(dataDir(), { STAND_IN_PACKAGED: '1', RETURNS_STATION_DEBUG: '1' });
    await debug.loaded;
    const record = await debug.record();
    expect(JSON.stringify(record.menu)).toContain('toggleDevTools');
    expect(record.windows[0]?.options.webPreferences.devTools).toBe(true);
  }, 60_000);

  it('runs as a kiosk when the settings file says so: full screen, no menu, the window cannot be closed by accident', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ kiosk: true }));
    const app = shell(dir);
    await app.loaded;
    const record = await app.record();
    expect(record.windows[0]?.options.kiosk).toBe(true);
    expect(record.menuSet).toBe(true);
    expect(record.menu).toBeNull();
    expect(await app.ask({ type: 'close-window' })).toBe(true);
  }, 30_000);

  it('quits by finishing work in flight, releases the data directory, and keeps its data for the next start', async () => {
    const dir = dataDir();
    const app = shell(dir, { RETURNS_STATION_DEMO: '1' });
    const url = await app.loaded;
    const connection = await app.ask<{ token: string }>({ type: 'connection', frameUrl: url, isMainFrame: true, ownWebContents: true });
    const packages = await fetch(`${new URL(url).origin}/api/v1/accounts/1001/return_packages`, { headers: { authorization: `Bearer ${connection.token}` } });
    const before = ((await packages.json()) as { meta: { total_count: number } }).meta.total_count;
    expect(before).toBeGreaterThan(0);

    await app.ask({ type: 'quit' });
    const { code, record } = await app.exited;
    expect(code).toBe(0);
    expect(record?.calls).toContain('before-quit prevented');
    expect(record?.calls).toContain('app.exit 0');

    // The directory is free again and holds what the app wrote.
    const station = await startStation({ dataDir: dir });
    const again = await fetch(`${station.origin}/api/v1/accounts/1001/return_packages`, { headers: { authorization: `Bearer ${station.stationToken}` } });
    expect(((await again.json()) as { meta: { total_count: number } }).meta.total_count).toBe(before);
    expect(await station.stop()).toBe(0);
  }, 60_000);

  it('quitting while a request is still being sent waits until the deadline, says so, then cuts it and exits', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ closeDeadlineSeconds: 1 }));
    const app = shell(dir);
    const url = new URL(await app.loaded);
    const connection = await app.ask<{ token: string }>({ type: 'connection', frameUrl: url.href, isMainFrame: true, ownWebContents: true });
    // A body announced but not sent: the request stays in flight until the deadline cuts it.
    const socket = connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/v1/station/operators HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${connection.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`,
    );
    socket.on('error', () => undefined);
    const cut = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // Nothing outside the station tells when it has parsed the headers; give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 500));

    await app.ask({ type: 'quit' });
    const { code, record, stderr } = await app.exited;
    await cut;
    expect(code).toBe(0);
    expect(record?.windows[0]?.title).toMatch(/finishing work in flight/);
    expect(stderr).toMatch(/still in flight after 1 s was cut off/);
    // The directory was released: serve opens it.
    const station = await startStation({ dataDir: dir });
    expect(await station.stop()).toBe(0);
  }, 60_000);

  it('runs on a fixed clock when a tester asks for one, and refuses a malformed one', async () => {
    const app = shell(dataDir(), { RETURNS_STATION_CLOCK_FIXED: '2027-01-04T12:00:00Z' });
    const url = new URL(await app.loaded);
    const connection = await app.ask<{ token: string }>({ type: 'connection', frameUrl: url.href, isMainFrame: true, ownWebContents: true });
    const station = await fetch(`${url.origin}/api/v1/station`, { headers: { authorization: `Bearer ${connection.token}` } });
    expect(((await station.json()) as { today: { date: string } }).today.date).toBe('2027-01-04');

    const { code, record } = await shell(dataDir(), { RETURNS_STATION_CLOCK_FIXED: 'next tuesday' }).exited;
    expect(code).toBe(1);
    expect(record?.errorBoxes[0]?.content).toMatch(/RETURNS_STATION_CLOCK_FIXED must be an ISO 8601 time/);
  }, 30_000);

  it("takes the station's settings from desktop.json and the environment over it, keeps them across a quit and a start, and refuses a bad one", async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ hotDays: 3, hotRecentMax: 500, mediaBudgetMb: 1 }));
    const storeOpen = (app: RunningShell) => {
      const line = app
        .stderr()
        .split('\n')
        .find((entry) => entry.includes('store open: the hot set is in memory'));
      return line ? (JSON.parse(line) as { hot_days: number; hot_recent_max: number }) : undefined;
    };
    const budgetOf = async (app: RunningShell) => {
      const url = new URL(await app.loaded);
      const connection = await app.ask<{ token: string }>({ type: 'connection', frameUrl: url.href, isMainFrame: true, ownWebContents: true });
      const status = await fetch(`${url.origin}/api/v1/station`, { headers: { authorization: `Bearer ${connection.token}` } });
      return ((await status.json()) as { storage: { media_budget_bytes: number | null } }).storage.media_budget_bytes;
    };

    const first = shell(dir, { RETURNS_STATION_LOG_LEVEL: 'info' });
    expect(await budgetOf(first)).toBe(1024 * 1024);
    expect(storeOpen(first)).toMatchObject({ hot_days: 3, hot_recent_max: 500 });
    // The file half-edited while the app runs does not keep it from quitting (it was read at start).
    const settingsFile = join(dir, 'desktop.json');
    const kept = readFileSync(settingsFile, 'utf8');
    writeFileSync(settingsFile, '{ "hotDays": ');
    await first.ask({ type: 'quit' });
    expect((await first.exited).code).toBe(0);
    writeFileSync(settingsFile, kept);

    // Started again on the same directory: the file still rules; a variable wins over it for this start.
    const second = shell(dir, { RETURNS_STATION_LOG_LEVEL: 'info', RETURNS_STATION_HOT_DAYS: '0', RETURNS_STATION_MEDIA_BUDGET_MB: '2' });
    expect(await budgetOf(second)).toBe(2 * 1024 * 1024);
    expect(storeOpen(second)).toMatchObject({ hot_days: 0, hot_recent_max: 500 });
    await second.ask({ type: 'quit' });
    expect((await second.exited).code).toBe(0);

    // The log level is a station setting too: at the test's default (`error`) the open is not logged.
    const quiet = shell(dir);
    await quiet.loaded;
    expect(storeOpen(quiet)).toBeUndefined();
    await quiet.ask({ type: 'quit' });
    expect((await quiet.exited).code).toBe(0);

    // A bad variable or file value stops the start with a message naming it; the data stays.
    const badEnv = await shell(dir, { RETURNS_STATION_HOT_RECENT_MAX: 'lots' }).exited;
    expect(badEnv.code).toBe(1);
    expect(badEnv.record?.errorBoxes[0]?.content).toContain('RETURNS_STATION_HOT_RECENT_MAX) must be a whole number of returns (0 or more), got "lots"');
    writeFileSync(join(dir, 'desktop.json'), JSON.stringify({ hotDays: -1 }));
    const badFile = await shell(dir).exited;
    expect(badFile.code).toBe(1);
    expect(badFile.record?.errorBoxes[0]?.content).toMatch(/desktop\.json: hotDays: /);
    expect(existsSync(join(dir, 'station.db'))).toBe(true);
  }, 60_000);

  it('a second launch hands over to the running app, which focuses its window', async () => {
    const first = shell(dataDir());
    await first.loaded;
    expect(await first.ask({ type: 'second-instance' })).toBe(true);

    const second = shell(dataDir(), { STAND_IN_SECOND_INSTANCE: '1' });
    const { code, record } = await second.exited;
    expect(code).toBe(0);
    expect(record?.windows ?? []).toHaveLength(0);
  }, 30_000);

  it('refuses a data directory written by a newer version, saying so, and exits 1', async () => {
    const dir = dataDir();
    const db = new DatabaseSync(join(dir, 'station.db'));
    db.exec(`PRAGMA application_id = ${STATION_APPLICATION_ID}; PRAGMA user_version = 999; CREATE TABLE x(y)`);
    db.close();
    const { code, record } = await shell(dir).exited;
    expect(code).toBe(1);
    expect(record?.errorBoxes[0]?.title).toBe('Returns Station could not start');
    expect(record?.errorBoxes[0]?.content).toMatch(/newer/i);
  }, 30_000);
});
