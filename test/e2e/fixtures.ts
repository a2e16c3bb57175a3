import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base } from '@playwright/test';
import { fetchTrusting } from '../../electron/station/tls/pinned-fetch.ts';
import { ApiClient } from '../../shared/api/client.ts';
import { DEFAULT_WEIGHT_CHECK } from '../../shared/api/weight-check.ts';
import { DEMO_OPERATORS } from '../../electron/station/demo/seed-demo.ts';
import { type RunningStation, startStation } from '../support/station-process.ts';

const UI_LINK = /^Open the station UI: (https?:\/\/\S+)$/m;

/**
 * A `serve --demo` station: its UI link (with the terminal token the page uses), and a typed client
 * on the command line's administrative token (`stationToken`), to set the station up and read what it recorded.
 */
export interface DemoStation extends RunningStation {
  uiUrl: string;
  token: string;
  api: ApiClient;
}

/** The demo's supervisor: badge and PIN for the settings. */
export const DEMO_SUPERVISOR = (() => {
  const supervisor = DEMO_OPERATORS.find((o) => o.role === 'supervisor');
  if (!supervisor || !('pin' in supervisor)) throw new Error('The demo has no supervisor with a PIN.');
  return supervisor;
})();

async function waitForLink(station: RunningStation, timeoutMs = 20_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const match = UI_LINK.exec(station.output().stdout);
    if (match?.[1]) return match[1];
    if (Date.now() > until) throw new Error(`serve --demo printed no UI link:\n${station.output().stdout}\n${station.output().stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts a `serve --demo` station of a test's own (e.g. one the test stops and starts again). */
export async function startDemoStation(
  options: {
    dataDir?: string;
    port?: number;
    /** More `serve` flags (`--host`). */ args?: string[];
    /** Startup settings from the environment. */ env?: Record<string, string>;
  } = {},
): Promise<DemoStation> {
  const args = ['--demo', ...(options.port === undefined ? [] : ['--port', String(options.port)]), ...(options.args ?? [])];
  const station = await startStation({
    args,
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  const uiUrl = await waitForLink(station);
  const token = new URLSearchParams(new URL(uiUrl).hash.slice(1)).get('token');
  if (!token) throw new Error(`The UI link carries no token: ${uiUrl}`);
  // Over TLS the test's client trusts the station's own certificate authority alone.
  const fetch = station.tlsFingerprint === null ? undefined : fetchTrusting({ ca: readFileSync(join(station.dataDir, 'tls', 'site-ca.pem'), 'utf8') });
  return { ...station, uiUrl, token, api: new ApiClient({ baseUrl: station.origin, token: station.stationToken, ...(fetch ? { fetch } : {}) }) };
}

/** The demo station each worker started, by worker index (none until a test asks for one). */
const demoStations = new Map<number, DemoStation>();

/** Each worker drives its own real `returns-station serve` with a temporary data directory. */
export const test = base.extend<{ stationSettingsRestored: undefined }, { station: RunningStation; demo: DemoStation }>({
  // The station's settings are shared by every terminal, so a test that changes them on its worker's
  // demo station puts them back afterwards (only when a demo station was started for it).
  stationSettingsRestored: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, testInfo) => {
      await use(undefined);
      const demo = demoStations.get(testInfo.workerIndex);
      if (demo) {
        await demo.api.updateStationSettings({
          scanner: null,
          currency: null,
          unset_conditions: 'confirm',
          serial_rules: [],
          weight_check: DEFAULT_WEIGHT_CHECK,
        });
        await demo.api.chooseScale({ kind: 'manual' });
      }
    },
    { auto: true },
  ],
  station: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: it must be `{}`.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const station = await startStation();
      await use(station);
      await station.stop();
    },
    { scope: 'worker' },
  ],
  demo: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const station = await startDemoStation();
      demoStations.set(workerInfo.workerIndex, station);
      await use(station);
      demoStations.delete(workerInfo.workerIndex);
      await station.stop();
    },
    { scope: 'worker' },
  ],
});
export { expect } from '@playwright/test';
