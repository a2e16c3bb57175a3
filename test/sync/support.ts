import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { ApiClient } from '#shared/api/client.ts';
import type { MediaFile } from '#shared/api/media.ts';
import type { ManualReturnCreateInput } from '#shared/api/returns.ts';
import { returnBody } from '../api/support.ts';
import { type RunningStation, STATION_BIN, startStation } from '../support/station-process.ts';
import { seededRandom } from '../support/test-seed.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';

/*
 * Sync tests run real processes: the upstream is a second `returns-station serve` with its own data
 * directory, the station under test is driven through its real commands (`upstream set`,
 * `sync --once`, `serve`).
 */

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real command. Asynchronous on purpose: a fault proxy in this process must keep answering
 * while the command talks through it.
 */
export function runCli(args: string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [STATION_BIN, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, RETURNS_STATION_LOG_LEVEL: 'warn', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface Upstream {
  station: RunningStation;
  origin: string;
  dataDir: string;
  /** The token the station under test syncs with (account tokens of each account, or a station token). */
  syncToken: string;
  api: ApiClient;
  stop(): Promise<void>;
  restart(): Promise<void>;
}

/**
 * A second station as the upstream, with the given accounts. `tokenScope: 'account'` (one account
 * only) gives the sync an account token, throttled like the returns service's returns endpoints.
 */
export async function startUpstream(options: { accounts: number[]; tokenScope?: 'account' | 'station'; env?: Record<string, string> }): Promise<Upstream> {
  const dataDir = tempDir('sync-upstream-');
  let syncToken = '';
  for (const account of options.accounts) {
    const made = await runCli(['token', 'create', '--account', String(account), '--data-dir', dataDir]);
    if (made.status !== 0) throw new Error(made.stderr);
    syncToken = made.stdout.trim();
  }
  if (options.tokenScope !== 'account') {
    const made = await runCli(['token', 'create', '--station', '--data-dir', dataDir]);
    if (made.status !== 0) throw new Error(made.stderr);
    syncToken = made.stdout.trim();
  }
  const env = { RETURNS_STATION_LOG_LEVEL: 'warn', ...options.env };
  const upstream: Upstream = {
    station: await startStation({ dataDir, env }),
    origin: '',
    dataDir,
    syncToken,
    api: undefined as unknown as ApiClient,
    async stop() {
      await upstream.station.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    async restart() {
      await upstream.station.stop();
      upstream.station = await startStation({ dataDir, env });
      upstream.origin = upstream.station.origin;
      upstream.api = new ApiClient({ baseUrl: upstream.origin, token: upstream.station.stationToken });
    },
  };
  upstream.origin = upstream.station.origin;
  upstream.api = new ApiClient({ baseUrl: upstream.origin, token: upstream.station.stationToken });
  return upstream;
}

/** What a sync test file works with: an upstream station, the fault proxy before it, and the station under test's data directory. */
export interface SyncRig {
  readonly upstream: Upstream;
  readonly proxy: FaultProxy;
  readonly dataDir: string;
}

/**
 * Starts an upstream (see startUpstream) behind a fault proxy before the file's tests, and stops
 * both and removes the data directories after them. Read the fields inside tests (they are set once
 * `beforeAll` ran).
 */
export function useProxiedUpstream(options: { accounts: number[]; dataDirPrefix: string; env?: Record<string, string> }): SyncRig {
  const dataDir = tempDir(options.dataDirPrefix);
  let upstream: Upstream | undefined;
  let proxy: FaultProxy | undefined;
  beforeAll(async () => {
    upstream = await startUpstream({ accounts: options.accounts, ...(options.env ? { env: options.env } : {}) });
    proxy = await startFaultProxy(upstream.origin);
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await upstream?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`The ${what} is not started yet (read it inside a test).`);
    return value;
  };
  return {
    dataDir,
    get upstream() {
      return started(upstream, 'upstream');
    },
    get proxy() {
      return started(proxy, 'fault proxy');
    },
  };
}

/** Points a (stopped) station's data directory at an upstream, the token through stdin. */
export async function setUpstream(dataDir: string, url: string, token: string, accounts: number[]): Promise<void> {
  const result = await runCli(['upstream', 'set', '--url', url, '--token-stdin', ...accounts.flatMap((a) => ['--account', String(a)]), '--data-dir', dataDir], {
    input: `${token}\n`,
  });
  if (result.status !== 0) throw new Error(`upstream set failed: ${result.stderr}`);
}

export function syncOnce(dataDir: string): Promise<CliResult> {
  return runCli(['sync', '--once', '--data-dir', dataDir]);
}

/** A running station under test, and its API client. */
export async function startLocal(dataDir: string, env: Record<string, string> = {}): Promise<{ station: RunningStation; api: ApiClient }> {
  const station = await startStation({ dataDir, env: { RETURNS_STATION_LOG_LEVEL: 'warn', ...env } });
  return { station, api: new ApiClient({ baseUrl: station.origin, token: station.stationToken }) };
}

/** When killServeAtRandom kills, from the run's seed: a replay kills at the same times. */
const killAt = seededRandom('killServeAtRandom');

/**
 * Starts `serve` on the data directory `kills` times and SIGKILLs it after a random time in
 * [minMs, minMs + spreadMs): its sync rounds are cut at random points (slow them with the proxy's delay).
 */
export async function killServeAtRandom(dataDir: string, { kills = 4, minMs, spreadMs }: { kills?: number; minMs: number; spreadMs: number }): Promise<void> {
  for (let kill = 0; kill < kills; kill += 1) {
    const running = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '200' });
    await new Promise((resolve) => setTimeout(resolve, minMs + Math.floor(killAt() * spreadMs)));
    running.station.process.kill('SIGKILL');
    await running.station.stop();
  }
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let counter = 0;
export function tracking(prefix = 'SYNC'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`.toUpperCase();
}

/** The API suite's manual return, as a station token sends it (without `account_id`: add it). */
export const RETURN_BODY: ManualReturnCreateInput = returnBody();

/** The fields both sides must agree on after sync, by tracking number (ids differ by design). */
export function comparable(pkg: {
  tracking_number: string;
  status: string;
  estimated_arrival: string | null;
  weight: number | null;
  weight_unit: string | null;
  dimensions: unknown;
  carrier?: { id: number } | null;
  location_id: number | null;
}) {
  return {
    tracking_number: pkg.tracking_number,
    status: pkg.status,
    estimated_arrival: pkg.estimated_arrival,
    weight: pkg.weight,
    weight_unit: pkg.weight_unit,
    dimensions: pkg.dimensions,
    carrier_id: pkg.carrier?.id ?? null,
    location_id: pkg.location_id,
  };
}

/** Every package of an account, by tracking number; fails on a tracking number seen twice (a duplicate). */
export async function packagesByTracking(
  api: ApiClient,
  accountId: number,
): Promise<Map<string, Awaited<ReturnType<ApiClient['listPackages']>>['data'][number]>> {
  const byTracking = new Map<string, Awaited<ReturnType<ApiClient['listPackages']>>['data'][number]>();
  for (let page = 1; ; page += 1) {
    const answer = await api.listPackages(accountId, { page, per_page: 250, sort: 'id' });
    for (const pkg of answer.data) {
      if (byTracking.has(pkg.tracking_number)) throw new Error(`Duplicate package ${pkg.tracking_number}`);
      byTracking.set(pkg.tracking_number, pkg);
    }
    if (page >= answer.meta.total_pages) return byTracking;
  }
}

/** A JPEG of about `kib` KiB whose bytes depend on `seed` (a valid magic number, the rest noise). */
export function photo(seed: number, kib = 1): Uint8Array {
  const body = new Uint8Array(kib * 1024);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < body.length; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    body[i] = x & 0xff;
  }
  return new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...body, 0xff, 0xd9]);
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Attaches a photo to a package through the station's API. */
export function attachPhoto(api: ApiClient, accountId: number, packageId: number, bytes: Uint8Array): Promise<MediaFile> {
  return api.uploadMedia(accountId, packageId, new Blob([bytes]), { contentType: 'image/jpeg' });
}

/**
 * The bytes behind each media file of a package (read through its capability URL), by sha256.
 * `unique`: fails when the package holds the same bytes twice (an upload that went up twice).
 */
export async function mediaOf(api: ApiClient, accountId: number, packageId: number, { unique = false } = {}): Promise<Map<string, Uint8Array>> {
  const files = (await api.getPackage(accountId, packageId)).media_files;
  const bytes = new Map<string, Uint8Array>();
  for (const file of files) {
    const answer = await fetch(file.url);
    if (!answer.ok) throw new Error(`media ${file.url}: ${answer.status}`);
    const data = new Uint8Array(await answer.arrayBuffer());
    const sha256 = sha256Of(data);
    if (unique && bytes.has(sha256)) throw new Error(`Package ${packageId} holds the same bytes twice (${sha256}).`);
    bytes.set(sha256, data);
  }
  return bytes;
}

/** What each local package holds, by tracking number: sha256 → bytes (the station's own answer). */
async function localMedia(api: ApiClient, accountId: number): Promise<Map<string, Map<string, Uint8Array>>> {
  const byTracking = new Map<string, Map<string, Uint8Array>>();
  for (const [trackingNumber, pkg] of await packagesByTracking(api, accountId)) byTracking.set(trackingNumber, await mediaOf(api, accountId, pkg.id));
  return byTracking;
}

/** Every package's media upstream equal byte for byte to the station's, each hash once. */
export async function expectSameMedia(api: ApiClient, upstreamApi: ApiClient, accountId: number): Promise<number> {
  const mine = await localMedia(api, accountId);
  const theirs = await packagesByTracking(upstreamApi, accountId);
  let files = 0;
  for (const [trackingNumber, media] of mine) {
    const twin = theirs.get(trackingNumber);
    if (!twin) throw new Error(`${trackingNumber} is not upstream`);
    const upstreamMedia = await mediaOf(upstreamApi, accountId, twin.id, { unique: true });
    expect([...upstreamMedia.keys()].sort(), trackingNumber).toEqual([...media.keys()].sort());
    for (const [sha256, bytes] of media)
      expect(Buffer.from(upstreamMedia.get(sha256) ?? []).equals(Buffer.from(bytes)), `${trackingNumber} ${sha256}`).toBe(true);
    files += media.size;
  }
  return files;
}
