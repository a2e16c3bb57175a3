import type { FastifyInstance } from 'fastify';
import { listMeta } from '#shared/api/common.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { DomainContext } from '../../domain/context.ts';
import { packageDetailOf, packageListViews } from '../../domain/package-view-loader.ts';
import { createPackage, listPackages, updatePackage } from '../../domain/packages.ts';
import { packageCreatedView, packageUpdatedView } from '../../domain/record-views.ts';
import { addRoute } from '../route.ts';

/** Return packages: list (L; an account's, or every account's for a station token), create (C, 201 + Location), get (G), update (U). */
export function returnPackageRoutes(server: FastifyInstance, ctx: DomainContext): void {
  addRoute(server, ctx, API_ROUTES.listReturnPackages, async ({ params, query }) => {
    const { page, per_page, sort, ...filters } = query;
    const { records, total } = await listPackages(ctx, { ...filters, account_id: params.account_id }, sort, page, per_page);
    return { body: { data: await packageListViews(ctx.store.db, ctx.config, records), meta: listMeta(page, per_page, total) } };
  });

  addRoute(server, ctx, API_ROUTES.listStationPackages, async ({ query }) => {
    const { page, per_page, sort, account_id, ...filters } = query;
    const { records, total } = await listPackages(ctx, { ...filters, ...(account_id === undefined ? {} : { account_id }) }, sort, page, per_page);
    const views = await packageListViews(ctx.store.db, ctx.config, records);
    return { body: { data: views.map((view, i) => ({ ...view, account_id: records[i]?.account_id ?? 0 })), meta: listMeta(page, per_page, total) } };
  });

  addRoute(server, ctx, API_ROUTES.createReturnPackage, async ({ params, body, request, t, now }) => {
    const pkg = await createPackage(t, now, params.account_id, body);
    return { body: packageCreatedView(pkg), headers: { location: `${request.url.split('?')[0]}/${pkg.id}` } };
  });

  addRoute(server, ctx, API_ROUTES.getReturnPackage, async ({ params, origin }) => ({
    body: await packageDetailOf(ctx.store, ctx.config, params.account_id, params.id, origin),
  }));

  addRoute(server, ctx, API_ROUTES.updateReturnPackage, async ({ params, body, t, now }) => ({
    body: packageUpdatedView(await updatePackage(t, now, params.account_id, params.id, body)),
  }));
}
