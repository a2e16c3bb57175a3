import { join } from 'node:path';
import { app, BrowserWindow, ipcMain, session } from 'electron';
import type { StationConnection } from '#shared/station-config.ts';
import { defaultDataDir } from '../station/data-dir.ts';
import { DataDirLockedError } from '../station/data-dir-lock.ts';
import { createToken } from '../station/domain/tokens.ts';
import { openStation, type Station } from '../station/station.ts';
import { STATION_VERSION } from '../station/version.ts';

// The desktop app is a thin shell: the same station core as `returns-station serve`, in-process on a
// free loopback port, and a sandboxed window on its UI. Chromium's own files stay in a subfolder.
const dataDir = defaultDataDir();
app.setPath('userData', join(dataDir, 'electron'));

let station: Station | undefined;
let connection: StationConnection | undefined;

async function start(): Promise<void> {
  station = await openStation({ dataDir, rendererDir: join(app.getAppPath(), 'out/renderer'), command: 'Returns Station desktop app' });
  const origin = await station.listen('127.0.0.1', 0);
  // The window's own station token lives only in memory and for one day: a new one each start.
  const { secret } = await createToken(station.store, station.ctx.clock, {
    scope: 'station',
    accountId: null,
    name: 'desktop app window',
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  connection = { baseUrl: origin, token: secret, version: STATION_VERSION };

  ipcMain.on('station:connection', (event) => {
    event.returnValue = connection;
  });
  // The camera is the only permission the UI needs, and only for the station's own origin.
  session.defaultSession.setPermissionRequestHandler((webContents, permission, callback) => {
    callback(permission === 'media' && webContents.getURL().startsWith(`${origin}/`));
  });

  const window = new BrowserWindow({
    width: 1280,
    height: 860,
    title: 'Returns Station',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${origin}/`)) event.preventDefault();
  });
  await window.loadURL(`${origin}/`);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.whenReady().then(start).catch((error: unknown) => {
    const message = error instanceof DataDirLockedError ? error.message : `The station could not start: ${String(error)}`;
    process.stderr.write(`${message}\n`);
    app.exit(1);
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (!station) return;
    // Finish in-flight requests and flush the store before the process ends.
    event.preventDefault();
    const closing = station;
    station = undefined;
    closing.close().finally(() => app.quit());
  });
}
