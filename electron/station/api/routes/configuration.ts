import type { FastifyInstance } from 'fastify';
import { listMeta } from '#shared/api/common.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { DomainContext } from '../../domain/context.ts';
import { addRoute } from '../route.ts';

/** Carriers and locations: station configuration, readable with any token of an account. */
export function configurationRoutes(server: FastifyInstance, ctx: DomainContext): void {
  addRoute(server, ctx, API_ROUTES.listCarriers, async ({ query }) => {
    const total = await ctx.store.db.carriers.count();
    const data = await ctx.store.db.carriers.orderBy('id').offset((query.page - 1) * query.per_page).limit(query.per_page).toArray();
    return { body: { data: data.map(({ id, name, code, service }) => ({ id, name, code, service })), meta: listMeta(query.page, query.per_page, total) } };
  });
  addRoute(server, ctx, API_ROUTES.listLocations, async ({ query }) => {
    const total = await ctx.store.db.locations.count();
    const data = await ctx.store.db.locations.orderBy('id').offset((query.page - 1) * query.per_page).limit(query.per_page).toArray();
    return {
      body: {
        data: data.map(({ id, name, code, fulfillment_center_id }) => ({ id, name, code, fulfillment_center_id })),
        meta: listMeta(query.page, query.per_page, total),
      },
    };
  });
}
