import type { FastifyInstance } from 'fastify';
import { API_ROUTES } from '#shared/api/routes.ts';
import { SiteJoinRequestSchema } from '#shared/api/site.ts';
import { type DomainContext, runScript } from '../../domain/context.ts';
import { fail } from '../../errors.ts';
import { stepDown, takeUplink } from '../../site/handover.ts';
import { acceptJoin, createInvite, membersIn, removeMember } from '../../site/hub.ts';
import { SiteJoinError, joinHub } from '../../site/join.ts';
import { currentMembership, saveJoinedSite, siteViewOf } from '../../site/membership.ts';
import { ownWorkersOf, siteConfigOf } from '../../site/site-config.ts';
import { TakeOverRefused, uplinkOfferOf } from '../../site/take-over.ts';
import { upstreamViewOf } from './sync.ts';
import { parseBody } from '../http/validate.ts';
import { idempotencyKeyFor } from '../idempotency.ts';
import { createRouteOpening, addRoute, fastifyPath } from '../route.ts';

/**
 * A site (docs/decisions/site-join.md). On a hub: join codes, the join itself (no token: the code's
 * proof is the credential) and its members. On any station: its view of the site, and joining a hub
 * (the station makes the outgoing join, then stores the hub as its upstream).
 */
const NO_TLS = 'This station serves no TLS: a hub listens on the site network (serve --host), where it serves HTTPS.';

