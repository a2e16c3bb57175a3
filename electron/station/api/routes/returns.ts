import type { FastifyInstance } from 'fastify';
import { listMeta } from '#shared/api/common.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { DomainContext } from '../../domain/context.ts';
import { fail } from '../../errors.ts';
import { invalidReference } from '../../domain/references.ts';
import { createReturn, findReturns } from '../../domain/returns.ts';
import type { ReturnFilters } from '../../store/index.ts';
import { returnView } from '../../domain/record-views.ts';
import { accountForReturns } from '../auth.ts';
import { addRoute } from '../route.ts';
import { jsonOf, rememberedView, type ViewCache } from '../view-cache.ts';
import type { ReturnRecord as ReturnView } from '#shared/api/returns.ts';

/** One page of returns as the JSON of its body: ids and count from SQLite, the records from the store (`returns.many`). */
async function returnPage(ctx: DomainContext, filters: ReturnFilters, page: number, perPage: number) {
  const { ids, total, lowerBound } = findReturns(ctx, filters, page, perPage);
  const records = await ctx.store.returns.many(ids);
  return jsonOf({ data: records.map(returnView), meta: listMeta(page, perPage, total, lowerBound) });
}

/** Manual returns: `POST/GET /returns` (the token's account), `GET .../accounts/{id}/returns` and one return (its JSON remembered in `views`). */
export function returnRoutes(server: FastifyInstance, ctx: DomainContext, views: ViewCache): void {
  addRoute(server, ctx, API_ROUTES.createReturn, async ({ principal, body, t, now }) => {
    const { account_id: requested, ...fields } = body;
    const accountId = accountForReturns(principal, requested);
    if (accountId === undefined) throw invalidReference('account_id', 'A station token must name the account of the return.');
    if (!(await t.accounts.get(accountId))) throw invalidReference('account_id', `No account ${accountId} on this station.`);
    return { body: returnView(await createReturn(t, now, accountId, fields)) };
  });

  addRoute(server, ctx, API_ROUTES.listReturns, async ({ principal, query }) => {
    const { page, per_page, account_id, ...filters } = query;
    const accountId = accountForReturns(principal, account_id);
    return { json: await returnPage(ctx, { ...filters, ...(accountId === undefined ? {} : { account_id: accountId }) }, page, per_page) };
  });

  addRoute(server, ctx, API_ROUTES.getAccountReturn, async ({ params: { account_id: accountId, id } }) =>
    rememberedView<ReturnView>(views, 'return', id, { accountId, origin: null }, async () => {
      const record = await ctx.store.returns.get(id);
      if (!record || record.account_id !== accountId) throw fail('NOT_FOUND', `No return ${id} in account ${accountId}.`);
      return { json: jsonOf(returnView(record)), sources: [['returns', id]] };
    }),
  );

  addRoute(server, ctx, API_ROUTES.listAccountReturns, async ({ params, query }) => {
    const { page, per_page, ...filters } = query;
    return { json: await returnPage(ctx, { ...filters, account_id: params.account_id }, page, per_page) };
  });
}
