import type { FastifyInstance } from 'fastify';
import { listMeta } from '#shared/api/common.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { DomainContext } from '../../domain/context.ts';
import { fail } from '../../errors.ts';
import { invalidReference } from '../../domain/references.ts';
import { createReturn, listReturns } from '../../domain/returns.ts';
import { returnView } from '../../domain/record-views.ts';
import { accountForReturns } from '../auth.ts';
import { addRoute } from '../route.ts';

/** Manual returns: `POST/GET /returns` (the token's account) and `GET .../accounts/{id}/returns`. */
export function returnRoutes(server: FastifyInstance, ctx: DomainContext): void {
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
    const { records, total } = await listReturns(ctx, { ...filters, ...(accountId === undefined ? {} : { account_id: accountId }) }, page, per_page);
    return { body: { data: records.map(returnView), meta: listMeta(page, per_page, total) } };
  });

  addRoute(server, ctx, API_ROUTES.getAccountReturn, async ({ params, t }) => {
    const record = await t.returns.get(params.id);
    if (!record || record.account_id !== params.account_id) throw fail('NOT_FOUND', `No return ${params.id} in account ${params.account_id}.`);
    return { body: returnView(record) };
  });

  addRoute(server, ctx, API_ROUTES.listAccountReturns, async ({ params, query }) => {
    const { page, per_page, ...filters } = query;
    const { records, total } = await listReturns(ctx, { ...filters, account_id: params.account_id }, page, per_page);
    return { body: { data: records.map(returnView), meta: listMeta(page, per_page, total) } };
  });
}
