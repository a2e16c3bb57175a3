import type { FastifyInstance } from 'fastify';
import { type ListMeta, listMeta } from '#shared/api/common.ts';
import type { ReturnPackage, ReturnPackageListItem, StationPackageListQuery } from '#shared/api/return-packages.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { DomainContext } from '../../domain/context.ts';
import { packageDetailOf, packageListViewOf, siteReceiptOf } from '../../domain/package-view-loader.ts';
import { createPackage, findPackages, updatePackage } from '../../domain/packages.ts';
import { labelsOnReceipt } from '../../domain/print-jobs.ts';
import type { Frozen, ReturnPackage as StoredPackage } from '../../store/index.ts';
import { packageCreatedView, packageUpdatedView } from '../../domain/record-views.ts';
import { addRoute } from '../route.ts';
import { type JsonOf, jsonOf, rememberedView, type ViewCache, type ViewSource } from '../view-cache.ts';

/**
 * One page of packages (an account's, or every account's without `account_id`) as the JSON of its
 * body, a row per package made by `toRow` from its list view (L): ids and count from SQLite, the
 * records as the store's list page reads them (`store.packages.page`).
 */
async function packagePage<Row>(
  ctx: DomainContext,
  { page, per_page, sort, account_id, ...filters }: StationPackageListQuery,
  toRow: (view: ReturnPackageListItem, pkg: Frozen<StoredPackage>) => Row,
): Promise<JsonOf<{ data: Row[]; meta: ListMeta }>> {
  const { ids, total, lowerBound } = findPackages(ctx, { ...filters, ...(account_id === undefined ? {} : { account_id }) }, sort, page, per_page);
  const listed = await ctx.store.packages.page(ids);
  return jsonOf({ data: listed.map((entry) => toRow(packageListViewOf(ctx.config, entry), entry.pkg)), meta: listMeta(page, per_page, total, lowerBound) });
}

/**
 * Return packages: list (L; an account's, or every account's for a station token), create (C, 201 + Location),
 * get (G; its JSON remembered in `views` until a record it shows changes), update (U).
 */
export function returnPackageRoutes(server: FastifyInstance, ctx: DomainContext, views: ViewCache): void {
  addRoute(server, ctx, API_ROUTES.listReturnPackages, async ({ params, query }) => {
    return { json: await packagePage(ctx, { ...query, account_id: params.account_id }, (view) => view) };
  });

  addRoute(server, ctx, API_ROUTES.listStationPackages, async ({ query }) => {
    // The account's own list names the account in its path; this one names it in each row.
    return { json: await packagePage(ctx, query, (view, pkg) => ({ ...view, account_id: pkg.account_id })) };
  });

  addRoute(
    server,
    ctx,
    API_ROUTES.createReturnPackage,
    async ({ params, body, request, t, now }) => {
      const pkg = await createPackage(t, now, params.account_id, body);
      return { body: packageCreatedView(pkg), headers: { location: `${request.url.split('?')[0]}/${pkg.id}` } };
    },
    { coalesce: true },
  );

  addRoute(server, ctx, API_ROUTES.getReturnPackage, async ({ params: { account_id: accountId, id }, origin }) =>
    rememberedView<ReturnPackage>(views, 'return_package', id, { accountId, origin }, async () => {
      const view = await packageDetailOf(ctx.store, ctx.config, accountId, id, origin);
      const lineItems = view.line_items.map((l): ViewSource => ['package_line_items', l.id]);
      const mediaFiles = view.media_files.map((m): ViewSource => ['media_files', m.id]);
      return { json: jsonOf(view), sources: [['return_packages', id], ...lineItems, ...mediaFiles] };
    }),
  );

  addRoute(server, ctx, API_ROUTES.getSiteReceipt, async ({ params: { account_id: accountId, id }, origin }) => ({
    json: jsonOf(await siteReceiptOf(ctx.store, ctx.config, accountId, id, origin)),
  }));

  addRoute(
    server,
    ctx,
    API_ROUTES.updateReturnPackage,
    async ({ params, body, t, now, afterCommit }) => {
      const wasReceived = body.status === 'received' ? (await t.return_packages.get(params.id))?.status === 'received' : true;
      const pkg = await updatePackage(t, now, params.account_id, params.id, body);
      // Received now: each unit's label goes to the station's printer, in the same write.
      if (!wasReceived && pkg.status === 'received' && (await labelsOnReceipt(t, now, params.account_id, params.id)).length > 0) {
        afterCommit(async () => ctx.printing?.nudge());
      }
      return { body: packageUpdatedView(pkg) };
    },
    { coalesce: true },
  );
}
