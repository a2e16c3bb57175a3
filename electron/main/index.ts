import { join } from 'node:path';
import { app, type BrowserWindow, dialog, ipcMain, Menu, session, shell } from 'electron';
import type { StationConnection } from '#shared/station-config.ts';
import { defaultDataDir } from '../station/data-dir.ts';
import { seedDemo } from '../station/demo/seed-demo.ts';
import { daysAfter } from '../station/domain/clock.ts';
import { createToken } from '../station/domain/tokens.ts';
import { openStation, type Station } from '../station/station.ts';
import { STATION_VERSION } from '../station/version.ts';
import { mayReceiveConnection } from './guards.ts';
import { menuTemplate } from './menu.ts';
import { DesktopSettingsSchema, readDesktopSettings, stationOptionsOf } from './settings.ts';
import { createStationWindow, guardSession, SESSION_PARTITION } from './window.ts';

/*
 * The desktop app is a thin shell: the same station core as `returns-station serve`, in-process on a
 * free loopback port, and one sandboxed window on its UI. Chromium's own files stay in a subfolder of
 * the data directory. See docs/architecture.md.
 */
const dataDir = defaultDataDir();
app.setPath('userData', join(dataDir, 'electron'));

let station: Station | undefined;
let window: BrowserWindow | undefined;
let quitting = false;
/** Read once at start: desktop.json edited (or broken) while the app runs must not keep it from quitting. */
let closeDeadlineSeconds = DesktopSettingsSchema.shape.closeDeadlineSeconds.parse(undefined);

async function start(): Promise<void> {
  const settings = readDesktopSettings(dataDir, process.env, process.argv);
  closeDeadlineSeconds = settings.closeDeadlineSeconds;
  station = await openStation({
    ...stationOptionsOf(settings, process.env),
    dataDir,
    rendererDir: join(app.getAppPath(), 'out/renderer'),
    command: 'Returns Station desktop app',
  });
  const origin = await station.listen('127.0.0.1', 0);
  if (settings.demo) await seedDemo(station.ctx);
  // The window's own station token lives only in memory and for one day: a new one each start.
  const { secret } = await createToken(station.store, station.ctx.clock, {
    scope: 'station',
    accountId: null,
    name: 'desktop app window',
    expiresAt: daysAfter(station.ctx.clock.now(), 1),
  });
  const connection: StationConnection = { baseUrl: origin, token: secret, version: STATION_VERSION };

  const stationSession = session.fromPartition(SESSION_PARTITION);
  guardSession(stationSession, origin);
  Menu.setApplicationMenu(
    settings.kiosk
      ? null
      : Menu.buildFromTemplate(
          menuTemplate(
            {
              openDataFolder: () => void shell.openPath(dataDir),
              // The station's own docs page, built from its own origin, never from page content.
              openApiDocs: () => void shell.openExternal(`${origin}/docs`), // eng-disable OPEN_EXTERNAL_JS_CHECK
              quit: () => app.quit(),
            },
            { debug: settings.debug, isMac: process.platform === 'darwin' },
          ),
        ),
  );
  window = createStationWindow(stationSession, origin, settings, app.isPackaged);
  const own = window;
  ipcMain.on('station:connection', (event) => {
    const frame = event.senderFrame;
    const allowed = frame !== null && mayReceiveConnection({ frameUrl: frame.url, isMainFrame: frame.parent === null, webContentsId: event.sender.id }, own.webContents.id, origin);
    event.returnValue = allowed ? connection : null;
  });
  if (settings.kiosk) {
    // A kiosk cannot be closed by accident: only the app's own quit (a station token holder) ends it.
    own.on('close', (event) => {
      if (!quitting) event.preventDefault();
    });
  }
  own.on('closed', () => (window = undefined));
  await own.loadURL(`${origin}/`);
}

/**
 * Closing waits for work in flight and says so: the station lets requests finish until the deadline,
 * then cuts the connections still open and flushes the store, which releases the data directory.
 */
async function shutDown(deadlineSeconds: number): Promise<void> {
  const closing = station;
  station = undefined;
  if (!closing) return;
  window?.setTitle(`Returns Station — finishing work in flight (at most ${deadlineSeconds} s)…`);
  const started = Date.now();
  await closing.close({ deadlineMs: deadlineSeconds * 1000 });
  if (Date.now() - started >= deadlineSeconds * 1000) process.stderr.write(`Returns Station: work still in flight after ${deadlineSeconds} s was cut off; everything committed is saved.\n`);
}

if (!app.requestSingleInstanceLock()) {
  // A second launch hands over to the running app (which focuses its window) and ends.
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  });
  app.whenReady().then(start).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`Returns Station could not start: ${message}\n`);
    dialog.showErrorBox('Returns Station could not start', message);
    app.exit(1);
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    quitting = true;
    if (!station) return;
    event.preventDefault();
    void shutDown(closeDeadlineSeconds).finally(() => app.exit(0));
  });
}
