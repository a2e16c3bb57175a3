import type { FastifyInstance } from 'fastify';
import { API_ROUTES } from '#shared/api/routes.ts';
import { SIGN_IN_TRIES_PER_MINUTE } from '#shared/api/supervisor.ts';
import { decoyPinHash, hashPin } from '../../auth/pin-hash.ts';
import type { DomainContext } from '../../domain/context.ts';
import { addFirstSupervisor, needsPin, openSession, SignInGuard, verifySupervisor } from '../../domain/supervisor-sessions.ts';
import { revokeToken } from '../../domain/tokens.ts';
import { fail } from '../../errors.ts';
import type { Frozen, Operator } from '../../store/index.ts';
import { RateBuckets } from '../rate-limit.ts';
import { addRoute } from '../route.ts';

/**
 * Supervisor sessions (docs/decisions/supervisor.md): a badge and PIN give a short-lived token; a
 * station without a supervisor takes its first one. The PIN is checked or hashed in `prepare`,
 * outside the write (scrypt is slow); wrong tries are counted per badge, and all tries per token,
 * in this server's memory. Neither route takes an Idempotency-Key (route table: `replayable`): its
 * answer holds a session's secret, which the station stores only as a hash.
 */
export function supervisorRoutes(server: FastifyInstance, ctx: DomainContext): void {
  const guard = new SignInGuard(ctx.clock);
  const triesPerToken = new RateBuckets(60_000);
  void decoyPinHash(); // made now, so the first unknown badge takes no longer than a known one
  addRoute<typeof API_ROUTES.createSupervisorSession, Frozen<Operator>>(
    server,
    ctx,
    API_ROUTES.createSupervisorSession,
    async ({ prepared, t, now }) => ({ body: await openSession(t, now, prepared) }),
    {
      prepare: ({ body, principal }) => {
        const { used, resetMs } = triesPerToken.take(String(principal.tokenId), Date.parse(ctx.clock.now()));
        if (used > SIGN_IN_TRIES_PER_MINUTE) throw tooMany(`At most ${SIGN_IN_TRIES_PER_MINUTE} sign-in tries a minute from one token`, resetMs);
        return verifySupervisor(ctx, guard, body);
      },
    },
  );
  // A terminal's list of operators has no supervisor's badge: it asks about one scanned code at a
  // time, as often as it may try a PIN (its own count: a worker's unexpected items do not use up the
  // supervisor's sign-in tries).
  const checksPerToken = new RateBuckets(60_000);
  addRoute(server, ctx, API_ROUTES.checkBadge, async ({ body, principal }) => {
    const { used, resetMs } = checksPerToken.take(String(principal.tokenId), Date.parse(ctx.clock.now()));
    if (used > SIGN_IN_TRIES_PER_MINUTE) throw tooMany(`At most ${SIGN_IN_TRIES_PER_MINUTE} badge checks a minute from one token`, resetMs);
    return { body: { pin_needed: await needsPin(ctx, body.badge_code) } };
  });
  addRoute(server, ctx, API_ROUTES.endSupervisorSession, async ({ principal }) => {
    if (principal.role === 'supervisor') await revokeToken(ctx.store, ctx.clock, principal.tokenId);
    return { body: undefined };
  });
  addRoute<typeof API_ROUTES.createFirstSupervisor, string>(
    server,
    ctx,
    API_ROUTES.createFirstSupervisor,
    async ({ body, prepared, t, now }) => {
      const operator = await addFirstSupervisor(t, now, body, prepared);
      return { body: await openSession(t, now, operator) };
    },
    { prepare: ({ body }) => hashPin(body.pin) },
  );
}

/** 429 with Retry-After: `what`, and when to retry. */
function tooMany(what: string, resetMs: number) {
  const seconds = Math.max(1, Math.ceil(resetMs / 1000));
  const error = fail('RATE_LIMITED', `${what}; retry in ${seconds} s.`, { retry_after_seconds: seconds });
  error.headers['retry-after'] = String(seconds);
  return error;
}