export function siteRoutes(server: FastifyInstance, ctx: DomainContext): void {
  server.route({
    method: API_ROUTES.joinSite.method,
    url: fastifyPath(API_ROUTES.joinSite.path),
    handler: async (request, reply) => {
      const body = parseBody(SiteJoinRequestSchema, request.body);
      idempotencyKeyFor(request, API_ROUTES.joinSite);
      const tls = ctx.address?.()?.tls;
      if (!tls) throw fail('NOT_A_HUB', NO_TLS);
      const outcome = await runScript(ctx, (t, now) => acceptJoin(t, now, body, tls.fingerprint_sha256));
      if (outcome.kind === 'refused') throw fail('JOIN_CODE_REFUSED', `${outcome.why} Ask the hub for a new one (returns-station site invite).`);
      if (outcome.kind === 'wrong') {
        request.log.warn({ invite: body.invite, burned: outcome.burned }, 'site: a join with a wrong proof (a wrong code, or a machine in the middle)');
        throw fail(
          'JOIN_PROOF_WRONG',
          `The join proof does not match this hub: the code is wrong, or a machine between the station and the hub served its own certificate (the station saw ${body.ca_sha256}).${outcome.burned ? ' The code is burned now.' : ''}`,
        );
      }
      request.log.info({ member: outcome.member.id, name: outcome.member.name }, 'site: a station joined');
      return reply.code(200).send(outcome.answer);
    },
  });

  /** What only the hub's live members may read: 403 NOT_SITE_MEMBER for any other token. */
  const assertLiveMember = async (principal: { tokenId: number } | null | undefined): Promise<void> => {
    const members = await membersIn(ctx.store.tables);
    if (!principal || !members.some((m) => m.removed_at === null && m.token_id === principal.tokenId)) throw fail('NOT_SITE_MEMBER');
  };

  addRoute(server, ctx, API_ROUTES.getSite, async ({ t }) => ({ body: await siteViewOf(t, ctx.sync?.status().pending_changes ?? 0) }));

  // The site's configuration, PIN hashes included: for the hub's live members alone. Its version is
  // the ETag, so a member that has it is answered 304 without a body.
  const openSiteConfig = createRouteOpening(ctx, API_ROUTES.getSiteConfig);
  server.route({
    method: API_ROUTES.getSiteConfig.method,
    url: fastifyPath(API_ROUTES.getSiteConfig.path),
    handler: async (request, reply) => {
      await assertLiveMember((await openSiteConfig(request)).principal);
      const config = await siteConfigOf(ctx.store.tables);
      const etag = `"${config.version}"`;
      reply.header('etag', etag).header('cache-control', 'no-store');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.code(200).send(config);
    },
  });

  // What the members trust, for them alone: they take the successor before the hub serves it.
  addRoute(server, ctx, API_ROUTES.getSiteAuthorities, async ({ principal }) => {
    await assertLiveMember(principal);
    const authorities = ctx.siteAuthorities?.() ?? null;
    if (!authorities) throw fail('NOT_A_HUB', NO_TLS);
    return { body: authorities, headers: { 'cache-control': 'no-store' } };
  });

  addRoute(server, ctx, API_ROUTES.createSiteInvite, async ({ t, now }) => {
    const invite = await createInvite(t, now);
    const address = ctx.address?.() ?? null;
    return { body: { ...invite, hub_url: address?.origin ?? null, ca_sha256: address?.tls?.fingerprint_sha256 ?? null } };
  });

  addRoute(server, ctx, API_ROUTES.removeSiteMember, async ({ t, now, params }) => {
    await removeMember(t, now, params.id);
    return { body: undefined };
  });

  // Moving the hub (docs/decisions/site-promote.md): on the old hub, a supervisor names the member;
  // that member takes the uplink with its own token.
  addRoute(server, ctx, API_ROUTES.promoteSiteMember, async ({ t, now, body, request, afterCommit }) => {
    await stepDown(t, now, body.member_id);
    afterCommit(async () => ctx.sync?.nudge());
    request.log.warn({ member: body.member_id }, 'site: this hub stepped down; its uplink waits for the member named');
    return { body: await siteViewOf(t, ctx.sync?.status().pending_changes ?? 0) };
  });
  addRoute(server, ctx, API_ROUTES.takeSiteUplink, async ({ t, now, principal, request }) => {
    const uplink = await takeUplink(t, now, principal.tokenId);
    request.log.warn({ token: principal.tokenId }, "site: a member took the site's uplink; the other members' tokens are revoked");
    return { body: uplink };
  });

  // A member becoming the hub (docs/decisions/site-promote.md): whether its hub offered the uplink,
  // asked of the hub now; and the take-over, which talks to the hub and runs sync rounds, so it is
  // no store write of its own (site/take-over.ts stores the uplink between rounds).
  addRoute(server, ctx, API_ROUTES.getUplinkOffer, async () => ({ body: await uplinkOfferOf(ctx), headers: { 'cache-control': 'no-store' } }));
  const openTakeOver = createRouteOpening(ctx, API_ROUTES.takeOverAsHub);
  server.route({
    method: API_ROUTES.takeOverAsHub.method,
    url: fastifyPath(API_ROUTES.takeOverAsHub.path),
    handler: async (request, reply) => {
      await openTakeOver(request);
      const body = parseBody(API_ROUTES.takeOverAsHub.body, request.body ?? {});
      if (request.headers['idempotency-key'] !== undefined)
        throw fail('VALIDATION_FAILED', 'This request takes no Idempotency-Key: asked again, it takes over again or says why not.');
      if (!ctx.takeOverAsHub) throw fail('TAKE_OVER_REFUSED', 'This station runs without sync: it cannot take an uplink.');
      let uplink;
      try {
        uplink = await ctx.takeOverAsHub(body);
      } catch (error) {
        if (error instanceof TakeOverRefused) throw fail('TAKE_OVER_REFUSED', error.message);
        throw error;
      }
      ctx.sync?.nudge();
      request.log.warn(
        { without_hub: body.without_hub !== undefined, accounts: uplink.accounts },
        "site: this station took the site's uplink; its links are made again for the returns service before anything is sent",
      );
      return reply.code(200).send(upstreamViewOf(uplink));
    },
  });

  // The outgoing join cannot run inside a store write: it is made first, then its outcome stored.
  const openJoinHub = createRouteOpening(ctx, API_ROUTES.joinHub);
  server.route({
    method: API_ROUTES.joinHub.method,
    url: fastifyPath(API_ROUTES.joinHub.path),
    handler: async (request, reply) => {
      await openJoinHub(request);
      const body = parseBody(API_ROUTES.joinHub.body, request.body);
      idempotencyKeyFor(request, API_ROUTES.joinHub, 'its answer comes from the hub, once');
      let settings;
      try {
        settings = await joinHub({
          hubUrl: body.hub_url,
          code: body.code,
          ...(body.name === undefined ? {} : { name: body.name }),
          previous: await currentMembership(ctx.store.tables),
          workers: await ownWorkersOf(ctx.store.tables),
        });
      } catch (error) {
        if (!(error instanceof SiteJoinError)) throw error;
        const path = error.code === null && /address|reached|answer/.test(error.message) ? 'hub_url' : 'code';
        throw fail('VALIDATION_FAILED', error.message, { fields: [{ path, message: error.message }] });
      }
      await runScript(ctx, (t, now) => saveJoinedSite(t, settings, now));
      ctx.sync?.nudge();
      request.log.info({ hub: settings.returns_url, member: settings.site?.member_id }, 'site: joined a hub');
      const status = (await ctx.sync?.refreshStatus())?.pending_changes ?? 0;
      return reply.code(200).send(await siteViewOf(ctx.store.tables, status));
    },
  });
}
