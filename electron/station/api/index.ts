import type { FastifyInstance } from 'fastify';
import type { DomainContext } from '../domain/context.ts';
import { resolvePrincipals } from './auth.ts';
import { shareFairly } from './fair-share.ts';
import { useJsonBodiesOnly } from './http/body-parsers.ts';
import { type RateLimits, useRateLimits } from './rate-limit.ts';
import { configurationRoutes } from './routes/configuration.ts';
import { eventRoutes } from './routes/events.ts';
import { lineItemRoutes } from './routes/line-items.ts';
import { mediaFileRoutes } from './routes/media.ts';
import { returnPackageRoutes } from './routes/return-packages.ts';
import { returnRoutes } from './routes/returns.ts';
import { stationRoutes } from './routes/station.ts';
import { tokenRoutes } from './routes/tokens.ts';
import { syncRoutes } from './routes/sync.ts';

export interface ApiOptions {
  ctx: DomainContext;
  rateLimits: RateLimits;
  heartbeatMs: number;
}

/**
 * The token-protected API (`/returns`, `/api/v1/...`) as one encapsulated plugin: its hooks (token,
 * rate limit, fair share, JSON-only bodies, no caching) apply to its routes only, not to the UI, `/healthz`,
 * the docs or media capability URLs. One child plugin per resource.
 */
export async function registerApi(server: FastifyInstance, options: ApiOptions): Promise<void> {
  await server.register(async (api) => {
    const { ctx } = options;
    resolvePrincipals(api, ctx);
    await useRateLimits(api, options.rateLimits);
    shareFairly(api);
    useJsonBodiesOnly(api);
    api.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      reply.header('x-content-type-options', 'nosniff');
    });
    await api.register(async (scope) => returnRoutes(scope, ctx));
    await api.register(async (scope) => returnPackageRoutes(scope, ctx));
    await api.register(async (scope) => lineItemRoutes(scope, ctx));
    await api.register(async (scope) => mediaFileRoutes(scope, ctx));
    await api.register(async (scope) => configurationRoutes(scope, ctx));
    await api.register(async (scope) => stationRoutes(scope, ctx));
    await api.register(async (scope) => tokenRoutes(scope, ctx));
    await api.register(async (scope) => syncRoutes(scope, ctx));
    const { eventStreamOpensPerHour: opensPerHour, anonymousPerHour } = options.rateLimits;
    await api.register(async (scope) => eventRoutes(scope, ctx, { heartbeatMs: options.heartbeatMs, opensPerHour, anonymousPerHour }));
  });
}
