import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateBuckets } from '../../electron/station/api/rate-limit.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { call, expectError, startStation, type TestStation } from './support.ts';

/*
 * Rate limits per token (docs/api-reference.md, Rate limits): a station with 3 requests per hour per account token.
 */

let s: TestStation;
const LIMIT = 3;

beforeAll(async () => {
  s = await startStation({ rateLimits: { accountTokenPerHour: LIMIT } });
});
afterAll(async () => {
  await s.close();
});

const headersOf = (h: Headers) => ({
  limit: Number(h.get('x-ratelimit-limit')),
  remaining: Number(h.get('x-ratelimit-remaining')),
  reset: Number(h.get('x-ratelimit-reset')),
});

describe('per-token rate limits', () => {
  it('the fourth request of an account token is a 429 with Retry-After; headers decrease on the way', async () => {
    const { secret } = await createToken(s.station.store, s.station.ctx.clock, { scope: 'account', accountId: 1, name: 'limited' });
    const remaining: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const response = await call(s.origin, 'GET', '/api/v1/accounts/1/return_packages', { token: secret });
      expect(response.status).toBe(200);
      const h = headersOf(response.headers);
      expect(h.limit).toBe(LIMIT);
      expect(h.reset).toBeGreaterThan(0);
      expect(h.reset).toBeLessThanOrEqual(3600);
      remaining.push(h.remaining);
    }
    expect(remaining).toEqual([2, 1, 0]);
    const limited = await call(s.origin, 'GET', '/api/v1/accounts/1/return_packages', { token: secret });
    const details = expectError(limited, 'RATE_LIMITED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(details.retry_after_seconds).toBe(retryAfter);
    expect(headersOf(limited.headers)).toMatchObject({ limit: LIMIT, remaining: 0 });
    // Writes are limited too.
    expectError(await call(s.origin, 'POST', '/returns', { token: secret, body: {} }), 'RATE_LIMITED');
  });

  it('error answers carry the headers too, and count', async () => {
    const { secret } = await createToken(s.station.store, s.station.ctx.clock, { scope: 'account', accountId: 1, name: 'errors' });
    const a = await call(s.origin, 'GET', '/api/v1/accounts/1/return_packages/999999', { token: secret });
    expect(a.status).toBe(404);
    expect(headersOf(a.headers)).toMatchObject({ limit: LIMIT, remaining: 2 });
    const b = await call(s.origin, 'POST', '/returns', { token: secret, body: { nope: 1 } });
    expect(b.status).toBe(422);
    expect(headersOf(b.headers)).toMatchObject({ limit: LIMIT, remaining: 1 });
  });

  it('limits are per token: another token of the same account is unaffected', async () => {
    const first = await createToken(s.station.store, s.station.ctx.clock, { scope: 'account', accountId: 1, name: 'first' });
    const second = await createToken(s.station.store, s.station.ctx.clock, { scope: 'account', accountId: 1, name: 'second' });
    for (let i = 0; i < LIMIT; i++) await call(s.origin, 'GET', '/returns', { token: first.secret });
    expect((await call(s.origin, 'GET', '/returns', { token: first.secret })).status).toBe(429);
    const other = await call(s.origin, 'GET', '/returns', { token: second.secret });
    expect(other.status).toBe(200);
    expect(headersOf(other.headers).remaining).toBe(LIMIT - 1);
  });

  it('the station token is not throttled', async () => {
    for (let i = 0; i < LIMIT * 4; i++) {
      const response = await call(s.origin, 'GET', '/api/v1/station', { token: s.stationToken });
      expect(response.status).toBe(200);
    }
  });

  it('every API response carries X-RateLimit-*, unauthenticated ones included', async () => {
    const response = await call(s.origin, 'GET', '/api/v1/accounts/1/return_packages');
    expect(response.status).toBe(401);
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(response.headers.get(name), name).not.toBeNull();
  });
});

describe('rate buckets', () => {
  it('a window lasts an hour from its first request, then counts afresh', () => {
    const buckets = new RateBuckets(3_600_000);
    expect(buckets.take('token:1', 1_000)).toEqual({ used: 1, resetMs: 3_600_000 });
    expect(buckets.take('token:1', 61_000)).toEqual({ used: 2, resetMs: 3_540_000 });
    expect(buckets.take('token:2', 61_000)).toEqual({ used: 1, resetMs: 3_600_000 });
    expect(buckets.take('token:1', 3_600_999)).toMatchObject({ used: 3, resetMs: 1 });
    expect(buckets.take('token:1', 3_601_000)).toEqual({ used: 1, resetMs: 3_600_000 });
  });

  it('holds a bounded number of callers: ended windows go first, then the oldest', () => {
    const buckets = new RateBuckets(1_000, 3);
    buckets.take('a', 0);
    buckets.take('b', 500);
    buckets.take('c', 900);
    buckets.take('c', 900);
    // 'a' has ended its window by 1,200: it makes room, the others keep their counts.
    buckets.take('d', 1_200);
    expect(buckets.size).toBe(3);
    expect(buckets.take('c', 1_200).used).toBe(3);
    // Nothing has ended: the oldest ('b') goes.
    buckets.take('e', 1_300);
    expect(buckets.size).toBe(3);
    expect(buckets.take('b', 1_300).used).toBe(1);
  });

  it('counts a window from its own start when making room: a caller whose window began again is not the oldest', () => {
    const buckets = new RateBuckets(1_000, 2);
    buckets.take('a', 0);
    buckets.take('b', 500);
    buckets.take('a', 1_100); // a new window for 'a'
    buckets.take('c', 1_200); // full: 'b' (window from 500) goes, not 'a' (from 1,100)
    expect(buckets.take('a', 1_200).used).toBe(2);
    expect(buckets.size).toBe(2);
  });
});

describe('requests without a valid token', () => {
  it('share a budget per address, answered 429 past it', async () => {
    const limited = await startStation({ rateLimits: { anonymousPerHour: 2 } });
    try {
      const seen = [];
      for (let i = 0; i < 3; i++) seen.push((await call(limited.origin, 'GET', '/returns', { token: 'rst_not-a-token' })).status);
      expect(seen).toEqual([401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});
