import type { Socket } from 'node:net';
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
import { printingRoutes } from './routes/printing.ts';
import { evidenceRoutes } from './routes/evidence.ts';
import { scaleRoutes } from './routes/scale.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { returnPackageRoutes } from './routes/return-packages.ts';
import { returnRoutes } from './routes/returns.ts';
import { stationRoutes } from './routes/station.ts';
import { tokenRoutes } from './routes/tokens.ts';
import { supervisorRoutes } from './routes/supervisor.ts';
import { syncRoutes } from './routes/sync.ts';
import { siteRoutes } from './routes/site.ts';
import { handheldRoutes } from './routes/handhelds.ts';
import { watchSiteMembers } from './site-members.ts';
import { createViewCache } from './view-cache.ts';

/** Every API answer: never cached by a browser or proxy, never sniffed as anything but its type. */
const API_HEADERS = Object.freeze({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });

export interface ApiOptions {
  ctx: DomainContext;
  rateLimits: RateLimits;
  heartbeatMs: number;
  /** Marks the connection of a request that carried a valid token (connection-guard.ts). */
  trustConnection: (socket: Socket) => void;
}

/**
 * The token-protected API (`/returns`, `/api/v1/...`) as one encapsulated plugin: its hooks (token,
 * rate limit, fair share, JSON-only bodies, no caching) apply to its routes only, not to the UI, `/healthz`,
 * the docs or media capability URLs. One child plugin per resource.
 */
export async function registerApi(server: FastifyInstance, options: ApiOptions): Promise<void> {
  await server.register(async (api) => {
    const { ctx } = options;
    // Set first, so every answer carries them, a 401 or 429 too.
    api.addHook('onRequest', (_request, reply, done) => {
      reply.headers(API_HEADERS);
      done();
    });
    resolvePrincipals(api, ctx, options.trustConnection);
    // A hub notes its members' contact and tells a removed member why its token stopped working.
    watchSiteMembers(api, ctx);
    useRateLimits(api, options.rateLimits);
    shareFairly(api);
    useJsonBodiesOnly(api);
    // Single-record views kept as JSON between requests, forgotten when their records change.
    const views = createViewCache(ctx.store);
    api.addHook('onClose', async () => views.close());
    await api.register(async (scope) => returnRoutes(scope, ctx, views));
    await api.register(async (scope) => returnPackageRoutes(scope, ctx, views));
    await api.register(async (scope) => lineItemRoutes(scope, ctx));
    await api.register(async (scope) => mediaFileRoutes(scope, ctx));
    await api.register(async (scope) => configurationRoutes(scope, ctx));
    await api.register(async (scope) => stationRoutes(scope, ctx));
    await api.register(async (scope) => printingRoutes(scope, ctx));
    await api.register(async (scope) => evidenceRoutes(scope, ctx));
    await api.register(async (scope) => scaleRoutes(scope, ctx));
    await api.register(async (scope) => reviewRoutes(scope, ctx));
    await api.register(async (scope) => tokenRoutes(scope, ctx));
    await api.register(async (scope) => supervisorRoutes(scope, ctx));
    await api.register(async (scope) => syncRoutes(scope, ctx));
    await api.register(async (scope) => siteRoutes(scope, ctx));
    await api.register(async (scope) => handheldRoutes(scope, ctx));
    await api.register(async (scope) => eventRoutes(scope, ctx, { heartbeatMs: options.heartbeatMs }));
  });
}
