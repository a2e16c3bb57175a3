import { expect, it } from 'vitest';
import type { StationEvent } from '#shared/api/events.ts';
import { runCli, setUpstream, startLocal, syncOnce, useProxiedUpstream, waitFor } from './support.ts';

/*
 * A refused token pauses sync with a clear message until the settings change; integrations follow
 * the state on the event stream (`sync.status`).
 */

const ACCOUNT = 1001;
const rig = useProxiedUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'sync-pause-' });

it('pauses on a refused token with a clear message, and resumes once the token is set again', async () => {
  const { upstream, proxy, dataDir } = rig;
  await setUpstream(dataDir, proxy.url, 'rst_not-a-valid-token', [ACCOUNT]);
  const refused = await syncOnce(dataDir);
  // Its own exit code: the token was refused (SYNC_EXIT.paused).
  expect(refused.status).toBe(6);
  expect(refused.stdout).toContain('sync: error');
  expect(refused.stdout).toMatch(/refused the station token \(401: The access token is invalid or expired\.\)/);
  // Paused: a second round sends nothing at all.
  const before = proxy.requests.length;
  expect((await syncOnce(dataDir)).status).toBe(6);
  expect(proxy.requests.length).toBe(before);

  await setUpstream(dataDir, proxy.url, upstream.syncToken, [ACCOUNT]);
  const resumed = await syncOnce(dataDir);
  expect(resumed.status, resumed.stdout).toBe(0);
  expect(resumed.stdout).toContain('sync: online');
  const shown = await runCli(['upstream', 'show', '--data-dir', dataDir]);
  expect(shown.stdout).not.toContain(upstream.syncToken);
}, 120_000);

it('streams sync.status events as the upstream goes away and comes back', async () => {
  const { proxy, dataDir } = rig;
  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '300' });
  const seen: Array<Extract<StationEvent, { event: 'sync.status' }>['data']['sync']> = [];
  const controller = new AbortController();
  const following = local.api.subscribeEvents(ACCOUNT, {
    signal: controller.signal,
    onEvent: (event) => {
      if (event.event === 'sync.status') seen.push(event.data.sync);
    },
  });
  try {
    // The first round pulls the whole account first (a full read, then the question whether updated_since is honoured).
    await waitFor('an online state', async () => seen.some((s) => s.state === 'online'), 30_000);
    proxy.offline = true;
    const ret = await local.api.createReturn({
      email: 'events@example.com',
      receive_by: '2026-12-01',
      total_price: 1,
      currency: 'EUR',
      weight: 1,
      weight_unit: 'kg',
      reason_of_return: 'x',
      length: 1,
      width: 1,
      height: 1,
      dimension_unit: 'cm',
      return_line_items: [{ quantity: 1, unreceived_quantity: 1, name: 'A', price: 1, currency: 'EUR', merchant_sku: 'A-1' }],
      account_id: ACCOUNT,
    });
    const offline = await waitFor('an offline state', async () => seen.find((s) => s.state === 'offline'));
    expect(offline.pending_changes).toBeGreaterThan(0);
    proxy.offline = false;
    await waitFor(
      'online with nothing waiting',
      async () => seen.some((s, i) => i > seen.indexOf(offline) && s.state === 'online' && s.pending_changes === 0),
      20_000,
    );
    expect(await local.api.getReturnSync(ACCOUNT, ret.id)).toMatchObject({ state: 'synced', upstream_id: expect.any(Number) });
  } finally {
    controller.abort();
    await following.catch(() => undefined);
    await local.station.stop();
  }
}, 120_000);
