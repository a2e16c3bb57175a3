import { expect, it } from 'vitest';
import type { SeenRequest } from './fault-proxy.ts';
import { packagesByTracking, RETURN_BODY, setUpstream, startLocal, syncOnce, tracking, useProxiedUpstream, waitFor } from './support.ts';

/*
 * A failing upstream is not hammered: a 5xx or a lost answer backs off the whole
 * upstream, honouring Retry-After, and after the backoff one probe goes alone. Before, during a
 * 30-second outage answered 503 + Retry-After: 5, eight stations sent 1,252 requests: every waiting
 * change was tried and backed off on its own. Real processes: the station under test, the fault
 * proxy, and a second station as the upstream.
 */

const ACCOUNT = 1001;
const rig = useProxiedUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'sync-outage-' });

const RETRY_AFTER_S = 2;
const outage = () => ({
  status: 503,
  headers: { 'retry-after': String(RETRY_AFTER_S) },
  body: { error: 'Service Unavailable', error_code: 'UNAVAILABLE', details: { message: 'Down for maintenance.' } },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The answered requests since `from`, in order. */
const since = (requests: SeenRequest[], from: number) => requests.slice(from).filter((r) => r.status !== 'offline');

it('sends a handful of requests during a 503 outage with 20 changes waiting, each after Retry-After, and everything once after it', async () => {
  const { upstream, proxy, dataDir } = rig;
  await setUpstream(dataDir, proxy.url, upstream.syncToken, [ACCOUNT]);
  proxy.fault = outage;
  const start = proxy.requests.length;
  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '500' });
  const numbers: string[] = [];
  let outageEnd: number;
  try {
    // 20 changes made at the dock while the upstream answers 503 (each commit asks for a push round).
    for (let i = 0; i < 10; i += 1) {
      const ret = await local.api.createReturn({ ...RETURN_BODY, email: `outage-${i}@example.com`, account_id: ACCOUNT });
      const pkg = await local.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('OUTAGE'), status: 'delivered' });
      numbers.push(pkg.tracking_number);
    }
    const status = await waitFor('the status to say the upstream backs off', async () => {
      const sync = (await local.api.station()).sync;
      return sync.backoff_until !== null && sync.pending_changes === 20 ? sync : null;
    });
    expect(status).toMatchObject({ state: 'offline', pending_changes: 20 });
    expect(Date.parse(status.backoff_until ?? '')).toBeGreaterThan(Date.now() - 1_000);
    expect(status.last_error).toMatch(/503/);
    await sleep(8_000);
    proxy.fault = null;
    outageEnd = proxy.requests.length;

    // Recovery: the probe goes out as the gate opens, then everything goes up.
    const recoveredAt = Date.now();
    await waitFor('every change upstream', async () => (await local.api.station()).sync.pending_changes === 0, 30_000);
    expect(Date.now() - recoveredAt).toBeLessThan(15_000);
    // The round that sent them says online once it is over (the count may drop to 0 before that).
    await waitFor('the status online', async () => {
      const sync = (await local.api.station()).sync;
      return sync.state === 'online' && sync.backoff_until === null && sync.last_error === null;
    });
  } finally {
    await local.station.stop();
  }

  const during = proxy.requests.slice(start, outageEnd);
  // About 10 s of outage: the first failure, then one probe every 2-3 s (longer as they fail), not one per change.
  expect(during.length, JSON.stringify(during)).toBeGreaterThanOrEqual(2);
  expect(during.length, JSON.stringify(during)).toBeLessThanOrEqual(8);
  expect(during.every((r) => r.status === 503)).toBe(true);
  // Never earlier than Retry-After after a failure.
  for (let i = 1; i < during.length; i += 1)
    expect((during[i]?.at ?? 0) - (during[i - 1]?.at ?? 0), JSON.stringify(during)).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000 - 50);

  // Everything once: no duplicate package (packagesByTracking throws on one), every return once.
  const theirs = await packagesByTracking(upstream.api, ACCOUNT);
  for (const trackingNumber of numbers) expect(theirs.get(trackingNumber)?.status, trackingNumber).toBe('delivered');
  expect(theirs.size).toBe(10);
  expect((await upstream.api.listAccountReturns(ACCOUNT, { per_page: 250 })).meta.total_count).toBe(10);
  expect(since(proxy.requests, outageEnd).filter((r) => r.method === 'POST').length).toBe(20);
}, 120_000);

it('a record that always makes the upstream fail does not hold the others back', async () => {
  const { upstream, proxy } = rig;
  const ret = await upstream.api.createReturn({ ...RETURN_BODY, account_id: ACCOUNT });
  const parcels: Array<Awaited<ReturnType<typeof upstream.api.createPackage>>> = [];
  for (let i = 0; i < 5; i += 1) parcels.push(await upstream.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('FAIL500') }));
  const poison = parcels[0];
  if (!poison) throw new Error('no parcels');
  const poisonPath = `/api/v1/accounts/${ACCOUNT}/return_packages/${poison.id}`;
  // The upstream crashes on this one record's PATCH, every time (no Retry-After).
  proxy.fault = ({ method, path }) => (method === 'PATCH' && path === poisonPath ? { status: 500 } : null);
  const local = await startLocal(rig.dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '500' });
  try {
    const mine = await waitFor('the parcels pulled', async () => {
      const pulled = await packagesByTracking(local.api, ACCOUNT);
      return parcels.every((p) => pulled.has(p.tracking_number)) ? pulled : null;
    });
    // The poison first (it is the oldest change), then the others.
    for (const parcel of parcels) {
      const pkg = mine.get(parcel.tracking_number);
      if (pkg) await local.api.updatePackage(ACCOUNT, pkg.id, { status: 'received' });
    }
    await waitFor(
      'the four others upstream',
      async () => {
        const theirs = await packagesByTracking(upstream.api, ACCOUNT);
        return parcels.slice(1).every((p) => theirs.get(p.tracking_number)?.status === 'received');
      },
      30_000,
    );
    const change = (await local.api.listSyncChanges({ state: ['retrying'] })).data.find((c) => c.label === poison.tracking_number);
    expect(change?.error).toMatchObject({ status: 500 });
  } finally {
    await local.station.stop();
    proxy.fault = null;
  }
}, 120_000);

it('sync --once waits for the gate, sends a probe or two, and says until when it backs off', async () => {
  const { proxy, dataDir } = rig;
  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '600000' });
  try {
    const ret = await local.api.createReturn({ ...RETURN_BODY, email: 'outage-once@example.com', account_id: ACCOUNT });
    proxy.fault = outage;
    await local.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('ONCE'), status: 'delivered' });
  } finally {
    await local.station.stop();
  }
  const start = proxy.requests.length;
  const result = await syncOnce(dataDir);
  proxy.fault = null;
  const sent = proxy.requests.slice(start);
  // The upstream's own exit code: unreachable or failing (SYNC_EXIT.unreachable).
  expect(result.status, result.stdout + result.stderr).toBe(5);
  expect(result.stdout).toMatch(/^sync: offline$/m);
  expect(result.stdout).toMatch(/upstream backing off until \d{4}-\d\d-\d\dT/);
  // Two rounds without progress end it: the first request, then one probe after Retry-After.
  expect(sent.length, JSON.stringify(sent)).toBe(2);
  expect((sent[1]?.at ?? 0) - (sent[0]?.at ?? 0)).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000 - 50);
  const after = await syncOnce(dataDir);
  expect(after.status, after.stdout + after.stderr).toBe(0);
}, 120_000);
