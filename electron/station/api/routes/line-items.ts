import type { FastifyInstance } from 'fastify';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { DomainContext } from '../../domain/context.ts';
import { confirmPut, createLineItem, deleteLineItem, updateLineItem } from '../../domain/line-items.ts';
import { lineItemView } from '../../domain/record-views.ts';
import { addRoute } from '../route.ts';

/** Inspection results of a package: its line items. */
export function lineItemRoutes(server: FastifyInstance, ctx: DomainContext): void {
  addRoute(server, ctx, API_ROUTES.createPackageLineItem, async ({ params, body, request, t, now }) => {
    const item = await createLineItem(t, now, params.account_id, params.id, body);
    return { body: lineItemView(item), headers: { location: `${request.url.split('?')[0]}/${item.id}` } };
  });
  addRoute(server, ctx, API_ROUTES.updatePackageLineItem, async ({ params, body, t, now }) => ({
    body: lineItemView(await updateLineItem(t, now, params.account_id, params.id, params.line_item_id, body)),
  }));
  addRoute(server, ctx, API_ROUTES.confirmPut, async ({ params, body, t, now }) => ({
    body: lineItemView(await confirmPut(t, now, params.account_id, params.id, params.line_item_id, body)),
  }));
  addRoute(server, ctx, API_ROUTES.deletePackageLineItem, async ({ params, t, now }) => {
    await deleteLineItem(t, now, params.account_id, params.id, params.line_item_id);
    return { body: undefined };
  });
}
