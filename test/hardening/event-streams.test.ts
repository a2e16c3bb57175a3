import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, errorBody, formatSseEvent, type StationEvent } from '#shared/api/index.ts';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, packageBody, rawCall, returnBody, sleep, startStation as startInProcess, type TestStation } from '../api/support.ts';
import { type RunningStation, STATION_BIN, startStation } from '../support/station-process.ts';
import { NOW, samplePackage } from '../shared/fixtures.ts';

/*
 * Event streams stay open for as long as the client wants (timeouts fast-forwarded: an idle timeout
 * of 200 ms stands for the hours a UI stays open), reconnecting does not spend the token's request
 * budget, and the client keeps trying while the station is away or busy.
 */

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

async function station(options: Parameters<typeof startInProcess>[0]): Promise<TestStation> {
  const s = await startInProcess(options);
  closers.push(() => s.close());
  return s;
}

function follow(client: ApiClient, accountId: number, options: { reconnectMs?: number; maxReconnectMs?: number } = {}) {
  const controller = new AbortController();
  const events: StationEvent[] = [];
  const errors: unknown[] = [];
  let opens = 0;
  const done = client
    .subscribeEvents(accountId, {
      signal: controller.signal,
      onEvent: (e) => events.push(e),
      onOpen: () => (opens += 1),
      onError: (e) => errors.push(e),
      ...options,
    })
    .then(
      () => 'aborted',
      (error: unknown) => error,
    );
  return { events, errors, done, opens: () => opens, stop: () => controller.abort() };
}

async function until(predicate: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(20);
  }
}

describe('event streams', () => {
  it('outlive the idle timeout many times over and still deliver changes', async () => {
    const s = await station({ timeouts: { idleMs: 200, keepAliveMs: 200, heartbeatMs: 100 } });
    const client = new ApiClient({ baseUrl: s.origin, token: s.account1 });
    const stream = follow(client, 1, { reconnectMs: 60_000 });
    closers.push(async () => stream.stop());
    await until(() => stream.opens() === 1);
    await sleep(2000);
    // The change goes over a connection of its own: this station closes an idle keep-alive connection
    // after 200 ms, and a request written on one as its close comes (a late timer on a loaded machine)
    // fails with "other side closed" — HTTP keep-alive's own race, not the stream's.
    const created = await rawCall(s.origin, {
      method: 'POST',
      path: '/returns',
      headers: { authorization: `Bearer ${s.account1}`, 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify(returnBody()),
    });
    expect(created.status, created.text).toBe(200);
    const ret = JSON.parse(created.text) as { id: number };
    await until(() => stream.events.some((e) => e.event === 'return.created' && e.data.return.id === ret.id));
    expect(stream.opens()).toBe(1);
    expect(stream.errors).toEqual([]);
  });

  it('reconnecting spends its own budget, not the requests of the token', async () => {
    const s = await station({ rateLimits: { accountTokenPerHour: 5, anonymousPerHour: 100, eventStreamOpensPerHour: 20 } });
    for (let i = 0; i < 10; i++) {
      const controller = new AbortController();
      const response = await fetch(`${s.origin}/api/v1/accounts/1/events`, { headers: { authorization: `Bearer ${s.account1}` }, signal: controller.signal });
      expect(response.status).toBe(200);
      controller.abort();
    }
    const request = await call(s.origin, 'GET', '/api/v1/accounts/1/return_packages', { token: s.account1 });
    expect(request.status).toBe(200);
    expect(request.headers.get('x-ratelimit-remaining')).toBe('4');
  });
});

describe('the client never gives up while the station can answer', () => {
  it('keeps retrying through 429, 503 and an unreachable station, backing off, and resumes', async () => {
    const answers: Array<() => Response | Promise<Response>> = [
      () => Promise.reject(new TypeError('fetch failed')),
      () => new Response(JSON.stringify(errorBody('RATE_LIMITED', 'busy', { retry_after_seconds: 0 })), { status: 429 }),
      () => new Response(JSON.stringify(errorBody('UNAVAILABLE')), { status: 503 }),
      () => new Response('oops', { status: 502 }),
      () => new Response(formatSseEvent('7', 'package.updated', { account_id: 1, occurred_at: NOW, package: samplePackage({ id: 7 }) }), { status: 200 }),
    ];
    const at: number[] = [];
    const fetch = async () => {
      at.push(Date.now());
      const next = answers.shift();
      return next ? next() : new Response(JSON.stringify(errorBody('INVALID_TOKEN')), { status: 401 });
    };
    const client = new ApiClient({ baseUrl: 'http://s', token: 't', fetch });
    const stream = follow(client, 1, { reconnectMs: 20, maxReconnectMs: 100 });
    const outcome = await stream.done;
    expect(stream.events.map((e) => e.id)).toEqual(['7']);
    // Ended only by the final refusal (a revoked token), after every other failure was retried.
    expect(outcome).toBeInstanceOf(ApiError);
    expect((outcome as ApiError).status).toBe(401);
    expect(at).toHaveLength(6);
    const gaps = at.slice(1).map((t, i) => t - (at[i] ?? t));
    // Doubling delays while failing: 20, 40, 80, then capped at 100.
    expect(gaps[2]).toBeGreaterThanOrEqual(75);
    expect(gaps[3]).toBeGreaterThanOrEqual(95);
  });

  it('follows the real station through a restart on the same port', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'harden-events-'));
    closers.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    // A stored token for account 1: it outlives the start (the control token of a start does not).
    const token = execFileSync(process.execPath, [STATION_BIN, 'token', 'create', '--account', '1', '--data-dir', dataDir], { encoding: 'utf8' }).trim();
    let running: RunningStation = await startStation({ dataDir });
    closers.push(async () => running.stop());
    const port = new URL(running.origin).port;
    const stream = follow(new ApiClient({ baseUrl: running.origin, token }), 1, { reconnectMs: 50, maxReconnectMs: 200 });
    closers.push(async () => stream.stop());
    await until(() => stream.opens() === 1);
    expect(await running.stop()).toBe(0);
    // Longer than the server's `retry:` (2 s): the client meets a station that is away.
    await sleep(3000);
    running = await startStation({ dataDir, args: ['--port', port] });
    await until(() => stream.opens() === 2);
    const ret = await call(running.origin, 'POST', '/returns', { token, body: { ...returnBody(), account_id: 1 } });
    expect(ret.status, ret.text).toBe(200);
    const created = await call(running.origin, 'POST', '/api/v1/accounts/1/return_packages', { token, body: packageBody((ret.json as { id: number }).id) });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: number }).id;
    await until(() => stream.events.some((e) => e.event === 'package.created' && e.data.package.id === id));
    expect(stream.errors.length).toBeGreaterThan(0);
  }, 60_000);
});
