import type { FastifyInstance } from 'fastify';
import { listMeta } from '#shared/api/common.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { DomainContext } from '../../domain/context.ts';
import { dispositionRulesIn, replaceDispositionRules } from '../../domain/dispositions.ts';
import { dockDay, dockDayReceiptsCsv } from '../../domain/dock-day.ts';
import { lookupCode } from '../../domain/lookup.ts';
import { addOperator, changeOperator, listOperators, operatorView, pinHashOf } from '../../domain/operators.ts';
import { changeSettingsIn, stationSettings } from '../../domain/station-settings.ts';
import { assertNotSiteManaged } from '../../site/site-config.ts';
import { stationStatus } from '../../domain/station-status.ts';
import { addRoute } from '../route.ts';

/** A body's PIN hashed before the write, and the body without it (what a retry must repeat). */
interface HashedPin {
  pinHash: string | null;
  fingerprint: unknown;
}

/**
 * A body's PIN hashed in `prepare` (scrypt is slow: never inside the write); a retry is the same
 * request without the PIN, so the idempotency record keeps no trace of it.
 */
const PIN_HASHED_FIRST = {
  prepare: async ({ body }: { body: { pin?: string | undefined } }): Promise<HashedPin> => ({
    pinHash: await pinHashOf(body),
    fingerprint: { ...body, pin: undefined },
  }),
  fingerprint: (prepared: HashedPin) => prepared.fingerprint,
};

/** Station resources (docs/api-reference.md, Station resources): status, the dock day, settings, scan lookup, dock workers. Station tokens only. */
export function stationRoutes(server: FastifyInstance, ctx: DomainContext): void {
  addRoute(server, ctx, API_ROUTES.getStation, async () => ({ body: await stationStatus(ctx) }));
  addRoute(server, ctx, API_ROUTES.getDockDay, async ({ query }) => ({ body: await dockDay(ctx, query) }));
  addRoute(server, ctx, API_ROUTES.exportDockDayReceipts, async ({ query }) => {
    const { date, csv } = await dockDayReceiptsCsv(ctx, query);
    return {
      body: csv,
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="receipts-${date}.csv"` },
    };
  });
  addRoute(server, ctx, API_ROUTES.getStationSettings, async () => ({ body: await stationSettings(ctx) }));
  addRoute(server, ctx, API_ROUTES.updateStationSettings, async ({ body, afterCommit, t, now }) => {
    // The printer and the scanner stay the station's own; the rule-like settings are the site's.
    if (body.currency !== undefined || body.unset_conditions !== undefined || body.weight_check !== undefined)
      await assertNotSiteManaged(t, 'The currency, receiving with conditions not set and the weight check');
    if (body.serial_rules !== undefined) await assertNotSiteManaged(t, 'The serial rules');
    const settings = await changeSettingsIn(t, now, body);
    // Another printer may take the jobs that wait for a broken one: try them now.
    if (body.labels?.printer) afterCommit(async () => ctx.printing?.nudge());
    return { body: settings };
  });
  addRoute(server, ctx, API_ROUTES.getDispositionRules, async ({ t }) => ({ body: await dispositionRulesIn(t) }));
  addRoute(server, ctx, API_ROUTES.updateDispositionRules, async ({ body, t, now }) => {
    await assertNotSiteManaged(t, 'The disposition rules and bins');
    return { body: await replaceDispositionRules(t, now, body) };
  });
  addRoute(server, ctx, API_ROUTES.lookupCode, async ({ query }) => ({ body: await lookupCode(ctx, query.code) }));
  addRoute(server, ctx, API_ROUTES.listOperators, async ({ query, principal }) => {
    const listed = await listOperators(ctx);
    // A terminal never holds the badges that open a supervisor session (it asks about one: checkBadge).
    const all = principal.role === 'terminal' ? listed.map((o) => (o.role === 'supervisor' ? { ...o, badge_code: null } : o)) : listed;
    const start = (query.page - 1) * query.per_page;
    return { body: { data: all.slice(start, start + query.per_page), meta: listMeta(query.page, query.per_page, all.length) } };
  });
  addRoute<typeof API_ROUTES.createOperator, HashedPin>(
    server,
    ctx,
    API_ROUTES.createOperator,
    async ({ body, request, prepared, t, now }) => {
      await assertNotSiteManaged(t, 'The workers');
      const operator = operatorView(await addOperator(t, now, body, prepared.pinHash));
      return { body: operator, headers: { location: `${request.url.split('?')[0]}/${operator.id}` } };
    },
    PIN_HASHED_FIRST,
  );
  addRoute<typeof API_ROUTES.updateOperator, HashedPin>(
    server,
    ctx,
    API_ROUTES.updateOperator,
    async ({ params, body, prepared, t, now }) => {
      await assertNotSiteManaged(t, 'The workers');
      return { body: await changeOperator(t, now, params.id, body, prepared.pinHash) };
    },
    PIN_HASHED_FIRST,
  );
}
