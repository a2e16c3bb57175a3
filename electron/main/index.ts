import { join } from 'node:path';
import { app, type BrowserWindow, dialog, ipcMain, Menu, session, shell } from 'electron';
import type { StationConnection } from '#shared/station-config.ts';
import { defaultDataDir } from '../station/data-dir.ts';
import { stationV8Flags } from '../station/heap/start-flags.ts';
import { STATION_VERSION } from '../station/version.ts';
import { type CoreProcess, type CoreReady, CoreStartError, mayRestart, startCore } from './core-process.ts';
import { mayReceiveConnection } from './guards.ts';
import { menuTemplate } from './menu.ts';
import { portOf, portTakenNotice } from './origin-notice.ts';
import { printPdfToSystemPrinter } from './system-print.ts';
import { type DesktopSettings, DesktopSettingsSchema, readDesktopSettings, SETTINGS_FILE } from './settings.ts';
import { createStationWindow, guardSession, SESSION_PARTITION } from './window.ts';

/*
 * The desktop app is a thin shell: the same station core as `returns-station serve`, in its own
 * process (an Electron utilityProcess, electron/core/) on the port (and host) desktop.json keeps (the
 * window's origin, the same at every start), and one sandboxed
 * window on its UI. This process keeps the window, the menu and the quit sequence, and starts the
 * core again when it crashes. Chromium's own files stay in a subfolder of the data directory. See
 * docs/architecture.md and docs/decisions/core-process.md.
 */
const dataDir = defaultDataDir();
app.setPath('userData', join(dataDir, 'electron'));

let core: CoreProcess | undefined;
let window: BrowserWindow | undefined;
let quitting = false;
let closingCore: Promise<void> | undefined;
/** Read once at start: desktop.json edited (or broken) while the app runs must not keep it from quitting. */
let closeDeadlineSeconds = DesktopSettingsSchema.shape.closeDeadlineSeconds.parse(undefined);
/** The station as the window reaches it; a restarted core gets a new token (and a new port if its old one is taken). */
let station: CoreReady = { origin: '', token: '', servedCertificate: null };
let restarts: number[] = [];
let launchCore: (port: number) => Promise<CoreReady> = () => Promise.reject(new Error('not started'));

/** Starts a core process on the settings read at start; the current one is `core`. */
function coreLauncher(settings: DesktopSettings): (port: number) => Promise<CoreReady> {
  // A bad RETURNS_STATION_SEMI_SPACE_MB or …_HEAP_GROWTH_PERCENT stops the start here, with its message.
  const v8Flags = stationV8Flags(process.env);
  return (port) => {
    const started = startCore({
      modulePath: join(import.meta.dirname, 'core.js'),
      v8Flags,
      open: { dataDir, rendererDir: join(app.getAppPath(), 'out/renderer'), settings, port },
      print: printPdfToSystemPrinter,
    });
    core = started;
    void started.exited.then((code) => {
      if (core !== started) return;
      core = undefined;
      // A core that never became ready is answered by whoever awaits its `ready`; a close, by the quit.
      if (started.wasReady() && !quitting) restartAfterCrash(code);
    });
    return started.ready;
  };
}

