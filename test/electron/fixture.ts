import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { _electron as electron, type ElectronApplication, type Page, test as base } from '@playwright/test';
import { ApiClient } from '../../shared/api/client.ts';

/*
 * The Playwright fixture for the desktop app, for this repository's specs and for a QA team's own
 * (import { test, expect } from '<repo>/test/electron/fixture.ts'). See docs/testing.md.
 *
 * It launches the packaged app when RETURNS_STATION_APP names its executable (AppImage, .exe, or the
 * binary inside Returns Station.app), else the unpackaged build (`npm run build`, then Electron on the
 * checkout). Every test gets a fresh, isolated data directory.
 */

export interface DesktopOptions {
  /** Seed demo data into the empty store at start. */
  demo: boolean;
  /** Start the station's clock at this time (it then runs on), e.g. to test expiry or retention. */
  clock: Date | undefined;
  /** With `clock`: the station's clock stands still at that time (deterministic dates and counts). */
  freezeClock: boolean;
}

export interface DesktopApp {
  app: ElectronApplication;
  /** The station window. */
  window: Page;
  /** The station's API origin and the window's station token: arrange data through the API. */
  baseUrl: string;
  token: string;
  api: ApiClient;
  dataDir: string;
  /** Quits the app (gracefully) and launches it again on the same data directory. */
  restart(): Promise<DesktopApp>;
}

/** Where the Electron binary or the packaged app is, or why there is none. */
export function desktopExecutable(): { path: string; args: string[] } | { missing: string } {
  const packaged = process.env.RETURNS_STATION_APP;
  if (packaged) return existsSync(packaged) ? { path: packaged, args: [] } : { missing: `RETURNS_STATION_APP=${packaged} does not exist` };
  const electronDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const pathFile = join(electronDir, 'path.txt');
  const binary = existsSync(pathFile) ? join(electronDir, 'dist', readFileSync(pathFile, 'utf8')) : null;
  if (binary === null || !existsSync(binary))
    return { missing: 'Electron binary not installed (run `npx install-electron` where its download host is reachable, or set RETURNS_STATION_APP)' };
  return { path: binary, args: [join(import.meta.dirname, '../..')] };
}

export async function launchDesktop(dataDir: string, options: Partial<DesktopOptions> = {}, extraArgs: string[] = []): Promise<DesktopApp> {
  const executable = desktopExecutable();
  if ('missing' in executable) throw new Error(executable.missing);
  const env: Record<string, string> = { ...(process.env as Record<string, string>), RETURNS_STATION_DATA_DIR: dataDir };
  if (options.demo) env.RETURNS_STATION_DEMO = '1';
  if (options.clock && options.freezeClock) env.RETURNS_STATION_CLOCK_FIXED = options.clock.toISOString();
  else if (options.clock) env.RETURNS_STATION_CLOCK_OFFSET = String(options.clock.getTime() - Date.now());
  const app = await electron.launch({
    executablePath: executable.path,
    args: [...executable.args, '--use-fake-device-for-media-stream', ...extraArgs],
    env,
  });
  const window = await app.firstWindow();
  const connection = await window.evaluate(() => (globalThis as { station?: { baseUrl: string; token: string } }).station);
  if (!connection) throw new Error('The window has no station connection.');
  const desktop: DesktopApp = {
    app,
    window,
    baseUrl: connection.baseUrl,
    token: connection.token,
    api: new ApiClient({ baseUrl: connection.baseUrl, token: connection.token }),
    dataDir,
    async restart() {
      await app.close();
      return launchDesktop(dataDir, { clock: options.clock, freezeClock: options.freezeClock }, extraArgs);
    },
  };
  return desktop;
}

export const test = base.extend<DesktopOptions & { desktop: DesktopApp }>({
  demo: [false, { option: true }],
  clock: [undefined, { option: true }],
  freezeClock: [false, { option: true }],
  desktop: async ({ demo, clock, freezeClock }, use, testInfo) => {
    const executable = desktopExecutable();
    testInfo.skip('missing' in executable, 'missing' in executable ? executable.missing : '');
    const dataDir = mkdtempSync(join(tmpdir(), 'returns-station-desktop-'));
    let current = await launchDesktop(dataDir, { demo, clock, freezeClock });
    await use({
      ...current,
      restart: async () => {
        current = await current.restart();
        return current;
      },
    });
    await current.app.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  },
});
export { expect } from '@playwright/test';
