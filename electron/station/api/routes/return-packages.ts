import type { FastifyInstance } from 'fastify';
import { listMeta } from '#shared/api/common.ts';
import type { ReturnPackage, StationPackageListQuery } from '#shared/api/return-packages.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { DomainContext } from '../../domain/context.ts';
import { packageDetailInMemory, packageDetailOf, packageListViews } from '../../domain/package-view-loader.ts';
import { createPackage, listPackages, updatePackage } from '../../domain/packages.ts';
import { packageCreatedView, packageUpdatedView } from '../../domain/record-views.ts';
import { addRoute } from '../route.ts';
import { jsonOf, rememberedView, type ViewCache, type ViewSource } from '../view-cache.ts';

/** One page of packages (an account's, or every account's without `account_id`) with their list views (L). */
async function packagePage(ctx: DomainContext, { page, per_page, sort, account_id, ...filters }: StationPackageListQuery) {
  const { records, total } = await listPackages(ctx, { ...filters, ...(account_id === undefined ? {} : { account_id }) }, sort, page, per_page);
  return { records, rows: await packageListViews(ctx.store.db, ctx.config, records), meta: listMeta(page, per_page, total) };
}

/**
 * Return packages: list (L; an account's, or every account's for a station token), create (C, 201 + Location),
 * get (G; its JSON remembered in `views` until a record it shows changes), update (U).
 */
export function returnPackageRoutes(server: FastifyInstance, ctx: DomainContext, views: ViewCache): void {
  addRoute(server, ctx, API_ROUTES.listReturnPackages, async ({ params, query }) => {
    const { rows, meta } = await packagePage(ctx, { ...query, account_id: params.account_id });
    return { body: { data: rows, meta } };
  });

  addRoute(server, ctx, API_ROUTES.listStationPackages, async ({ query }) => {
    const { records, rows, meta } = await packagePage(ctx, query);
    // The account's own list names the account in its path; this one names it in each row.
    return { body: { data: rows.map((row, i) => ({ ...row, account_id: records[i]?.account_id ?? 0 })), meta } };
  });

  addRoute(server, ctx, API_ROUTES.createReturnPackage, async ({ params, body, request, t, now }) => {
    const pkg = await createPackage(t, now, params.account_id, body);
    return { body: packageCreatedView(pkg), headers: { location: `${request.url.split('?')[0]}/${pkg.id}` } };
  });

  addRoute(server, ctx, API_ROUTES.getReturnPackage, async ({ params: { account_id: accountId, id }, origin }) =>
    rememberedView<ReturnPackage>(views, 'return_package', id, { accountId, origin }, async () => {
      // From the engine's own records when memory can answer (no await then: the view, which holds
      // some of them, is JSON within this turn), else read through Dexie.
      const view = packageDetailInMemory(ctx.store, ctx.config, accountId, id, origin) ?? (await packageDetailOf(ctx.store, ctx.config, accountId, id, origin));
      const lineItems = view.line_items.map((l): ViewSource => ['package_line_items', l.id]);
      const mediaFiles = view.media_files.map((m): ViewSource => ['media_files', m.id]);
      return { json: jsonOf(view), sources: [['return_packages', id], ...lineItems, ...mediaFiles] };
    }),
  );

  addRoute(server, ctx, API_ROUTES.updateReturnPackage, async ({ params, body, t, now }) => ({
    body: packageUpdatedView(await updatePackage(t, now, params.account_id, params.id, body)),
  }));
}
