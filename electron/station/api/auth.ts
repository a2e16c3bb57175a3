import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RouteAuth } from '#shared/api/routes.ts';
import { fail } from '../errors.ts';
import type { DomainContext } from '../domain/context.ts';
import { type Principal, verifyToken } from '../domain/tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, from its bearer token; null when the token is missing or not valid. */
    principal: Principal | null;
  }
}

const BEARER = /^Bearer ([\x21-\x7E]{1,512})$/;

const MAX_CACHED_TOKENS = 10_000;

/**
 * Resolves the bearer token of every API request before anything else looks at it. Valid tokens
 * are remembered (with their expiry, which is checked on every use), so a request does not hash
 * and look up its token again. Any change to the tokens table (a revoke, a new or deleted token)
 * empties the cache when it commits, before the write that made it is acknowledged: a revoke takes
 * effect for the next request. A lookup that was under way across such a change is not remembered.
 * The connection of a request with a valid token is reported to `trust` (cut last in a flood).
 */
export function resolvePrincipals(server: FastifyInstance, ctx: DomainContext, trust: (socket: Socket) => void): void {
  const verified = new Map<string, { principal: Principal; expiresAt: string | null }>();
  let generation = 0;
  const stopWatching = ctx.store.onChange(['tokens'], () => {
    generation += 1;
    verified.clear();
  });
  server.addHook('onClose', async () => {
    stopWatching();
  });
  server.decorateRequest('principal', null);
  const resolved = (request: FastifyRequest, principal: Principal | null): void => {
    request.principal = principal;
    if (principal) trust(request.raw.socket);
  };
  // A done callback, not async: a remembered token is answered without a promise.
  server.addHook('onRequest', (request, _reply, done) => {
    const secret = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!secret) return done();
    const known = verified.get(secret);
    if (known) {
      resolved(request, known.expiresAt === null || known.expiresAt > ctx.clock.now() ? known.principal : null);
      return done();
    }
    const lookedUpAt = generation;
    verifyToken(ctx.store, ctx.clock, secret).then((found) => {
      if (found && lookedUpAt === generation) {
        if (verified.size >= MAX_CACHED_TOKENS) verified.clear();
        verified.set(secret, { principal: found.principal, expiresAt: found.expiresAt });
      }
      resolved(request, found?.principal ?? null);
      done();
    }, done);
  });
}

function invalidToken() {
  const error = fail('INVALID_TOKEN');
  error.headers['www-authenticate'] = 'Bearer';
  return error;
}

/**
 * Applies a route's rule (shared/api/routes.ts): `account` routes need the path's account's token or
 * a station token; `station` routes a station token; `supervisor` routes a station token that is not
 * a terminal's (an administrative token or a supervisor session); `any` routes any valid token.
 */
export function authorize(request: FastifyRequest, auth: RouteAuth, pathAccountId: number | null): Principal | null {
  if (auth === 'none') return null;
  const principal = request.principal;
  if (!principal) throw invalidToken();
  if ((auth === 'station' || auth === 'supervisor') && principal.scope !== 'station') throw fail('ACCOUNT_FORBIDDEN', 'This resource needs a station token.');
  if (auth === 'supervisor' && principal.role === 'terminal') throw fail('SUPERVISOR_REQUIRED');
  if (pathAccountId !== null && principal.scope === 'account' && principal.accountId !== pathAccountId) {
    throw fail('ACCOUNT_FORBIDDEN', `This token is not valid for account ${pathAccountId}.`);
  }
  return principal;
}

/**
 * The account a `/returns` request acts on (docs/api-reference.md, Authentication): an account token's own account; a
 * station token names it (`account_id` in the body or query), or, when listing, may leave it out.
 */
export function accountForReturns(principal: Principal, requested: number | undefined): number | undefined {
  if (principal.scope === 'account') {
    if (requested !== undefined && requested !== principal.accountId) throw fail('ACCOUNT_FORBIDDEN', `This token is not valid for account ${requested}.`);
    return principal.accountId ?? undefined;
  }
  return requested;
}
