import type { ReturnPackage } from '#shared/api/return-packages.ts';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { ApiClient } from '#shared/api/client.ts';
import { openStore } from '../../electron/station/store/index.ts';
import { readUpstreamSettings, writeUpstreamSettings } from '../../electron/station/sync/settings.ts';
import { type FakeModes, type FakeReturnsService, startFakeReturnsService } from './fake-returns-service.ts';
import { setSpecUpstream } from './spec-support.ts';
import { RETURN_BODY, runCli, setUpstream, startLocal, tempDir, tracking, waitFor } from './support.ts';
import { type RunningStation, startStation } from '../support/station-process.ts';

/*
 * A site as real processes: a hub (`serve` on the spec-only fake) and stations whose upstream is the
 * hub, each with a station token of its own on the hub (the hub holds at most 8 event streams a
 * token and account). For the site tests and the bench's `site` section.
 */

export const SITE_ACCOUNT = 1;
const ENV = { RETURNS_STATION_LOG_LEVEL: 'warn' };

export interface Site {
  fake: FakeReturnsService;
  hub: RunningStation;
  hubApi: ApiClient;
  stations: Array<{ station: RunningStation; api: ApiClient }>;
  /** Tracking numbers of the open packages made at the hub (on every station once `startSite` resolved). */
  trackings: string[];
  /** Starts the hub again on its data directory and port (after a kill or a stop). */
  restartHub(): Promise<void>;
  stop(): Promise<void>;
}

/** A join code made by `site invite` on the hub's data directory (the hub running or not); its stderr when refused. */
export async function inviteCode(hubDir: string): Promise<string> {
  const made = await runCli(['site', 'invite', '--data-dir', hubDir]);
  if (made.status !== 0) throw new Error(`site invite exited ${made.status}: ${made.stderr}`);
  return made.stdout.trim();
}

/** A port free on loopback now (a hub restarted on its port keeps the address its members joined). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts the fake, the hub and `stations` stations, makes `packages` open packages at the hub (a
 * moment apart: distinct `updated_at`, so the stations see the hub honour `updated_since`), and
 * resolves once every station has them (and, unless `following: false`, follows the hub's events).
 * `upstreamOf` gives the address each station is pointed at (a proxy before the hub, for a baseline).
 */
export async function startSite(options: {
  stations: number;
  packages: number;
  upstreamOf?: (hubOrigin: string) => Promise<string> | string;
  following?: boolean;
  env?: Record<string, string>;
  /**
   * The hub's own environment when it differs from the stations' (default: `env`). A pull interval
   * of a second suits stations polling a hub; a hub polling the returns service that often spends
   * the account's hourly budget on reads and its pushes wait behind them.
   */
  hubEnv?: Record<string, string>;
  /** The stations joined the hub (their settings carry `site`): the whole receipt travels. */
  joined?: boolean;
  fakeModes?: Partial<FakeModes>;
}): Promise<Site> {
  const fake = await startFakeReturnsService({ accounts: [SITE_ACCOUNT], ...(options.fakeModes ? { modes: options.fakeModes } : {}) });
  const hubDir = tempDir('site-hub-');
  const dirs = Array.from({ length: options.stations }, (_, i) => tempDir(`site-${i}-`));
  const env = { ...ENV, ...options.env };
  const hubEnv = { ...ENV, ...(options.hubEnv ?? options.env) };
  const tokens: string[] = [];
  while (tokens.length < dirs.length) {
    const made = await runCli(['token', 'create', '--station', '--data-dir', hubDir]);
    if (made.status !== 0) throw new Error(made.stderr);
    tokens.push(made.stdout.trim());
  }
  await setSpecUpstream(hubDir, fake, [SITE_ACCOUNT]);
  const port = await freePort();
  const started = async () => {
    const hub = await startStation({ dataDir: hubDir, args: ['--port', String(port)], env: hubEnv });
    return { hub, hubApi: new ApiClient({ baseUrl: hub.origin, token: hub.stationToken }) };
  };
  const site: Site = {
    fake,
    ...(await started()),
    stations: [],
    trackings: [],
    async restartHub() {
      await site.hub.stop();
      Object.assign(site, await started());
    },
    async stop() {
      for (const { station } of site.stations) await station.stop();
      await site.hub.stop();
      await fake.close();
      for (const dir of [hubDir, ...dirs]) rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    const ret = await site.hubApi.createReturn({ ...RETURN_BODY, account_id: SITE_ACCOUNT });
    for (let i = 0; i < options.packages; i += 1) {
      site.trackings.push((await site.hubApi.createPackage(SITE_ACCOUNT, { return_id: ret.id, tracking_number: tracking('SITE') })).tracking_number);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const upstream = await (options.upstreamOf ?? ((origin: string) => origin))(site.hub.origin);
    for (const [i, dir] of dirs.entries()) {
      await setUpstream(dir, upstream, tokens[i] ?? '', [SITE_ACCOUNT]);
      if (options.joined) await joinByHand(dir, i);
      site.stations.push(await startLocal(dir, env));
    }
    const last = site.trackings.at(-1) ?? '';
    for (const { api } of site.stations) {
      await waitFor(
        'the station has the hub’s packages',
        async () => (options.following === false || (await api.station()).sync.upstream_events === 'following') && (await statusAt(api, last)) !== undefined,
        120_000,
      );
    }
  } catch (error) {
    await site.stop();
    throw error;
  }
  return site;
}

/**
 * What `site join` will write (its engineer's part): the hub's pin and a member id beside the
 * upstream settings `upstream set` wrote. The hub is reached over plain loopback HTTP here, so the pin
 * is a stand-in.
 */
async function joinByHand(dataDir: string, member: number): Promise<void> {
  const store = await openStore({ dataDir });
  try {
    const settings = await readUpstreamSettings(store);
    if (!settings) throw new Error('no upstream settings to join with');
    const site = {
      hub_ca_pem: '-----BEGIN CERTIFICATE-----\nstand-in\n-----END CERTIFICATE-----\n',
      hub_ca_sha256: Array.from({ length: 32 }, () => 'AB').join(':'),
      member_id: `member-${member}`,
    };
    await writeUpstreamSettings(store, { ...settings, site }, new Date().toISOString());
  } finally {
    await store.close();
  }
}

/** The package's status at a station, by tracking number (each station has its own ids). */
/** The site account's package with this tracking number, whole, as a station has it (an error when it is not there). */
export async function packageAt(api: ApiClient, trackingNumber: string): Promise<ReturnPackage> {
  const found = (await api.lookup(trackingNumber)).packages[0];
  if (!found) throw new Error(`${trackingNumber} is not on the station`);
  return api.getPackage(SITE_ACCOUNT, found.id);
}

export async function statusAt(api: ApiClient, trackingNumber: string): Promise<string | undefined> {
  return (await api.lookup(trackingNumber)).packages[0]?.status;
}

/** Receives the package at one station; resolves to how long each other station took to show it received (ms). */
export async function receiveAndTime(at: ApiClient, others: ApiClient[], trackingNumber: string, timeoutMs: number): Promise<number[]> {
  const local = (await at.lookup(trackingNumber)).packages[0];
  if (!local) throw new Error(`${trackingNumber} is not on the station`);
  const start = Date.now();
  await at.updatePackage(SITE_ACCOUNT, local.id, { status: 'received' });
  return Promise.all(
    others.map(
      async (api) =>
        (await waitFor(`${trackingNumber} received`, async () => (await statusAt(api, trackingNumber)) === 'received' && Date.now() - start, timeoutMs)) || 0,
    ),
  );
}
