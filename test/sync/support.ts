import { spawnSync } from 'node:child_process';
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

export function runCli(args: string[], options: { input?: string; env?: Record<string, string> } = {}): CliResult {
  const result = spawnSync(process.execPath, [STATION_BIN, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    input: options.input ?? '',
    env: { ...process.env, RETURNS_STATION_LOG_LEVEL: 'warn', ...options.env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
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
 * only) gives the sync an account token, throttled like the spec's returns endpoints.
 */
export async function startUpstream(options: { accounts: number[]; tokenScope?: 'account' | 'station'; env?: Record<string, string> }): Promise<Upstream> {
  const dataDir = tempDir('sync-upstream-');
  let syncToken = '';
  for (const account of options.accounts) {
    const made = runCli(['token', 'create', '--account', String(account), '--data-dir', dataDir]);
    if (made.status !== 0) throw new Error(made.stderr);
    syncToken = made.stdout.trim();
  }
  if (options.tokenScope !== 'account') {
    const made = runCli(['token', 'create', '--station', '--data-dir', dataDir]);
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
export function setUpstream(dataDir: string, url: string, token: string, accounts: number[]): void {
  const result = runCli(['upstream', 'set', '--url', url, '--token-stdin', ...accounts.flatMap((a) => ['--account', String(a)]), '--data-dir', dataDir], { input: `${token}\n` });
  if (result.status !== 0) throw new Error(`upstream set failed: ${result.stderr}`);
}

export function syncOnce(dataDir: string): CliResult {
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
