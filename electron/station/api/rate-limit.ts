import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorBody } from '#shared/api/errors.ts';
import { INT32_MAX } from '#shared/api/common.ts';
import { ContractError } from '../errors.ts';

export interface RateLimits {
  /** Requests per hour for each account token (1000 by default, the returns service's own figure; docs/api-decisions.md, Tokens and rate limits). */
  accountTokenPerHour: number;
  /** Requests per hour for each station token; the UI's token is not throttled by default. */
  stationTokenPerHour: number;
  /** Requests per hour from one address without a valid token (bounds token guessing). */
  anonymousPerHour: number;
  /** Event-stream openings per hour for each token: their own budget, not the requests'. */
  eventStreamOpensPerHour: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  accountTokenPerHour: 1000,
  stationTokenPerHour: INT32_MAX,
  anonymousPerHour: 600,
  eventStreamOpensPerHour: 3600,
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The budget a route's requests count against: the API's requests (default) or event-stream openings. */
    rateBudget?: 'requests' | 'eventStreams';
  }
}

const HOUR_MS = 60 * 60 * 1000;

/** Callers (buckets) remembered at most; past it, ended windows go first, then the oldest. */
export const MAX_RATE_BUCKETS = 10_000;

interface Bucket {
  used: number;
  /** When its window started (ms); the window lasts an hour from its first request. */
  startedAt: number;
}

/**
 * Fixed hourly windows, one per caller key, each starting at the caller's first request (the
 * returns service's rule). `take` counts one request and says whether it is within `max`.
 */
export class RateBuckets {
  readonly #buckets = new Map<string, Bucket>();
  readonly #windowMs: number;
  readonly #maxBuckets: number;

  constructor(windowMs = HOUR_MS, maxBuckets = MAX_RATE_BUCKETS) {
    this.#windowMs = windowMs;
    this.#maxBuckets = maxBuckets;
  }

  /** Counts a request of `key` at `now`: how many the window has used (this one included) and the ms until it ends. */
  take(key: string, now: number): { used: number; resetMs: number } {
    let bucket = this.#buckets.get(key);
    if (bucket === undefined || now - bucket.startedAt >= this.#windowMs) {
      // A window starts: the bucket goes to the end, so the map stays in order of window start.
      this.#buckets.delete(key);
      this.#makeRoom(now);
      bucket = { used: 0, startedAt: now };
      this.#buckets.set(key, bucket);
    }
    bucket.used += 1;
    return { used: bucket.used, resetMs: bucket.startedAt + this.#windowMs - now };
  }

  get size(): number {
    return this.#buckets.size;
  }

  /** Ended windows go, from the oldest; while still full, the oldest window goes too. Each step is the map's first entry. */
  #makeRoom(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (now - bucket.startedAt < this.#windowMs && this.#buckets.size < this.#maxBuckets) return;
      this.#buckets.delete(key);
    }
  }
}

const keyOf = (request: FastifyRequest): string => (request.principal ? `token:${request.principal.tokenId}` : `anonymous:${request.ip}`);

/**
 * Per-token limits (docs/api-decisions.md, Tokens and rate limits): keyed by token, never by
 * address alone (every local caller is 127.0.0.1), by address without a valid token. Every API
 * answer carries X-RateLimit-Limit/Remaining/Reset (seconds); a 429 carries Retry-After and the
 * contract's error body. Routes with `config.rateBudget: 'eventStreams'` count against their own
 * budget. One synchronous hook (a map lookup and three headers): @fastify/rate-limit, used before,
 * spent several promises per request on the same rule.
 */
export function useRateLimits(server: FastifyInstance, limits: RateLimits): void {
  const budgets = { requests: new RateBuckets(), eventStreams: new RateBuckets() };
  const maxOf = (request: FastifyRequest, budget: keyof typeof budgets): number => {
    const principal = request.principal;
    if (!principal) return limits.anonymousPerHour;
    if (budget === 'eventStreams') return limits.eventStreamOpensPerHour;
    return principal.scope === 'station' ? limits.stationTokenPerHour : limits.accountTokenPerHour;
  };
  server.addHook('onRequest', (request, reply, done) => {
    const budget = request.routeOptions.config.rateBudget ?? 'requests';
    const max = maxOf(request, budget);
    const { used, resetMs } = budgets[budget].take(keyOf(request), Date.now());
    const seconds = Math.max(1, Math.ceil(resetMs / 1000));
    reply
      .header('x-ratelimit-limit', max)
      .header('x-ratelimit-remaining', Math.max(0, max - used))
      .header('x-ratelimit-reset', seconds);
    if (used <= max) return done();
    const message = `Rate limit of ${max} requests per hour reached; retry in ${seconds} s.`;
    done(new ContractError(429, errorBody('RATE_LIMITED', message, { retry_after_seconds: seconds }), { 'retry-after': String(seconds) }));
  });
}
