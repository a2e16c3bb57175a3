import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '#shared/api/client.ts';
import type { ManualReturnCreateInput } from '#shared/api/returns.ts';
import { returnBody } from '../api/support.ts';
import { type RunningStation, STATION_BIN, startStation } from '../support/station-process.ts';

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

/** Points a (stopped) station's data directory at an upstream, the token through stdin. */
export async function setUpstream(dataDir: string, url: string, token: string, accounts: number[]): Promise<void> {
  const result = await runCli(['upstream', 'set', '--url', url, '--token-stdin', ...accounts.flatMap((a) => ['--account', String(a)]), '--data-dir', dataDir], { input: `${token}\n` });
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
export function comparable(pkg: { tracking_number: string; status: string; estimated_arrival: string | null; weight: number | null; weight_unit: string | null; dimensions: unknown; carrier?: { id: number } | null; location_id: number | null }) {
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
export async function packagesByTracking(api: ApiClient, accountId: number): Promise<Map<string, Awaited<ReturnType<ApiClient['listPackages']>>['data'][number]>> {
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
