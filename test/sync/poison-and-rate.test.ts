import { expect, it } from 'vitest';
import { packagesByTracking, RETURN_BODY, setUpstream, startLocal, syncOnce, tracking, useProxiedUpstream, waitFor } from './support.ts';

/*
 * A change the upstream refuses (422) is parked with the upstream's own message and never delays
 * the others; a person retries it or keeps the station's version from the API (the sync screen).
 * And with a small rate limit upstream, the station never exceeds it in any window.
 */

const ACCOUNT = 1001;
const rig = useProxiedUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'sync-poison-' });

it('parks a poison change with the upstream message, keeps the rest flowing, and lets a person act', async () => {
  const { upstream, proxy, dataDir } = rig;
  const ret = await upstream.api.createReturn({ ...RETURN_BODY, account_id: ACCOUNT });
  const parcels = [];
  for (let i = 0; i < 6; i += 1) parcels.push(await upstream.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('POISON') }));
  const [poison, stubborn] = parcels;
  if (!poison || !stubborn) throw new Error('no parcels');
  const refused = new Set([`/api/v1/accounts/${ACCOUNT}/return_packages/${poison.id}`, `/api/v1/accounts/${ACCOUNT}/return_packages/${stubborn.id}`]);
  proxy.fault = ({ method, path }) =>
    method === 'PATCH' && refused.has(path)
      ? {
          status: 422,
          body: {
            error: 'Unprocessable Entity',
            error_code: 'VALIDATION_FAILED',
            details: { message: 'The package cannot be received at this location.', fields: [{ path: 'status', message: 'Not allowed here.' }] },
          },
        }
      : null;
  await setUpstream(dataDir, proxy.url, upstream.syncToken, [ACCOUNT]);
  expect((await syncOnce(dataDir)).status).toBe(0);

  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '300' });
  try {
    const mine = await packagesByTracking(local.api, ACCOUNT);
    for (const pkg of mine.values()) await local.api.updatePackage(ACCOUNT, pkg.id, { status: 'received' });
    // The four others reach the upstream; the two refused ones wait for a person.
    await waitFor('the others upstream', async () => {
      const theirs = await packagesByTracking(upstream.api, ACCOUNT);
      return [...theirs.values()].filter((p) => p.status === 'received').length === 4;
    });
    const parked = await waitFor('two parked changes', async () => {
      const list = await local.api.listSyncChanges({ state: ['parked'] });
      return list.data.length === 2 ? list.data : null;
    });
    expect(parked.map((c) => c.label).sort()).toEqual([poison.tracking_number, stubborn.tracking_number].sort());
    expect(parked[0]?.error).toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
    expect(parked[0]?.error?.message).toContain('The package cannot be received at this location. (status: Not allowed here.)');
    const status = (await local.api.station()).sync;
    expect(status).toMatchObject({ state: 'error', pending_changes: 2 });
    const poisonLocal = mine.get(poison.tracking_number);
    const stubbornLocal = mine.get(stubborn.tracking_number);
    if (!poisonLocal || !stubbornLocal) throw new Error('missing');
    expect(await local.api.getPackageSync(ACCOUNT, poisonLocal.id)).toMatchObject({ upstream_id: poison.id, state: 'parked' });

    // The upstream is fixed: retry sends it. The other one: keep the station's version.
    refused.delete(`/api/v1/accounts/${ACCOUNT}/return_packages/${poison.id}`);
    expect(await local.api.retrySyncChange({ kind: 'return_package', id: poisonLocal.id })).toMatchObject({ state: 'waiting' });
    await local.api.keepLocalSyncChange({ kind: 'return_package', id: stubbornLocal.id });
    await waitFor('the retried change upstream', async () => (await upstream.api.getPackage(ACCOUNT, poison.id)).status === 'received');
    await waitFor('nothing waiting', async () => (await local.api.station()).sync.pending_changes === 0);
    expect((await local.api.station()).sync.state).toBe('online');
    expect((await local.api.getPackage(ACCOUNT, stubbornLocal.id)).status).toBe('received');
    expect((await upstream.api.getPackage(ACCOUNT, stubborn.id)).status).toBe('in_transit');
    await expect(local.api.retrySyncChange({ kind: 'return_package', id: stubbornLocal.id })).rejects.toMatchObject({ status: 404 });
  } finally {
    await local.station.stop();
  }
}, 180_000);

it('never exceeds a small upstream rate limit in any window, and honours 429', async () => {
  const { upstream, proxy, dataDir } = rig;
  const WINDOW_MS = 3_000;
  const LIMIT = 12;
  proxy.fault = null;
  proxy.rateLimit = { limit: LIMIT, windowMs: WINDOW_MS };
  const start = proxy.requests.length;
  // Offline work queues 20 changes; back online they go up paced by the headers.
  proxy.offline = true;
  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '500' });
  try {
    for (let i = 0; i < 10; i += 1) {
      const ret = await local.api.createReturn({ ...RETURN_BODY, email: `rate-${i}@example.com`, account_id: ACCOUNT });
      await local.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('RATE'), status: 'delivered' });
    }
    proxy.offline = false;
    await waitFor('every change upstream', async () => (await local.api.station()).sync.pending_changes === 0, 60_000);
  } finally {
    await local.station.stop();
  }
  const seen = proxy.requests.slice(start).filter((r) => r.status !== 'offline');
  const limited = seen.filter((r) => r.status === 429).length;
  expect(limited).toBeLessThanOrEqual(1); // at most the first one that taught the station the limit
  // The proxy's windows are fixed; count what it let through in each.
  const answered = seen.filter((r) => r.status !== 429).map((r) => r.at);
  const first = answered[0] ?? 0;
  const perWindow = new Map<number, number>();
  for (const at of answered) perWindow.set(Math.floor((at - first) / WINDOW_MS), (perWindow.get(Math.floor((at - first) / WINDOW_MS)) ?? 0) + 1);
  expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(LIMIT);
  const theirs = await packagesByTracking(upstream.api, ACCOUNT);
  expect([...theirs.keys()].filter((t) => t.startsWith('RATE'))).toHaveLength(10);
  proxy.rateLimit = null;
}, 180_000);
