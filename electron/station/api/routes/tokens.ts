import type { FastifyInstance } from 'fastify';
import { API_ROUTES } from '#shared/api/routes.ts';
import { SUPERVISOR_TOKEN_MAX_DAYS, type TokenView } from '#shared/api/tokens.ts';
import type { DomainContext } from '../../domain/context.ts';
import { createToken, listTokens, revokeToken, roleOf } from '../../domain/tokens.ts';
import { invalidReference } from '../../domain/references.ts';
import type { Token } from '../../store/index.ts';
import { addRoute } from '../route.ts';

function tokenView(token: Token): TokenView {
  return {
    id: token.id,
    scope: token.scope,
    account_id: token.account_id,
    role: roleOf(token),
    name: token.name,
    created_at: token.created_at,
    expires_at: token.expires_at,
    revoked_at: token.revoked_at,
  };
}

/** How long a token made by a supervisor session lasts: SUPERVISOR_TOKEN_MAX_DAYS at most (422 beyond). */
function supervisorTokenDays(asked: number | undefined): number {
  if (asked === undefined) return SUPERVISOR_TOKEN_MAX_DAYS;
  if (asked <= SUPERVISOR_TOKEN_MAX_DAYS) return asked;
  throw invalidReference(
    'expires_in_days',
    `A supervisor's token lasts ${SUPERVISOR_TOKEN_MAX_DAYS} days at most; a longer one is made on the command line (returns-station token create).`,
  );
}

/**
 * Tokens while the station runs (station token only): list, create (the secret is in that answer
 * only), revoke (it stops working at once). The domain functions' own store writes join the route's
 * durable write.
 */
export function tokenRoutes(server: FastifyInstance, ctx: DomainContext): void {
  addRoute(server, ctx, API_ROUTES.listTokens, async () => ({ body: { data: (await listTokens(ctx.store)).map(tokenView) } }));
  addRoute(server, ctx, API_ROUTES.createToken, async ({ body, now, request, principal }) => {
    const accountId = body.account_id ?? null;
    const days = principal.role === 'supervisor' ? supervisorTokenDays(body.expires_in_days) : body.expires_in_days;
    const { token, secret } = await createToken(ctx.store, ctx.clock, {
      scope: body.scope,
      accountId,
      name: body.name ?? (accountId === null ? 'station token' : `account ${accountId} token`),
      expiresAt: days === undefined ? null : new Date(Date.parse(now) + days * 86_400_000).toISOString(),
      // A session's token is its supervisor's: it ends with their PIN, their role or their deactivation.
      ...(principal.operatorId === null ? {} : { operatorId: principal.operatorId }),
    });
    return { body: { ...tokenView(token), secret }, headers: { location: `${request.url.split('?')[0]}/${token.id}` } };
  });
  addRoute(server, ctx, API_ROUTES.revokeToken, async ({ params }) => {
    await revokeToken(ctx.store, ctx.clock, params.id);
    return { body: undefined };
  });
}
