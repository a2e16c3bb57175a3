import { request as httpRequest } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ErrorBodySchema, type ErrorCode, ERROR_CODES } from '#shared/api/errors.ts';
import type { ManualReturnCreateInput } from '#shared/api/returns.ts';
import type { ReturnPackageCreateInput } from '#shared/api/return-packages.ts';
import type { RateLimits } from '../../electron/station/api/rate-limit.ts';
import type { HttpTimeouts } from '../../electron/station/api/http/timeouts.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import type { Clock } from '../../electron/station/domain/clock.ts';
import { manualReturnBody } from '../support/manual-return.ts';
import { openStation, type Station } from '../../electron/station/station.ts';
import { readStartupSetting } from '../../electron/station/startup-settings.ts';

/*
 * Shared helpers of the API suite: one real station per test file (real store in a temporary data
 * directory, real HTTP on 127.0.0.1), tokens, a small fetch wrapper, and request-body fixtures.
 */

export interface TestStation {
  station: Station;
  origin: string;
  dataDir: string;
  /** Account token of account 1. */
  account1: string;
  /** Account token of account 2. */
  account2: string;
  /** Station token (all accounts). */
  stationToken: string;
  close(): Promise<void>;
}

/** Limits high enough that a test file never meets them (the rate-limit file sets its own). */
const GENEROUS: Partial<RateLimits> = { accountTokenPerHour: 10_000_000, anonymousPerHour: 10_000_000 };

/** The hot-set settings from the environment, as `serve` reads them. */
function hotSetFromEnv(env: NodeJS.ProcessEnv): { hotDays?: number; hotRecentLimit?: number; hotSweepMs?: number } {
  const hotDays = readStartupSetting('hotDays', { env });
  const hotRecentLimit = readStartupSetting('hotRecentMax', { env });
  const hotSweepMs = readStartupSetting('hotSweepMs', { env });
  return {
    ...(hotDays !== undefined ? { hotDays } : {}),
    ...(hotRecentLimit !== undefined ? { hotRecentLimit } : {}),
    ...(hotSweepMs !== undefined ? { hotSweepMs } : {}),
  };
}

