import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiClient, ApiError, SupervisorSessionEndedError } from '#shared/api/client.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { startStation, type TestStation } from './support.ts';

/*
 * A screen's client when its supervisor's session ends at the station (docs/decisions/supervisor.md,
 * Sessions): here a new PIN set by an administrator, as a member's join takes its hub's PIN for the
 * badge. The next supervisor's call is refused as SupervisorSessionEndedError (not the screen's own
 * token refused), the client is told before the call throws and stops sending that token, and nothing
 * was changed; the terminal's own calls go on.
 */

let s: TestStation;
let client: ApiClient;
let ended = 0;

beforeAll(async () => {
  s = await startStation();
  const clock = { now: () => new Date().toISOString() };
  const terminal = (await createToken(s.station.store, clock, { scope: 'station', role: 'terminal', accountId: null, name: 'UI link' })).secret;
  client = new ApiClient({ baseUrl: s.origin, token: terminal, onSupervisorSessionEnded: () => (ended += 1) });
});
afterAll(async () => s.close());

it('tells a supervisor session ended at the station from a refused terminal token, once, and changes nothing', async () => {
  const session = await client.createFirstSupervisor({ name: 'Morgan', badge_code: 'SUP-END-1', pin: '2468' });
  client.useSupervisorToken(session.token);
  await client.updateStationSettings({ currency: 'EUR' });

  const admin = new ApiClient({ baseUrl: s.origin, token: s.stationToken });
  await admin.updateOperator(session.operator.id, { pin: '1357' });

  const refused = await client.updateStationSettings({ currency: 'GBP' }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(SupervisorSessionEndedError);
  expect((refused as SupervisorSessionEndedError).status).toBe(401);
  expect(ended).toBe(1);
  expect((await client.stationSettings()).currency).toBe('EUR');

  // The ended session is not sent again: the terminal's own token is, which may not change settings.
  const again = await client.updateStationSettings({ currency: 'GBP' }).catch((error: unknown) => error);
  expect(again).toBeInstanceOf(ApiError);
  expect(again).not.toBeInstanceOf(SupervisorSessionEndedError);
  expect((again as ApiError).errorCode).toBe('SUPERVISOR_REQUIRED');
  expect(ended).toBe(1);
});
