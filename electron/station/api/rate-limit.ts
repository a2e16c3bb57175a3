import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
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

export const DEFAULT_RATE_LIMITS: RateLimits = { accountTokenPerHour: 1000, stationTokenPerHour: INT32_MAX, anonymousPerHour: 600, eventStreamOpensPerHour: 3600 };

/**
 * Per-token limits with @fastify/rate-limit: keyed by token, never by IP alone (every local caller
 * is 127.0.0.1). Every API response carries X-RateLimit-Limit/Remaining/Reset (seconds); a 429
 * carries Retry-After and the contract's error body.
 */
export async function useRateLimits(server: FastifyInstance, limits: RateLimits): Promise<void> {
  await server.register(fastifyRateLimit, {
    global: true,
    timeWindow: 60 * 60 * 1000,
    keyGenerator: (request) => (request.principal ? `token:${request.principal.tokenId}` : `anonymous:${request.ip}`),
    max: async (request) => {
      const principal = request.principal;
      if (!principal) return limits.anonymousPerHour;
      return principal.scope === 'station' ? limits.stationTokenPerHour : limits.accountTokenPerHour;
    },
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new ContractError(429, errorBody('RATE_LIMITED', `Rate limit of ${context.max} requests per hour reached; retry in ${seconds} s.`, { retry_after_seconds: seconds }));
    },
  });
}