async function start(): Promise<void> {
  const settings = readDesktopSettings(dataDir, process.env, process.argv);
  closeDeadlineSeconds = settings.closeDeadlineSeconds;
  launchCore = coreLauncher(settings);
  station = await launchCore(settings.port);
  const origin = () => station.origin;

  const stationSession = session.fromPartition(SESSION_PARTITION);
  guardSession(stationSession, origin, () => station.servedCertificate);
  Menu.setApplicationMenu(
    settings.kiosk
      ? null
      : Menu.buildFromTemplate(
          menuTemplate(
            {
              openDataFolder: () => void shell.openPath(dataDir),
              // The station's own docs page, built from its own origin, never from page content.
              openApiDocs: () => void shell.openExternal(`${origin()}/docs`), // eng-disable OPEN_EXTERNAL_JS_CHECK
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
    const allowed =
      frame !== null &&
      mayReceiveConnection({ frameUrl: frame.url, isMainFrame: frame.parent === null, webContentsId: event.sender.id }, own.webContents.id, origin());
    const connection: StationConnection = { baseUrl: origin(), token: station.token, version: STATION_VERSION };
    event.returnValue = allowed ? connection : null;
  });
  if (settings.kiosk) {
    // A kiosk cannot be closed by accident: only the app's own quit (a station token holder) ends it.
    own.on('close', (event) => {
      if (!quitting) event.preventDefault();
    });
  }
  own.on('closed', () => (window = undefined));
  await own.loadURL(`${origin()}/`);
  sayIfMoved(settings.port);
}

/** The station could not have the port whose origin holds the window's kept work: say where that work is (origin-notice.ts). */
function sayIfMoved(kept: number): void {
  const used = portOf(station.origin);
  if (kept === 0 || used === kept || !window) return;
  const notice = portTakenNotice(kept, used, join(dataDir, SETTINGS_FILE));
  process.stderr.write(`Returns Station: ${notice.message} ${notice.detail}\n`);
  void dialog.showMessageBox(window, { type: 'warning', title: notice.title, message: notice.message, detail: notice.detail });
}

/**
 * A core that stopped after it was ready (a crash, a kill, out of memory) is started again on the
 * same data, on the same port when it is free, and the window is loaded again on it: the UI's unsent
 * work is kept in the browser under its origin and replayed. At most MAX_RESTARTS a minute; one more
 * crash stops the app with a message rather than restart for ever.
 */
function restartAfterCrash(code: number): void {
  const budget = mayRestart(restarts, Date.now());
  restarts = budget.restarts;
  if (!budget.allowed) {
    stop(
      'Returns Station stopped',
      `The station stopped unexpectedly ${budget.restarts.length + 1} times within a minute (last exit code ${code}). Everything it had saved is kept in ${dataDir}. Start the app again; if this goes on, contact support.`,
    );
    return;
  }
  process.stderr.write(`Returns Station: the station core stopped unexpectedly (exit code ${code}); starting it again.\n`);
  window?.setTitle('Returns Station — starting the station again…');
  const port = portOf(station.origin);
  launchCore(port).then(
    async (ready) => {
      station = ready;
      if (quitting || !window) return;
      window.setTitle('Returns Station');
      await window.loadURL(`${ready.origin}/`);
      sayIfMoved(port);
    },
    (error: unknown) => {
      // One that stopped without a word is a crash like the first (its exit handler counts it); one that said why is final.
      if (error instanceof CoreStartError && !error.refused) {
        if (!quitting) restartAfterCrash(error.exitCode ?? -1);
        return;
      }
      stop('Returns Station stopped', `The station could not start again: ${error instanceof Error ? error.message : String(error)}`);
    },
  );
}

function stop(title: string, message: string): void {
  process.stderr.write(`${title}: ${message}\n`);
  dialog.showErrorBox(title, message);
  app.exit(1);
}

/**
 * Closing waits for work in flight and says so: the core lets requests finish until the deadline,
 * then cuts the connections still open and flushes the store, which releases the data directory;
 * then it exits. A core that has not exited well after the deadline is ended.
 */
async function shutDown(closing: CoreProcess, deadlineSeconds: number): Promise<void> {
  window?.setTitle(`Returns Station — finishing work in flight (at most ${deadlineSeconds} s)…`);
  const started = Date.now();
  closing.close(deadlineSeconds * 1000);
  const hung = setTimeout(
    () => {
      process.stderr.write(`Returns Station: the station core had not closed ${deadlineSeconds + 30} s after it was asked; ending it.\n`);
      closing.kill();
    },
    (deadlineSeconds + 30) * 1000,
  );
  await closing.exited;
  clearTimeout(hung);
  if (Date.now() - started >= deadlineSeconds * 1000)
    process.stderr.write(`Returns Station: work still in flight after ${deadlineSeconds} s was cut off; everything committed is saved.\n`);
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
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`Returns Station could not start: ${message}\n`);
      dialog.showErrorBox('Returns Station could not start', message);
      app.exit(1);
    });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    quitting = true;
    const closing = core;
    if (!closing) return;
    // Quit again while the core closes: it still closes (a second quit must not cut its store's flush).
    event.preventDefault();
    closingCore ??= shutDown(closing, closeDeadlineSeconds).finally(() => app.exit(0));
  });
}