export async function startStation(options: { rateLimits?: Partial<RateLimits>; timeouts?: Partial<HttpTimeouts>; clock?: Clock } = {}): Promise<TestStation> {
  const dataDir = mkdtempSync(join(tmpdir(), 'api-test-'));
  const station = await openStation({
    dataDir,
    rendererDir: join(dataDir, 'no-renderer'),
    logLevel: 'silent',
    rateLimits: options.rateLimits ?? GENEROUS,
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    // `npm run test:cold` runs suites with RETURNS_STATION_HOT_DAYS=0: every path meets cold records.
    ...hotSetFromEnv(process.env),
  });
  const origin = await station.listen('127.0.0.1', 0);
  const { store, clock } = station.ctx;
  const account1 = (await createToken(store, clock, { scope: 'account', accountId: 1, name: 'test account 1' })).secret;
  const account2 = (await createToken(store, clock, { scope: 'account', accountId: 2, name: 'test account 2' })).secret;
  const stationToken = (await createToken(store, clock, { scope: 'station', accountId: null, name: 'test station' })).secret;
  return {
    station,
    origin,
    dataDir,
    account1,
    account2,
    stationToken,
    async close() {
      await station.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  json: unknown;
  text: string;
}

export interface RequestOptions {
  token?: string;
  /** A value sent as JSON (`application/json`). */
  body?: unknown;
  /** Bytes or text sent as they are (set `content-type` in headers yourself). */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
}

/** One HTTP request to the station with global fetch. */
export async function call(origin: string, method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  } else if (options.raw !== undefined) {
    body = options.raw;
  }
  const response = await fetch(`${origin}${path}`, { method, headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** A request with `node:http`, which (unlike fetch) may set `Host` and send bodies without a type. */
export function rawCall(
  origin: string,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method,
        path: options.path,
        headers: options.headers,
        setHost: options.headers?.host === undefined,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Asserts the contract's one error shape, the code's status and (by default) its standard title. */
export function expectError(response: ApiResponse, code: ErrorCode): Record<string, unknown> {
  expect({ status: response.status, code: (response.json as { error_code?: string } | undefined)?.error_code }, response.text).toEqual({
    status: ERROR_CODES[code].status,
    code,
  });
  const body = ErrorBodySchema.strict().parse(response.json);
  expect(body.error).toBe(ERROR_CODES[code].title);
  expect(typeof body.details.message).toBe('string');
  expect(body.details.message.length).toBeGreaterThan(0);
  expectNoInternals(response.text);
  return body.details;
}

/** No stack frames, file paths or SQL in what a client sees. */
export function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\n\s+at |node_modules|\/work\/|\.ts:\d+|SQLITE|SELECT |stack/i);
}

// ---------------------------------------------------------------------------------------------
// Fixtures

let sequence = 0;
/** A tracking number no other test uses. */
export function uniqueTracking(prefix = 'TRK'): string {
  sequence += 1;
  return `${prefix}${Date.now().toString(36).toUpperCase()}${sequence}${Math.floor(Math.random() * 1e6)}`;
}

/** The `POST /returns` body of every test (test/support/manual-return.ts). */
export const returnBody = manualReturnBody;

export interface CreatedReturn {
  id: number;
  account_id: number;
  status: string;
  return_line_items: Array<{ id: number; quantity: number; unreceived_quantity: number; merchant_sku: string; name: string }>;
}

export async function createReturn(origin: string, token: string, overrides: Partial<ManualReturnCreateInput> = {}): Promise<CreatedReturn> {
  const response = await call(origin, 'POST', '/returns', { token, body: returnBody(overrides) });
  expect(response.status, response.text).toBe(200);
  return response.json as CreatedReturn;
}

export function packageBody(returnId: number, overrides: Partial<ReturnPackageCreateInput> = {}): ReturnPackageCreateInput {
  return { return_id: returnId, tracking_number: uniqueTracking(), ...overrides };
}

export interface CreatedPackage {
  id: number;
  status: string;
  tracking_number: string;
  updated_at: string;
  created_at: string;
}

export async function createPackage(
  origin: string,
  token: string,
  accountId: number,
  returnId: number,
  overrides: Partial<ReturnPackageCreateInput> = {},
): Promise<CreatedPackage> {
  const response = await call(origin, 'POST', `/api/v1/accounts/${accountId}/return_packages`, {
    token,
    body: packageBody(returnId, overrides),
  });
  expect(response.status, response.text).toBe(201);
  return response.json as CreatedPackage;
}

/** Files in `<dataDir>/media` (temporary ones included). */
export function mediaFileNames(dataDir: string): string[] {
  try {
    return readdirSync(join(dataDir, 'media')).sort();
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Media bytes: minimal files with the right magic numbers

function bytes(...parts: Array<number[] | string | Uint8Array>): Uint8Array {
  const out: number[] = [];
  for (const part of parts) {
    if (typeof part === 'string') for (const c of part) out.push(c.charCodeAt(0));
    else out.push(...part);
  }
  return Uint8Array.from(out);
}

function filler(n: number, seed: number): number[] {
  return Array.from({ length: n }, (_v, i) => (i * 31 + seed) & 0xff);
}

/** Minimal files of each allowed type (valid magic numbers, arbitrary payload), with per-call variety. */
export function sampleMedia(type: string, seed = 1): Uint8Array {
  switch (type) {
    case 'image/jpeg':
      return bytes([0xff, 0xd8, 0xff, 0xe0], filler(200, seed), [0xff, 0xd9]);
    case 'image/png':
      return bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], filler(200, seed));
    case 'image/webp':
      return bytes('RIFF', [0xd0, 0, 0, 0], 'WEBPVP8 ', filler(200, seed));
    case 'video/mp4':
      return bytes([0, 0, 0, 0x18], 'ftypisom', [0, 0, 2, 0], 'isomiso2', filler(200, seed));
    case 'video/webm':
      return bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], 'webm', filler(200, seed));
    case 'application/pdf':
      return bytes('%PDF-1.7\n', filler(200, seed), '\n%%EOF\n');
    default:
      throw new Error(`No sample for ${type}`);
  }
}

export const MEDIA_SAMPLE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'video/mp4', 'video/webm', 'application/pdf'] as const;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
