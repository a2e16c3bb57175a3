import type { FastifyInstance } from 'fastify';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { DomainContext } from '../../domain/context.ts';
import { confirmPut, createLineItem, deleteLineItem, updateLineItem } from '../../domain/line-items.ts';
import { lineItemView } from '../../domain/record-views.ts';
import { SERIAL_SEEN_LIMIT, serialOfCreate, type SerialSeen } from '../../domain/serials.ts';
import { addRoute } from '../route.ts';

/**
 * The units the serial index holds for the serial a body records, asked before the write (the index
 * is SQLite's; a write reads the records themselves). Null: the body records no serial.
 */
function serialSeenBy(ctx: DomainContext) {
  return async ({ body }: { body: { serial?: string | null | undefined; tags?: readonly string[] | undefined } }): Promise<SerialSeen | null> => {
    const serial = serialOfCreate(body);
    return serial === null ? null : { serial, ids: ctx.store.packages.lineItemIdsOfSerial(serial, SERIAL_SEEN_LIMIT) };
  };
}

/** Inspection results of a package: its line items. */
export function lineItemRoutes(server: FastifyInstance, ctx: DomainContext): void {
  addRoute<typeof API_ROUTES.createPackageLineItem, SerialSeen | null>(
    server,
    ctx,
    API_ROUTES.createPackageLineItem,
    async ({ params, body, request, prepared, t, now }) => {
      const item = await createLineItem(t, now, params.account_id, params.id, body, prepared);
      return { body: lineItemView(item), headers: { location: `${request.url.split('?')[0]}/${item.id}` } };
    },
    { prepare: serialSeenBy(ctx) },
  );
  addRoute<typeof API_ROUTES.updatePackageLineItem, SerialSeen | null>(
    server,
    ctx,
    API_ROUTES.updatePackageLineItem,
    async ({ params, body, prepared, t, now }) => ({
      body: lineItemView(await updateLineItem(t, now, params.account_id, params.id, params.line_item_id, body, prepared)),
    }),
    { prepare: serialSeenBy(ctx) },
  );
  addRoute(server, ctx, API_ROUTES.confirmPut, async ({ params, body, t, now }) => ({
    body: lineItemView(await confirmPut(t, now, params.account_id, params.id, params.line_item_id, body)),
  }));
  addRoute(server, ctx, API_ROUTES.deletePackageLineItem, async ({ params, t, now }) => {
    await deleteLineItem(t, now, params.account_id, params.id, params.line_item_id);
    return { body: undefined };
  });
}
