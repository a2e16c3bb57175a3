import type { FastifyInstance } from 'fastify';
import { listMeta } from '#shared/api/common.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { DomainContext } from '../../domain/context.ts';
import { addRoute } from '../route.ts';

/** Carriers and locations: station configuration, readable with any token of an account. */
export function configurationRoutes(server: FastifyInstance, ctx: DomainContext): void {
  addRoute(server, ctx, API_ROUTES.listCarriers, async ({ query }) => {
    const { data, total } = await ctx.store.carriers.page(query.page, query.per_page);
    return { body: { data: data.map(({ id, name, code, service }) => ({ id, name, code, service })), meta: listMeta(query.page, query.per_page, total) } };
  });
  addRoute(server, ctx, API_ROUTES.listLocations, async ({ query }) => {
    const { data, total } = await ctx.store.locations.page(query.page, query.per_page);
    return {
      body: {
        data: data.map(({ id, name, code, fulfillment_center_id }) => ({ id, name, code, fulfillment_center_id })),
        meta: listMeta(query.page, query.per_page, total),
      },
    };
  });
}
