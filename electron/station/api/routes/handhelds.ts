import type { FastifyInstance } from 'fastify';
import { HandheldPairRequestSchema, PAIRING_PATH } from '#shared/api/handhelds.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import { type DomainContext, runScript } from '../../domain/context.ts';
import { fail } from '../../errors.ts';
import { acceptPairing, createPairing, WrongPairingCodes } from '../../site/handheld-pairing.ts';
import { parseBody } from '../http/validate.ts';
import { idempotencyKeyFor } from '../idempotency.ts';
import { addRoute, fastifyPath } from '../route.ts';

/**
 * Handhelds (docs/decisions/handheld-pairing.md): a supervisor's pairing code, and a handheld's
 * exchange of it for a terminal token of its own (no token: the code is the credential).
 */
export function handheldRoutes(server: FastifyInstance, ctx: DomainContext): void {
  addRoute(server, ctx, API_ROUTES.createHandheldPairing, async ({ t, now, body }) => {
    const pairing = await createPairing(t, now, body.device_name ?? null);
    const origin = ctx.address?.()?.origin ?? null;
    return { body: { ...pairing, pair_url: origin === null ? null : `${origin}${PAIRING_PATH}#code=${pairing.code}` } };
  });

  const wrongCodes = new WrongPairingCodes();
  server.route({
    method: API_ROUTES.pairHandheld.method,
    url: fastifyPath(API_ROUTES.pairHandheld.path),
    handler: async (request, reply) => {
      const nowMs = Date.parse(ctx.clock.now());
      const waitMs = wrongCodes.waitMs(nowMs);
      if (waitMs > 0) {
        const seconds = Math.max(1, Math.ceil(waitMs / 1000));
        const error = fail('RATE_LIMITED', `Too many wrong pairing codes this minute; retry in ${seconds} s.`, { retry_after_seconds: seconds });
        error.headers['retry-after'] = String(seconds);
        throw error;
      }
      const body = parseBody(HandheldPairRequestSchema, request.body);
      idempotencyKeyFor(request, API_ROUTES.pairHandheld);
      const outcome = await runScript(ctx, (t, now) => acceptPairing(t, now, body.code, body.device_name));
      if (outcome.kind === 'refused') {
        wrongCodes.count(nowMs);
        request.log.warn('handhelds: a pairing code was refused');
        throw fail('PAIRING_CODE_REFUSED', `${outcome.why} Ask a supervisor for a new one (Settings, Handhelds).`);
      }
      request.log.info({ token: outcome.answer.token_id, name: outcome.answer.name }, 'handhelds: a handheld paired');
      return reply.code(200).send(outcome.answer);
    },
  });
}
