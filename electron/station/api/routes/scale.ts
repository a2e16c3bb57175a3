import type { FastifyInstance } from 'fastify';
import { isStationScale } from '#shared/api/scale.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import type { DomainContext } from '../../domain/context.ts';
import { chooseScaleIn, scaleSettingsIn } from '../../domain/scale-settings.ts';
import { fail } from '../../errors.ts';
import { listSerialPorts } from '../../scale/ports.ts';
import { readScaleInTurn } from '../../scale/read.ts';
import { addRoute } from '../route.ts';

/**
 * The dock's scale (docs/api-reference.md, The scale): which one, the serial ports to choose from,
 * and a read of the station's own scale (serial or network) — the test read of Settings, and what
 * the dock asks when a parcel is weighed.
 */
export function scaleRoutes(server: FastifyInstance, ctx: DomainContext): void {
  addRoute(server, ctx, API_ROUTES.getScale, async ({ t }) => ({ body: await scaleSettingsIn(t) }));
  addRoute(server, ctx, API_ROUTES.chooseScale, async ({ t, now, body }) => ({ body: await chooseScaleIn(t, now, body.scale) }));
  addRoute(server, ctx, API_ROUTES.listSerialPorts, async () => ({ body: await listSerialPorts() }));
  addRoute(server, ctx, API_ROUTES.readScale, async ({ t }) => {
    const { scale } = await scaleSettingsIn(t);
    if (!isStationScale(scale))
      throw fail(
        'NOT_FOUND',
        `The station reads no scale itself: the scale is ${scale.kind === 'manual' ? 'typed by hand' : `read by the terminal (${scale.kind})`}.`,
      );
    return { body: await readScaleInTurn(scale) };
  });
}
