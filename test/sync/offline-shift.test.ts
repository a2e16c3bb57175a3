import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { comparable, packagesByTracking, RETURN_BODY, setUpstream, startLocal, startUpstream, syncOnce, tempDir, tracking, type Upstream, waitFor } from './support.ts';

/*
 * A shift offline: the dock receives what was pulled and registers parcels nobody announced while
 * the upstream is unreachable; back online, one `sync --once` converges and the upstream holds
 * everything exactly once, field by field equal to the station. (Scaled down for CI: the bench
 * measures 1,000 changes.)
 */

const ACCOUNT = 1001;
const ANNOUNCED = 24;
const WALK_INS = 8;
let upstream: Upstream;
let proxy: FaultProxy;
const dataDir = tempDir('sync-shift-');

beforeAll(async () => {
  upstream = await startUpstream({ accounts: [ACCOUNT] });
  proxy = await startFaultProxy(upstream.origin);
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await upstream?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

it('converges exactly once after an offline shift', async () => {
  const ret = await upstream.api.createReturn({ ...RETURN_BODY, account_id: ACCOUNT });
  for (let i = 0; i < ANNOUNCED; i += 1) {
    await upstream.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('ANN'), carrier_id: 1 + (i % 3), weight: 1 + i, weight_unit: 'kg' });
  }
  await setUpstream(dataDir, proxy.url, upstream.syncToken, [ACCOUNT]);
  expect((await syncOnce(dataDir)).status).toBe(0);

  proxy.offline = true;
  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '500' });
  try {
    const pulled = [...(await packagesByTracking(local.api, ACCOUNT)).values()];
    expect(pulled).toHaveLength(ANNOUNCED);
    for (const [i, pkg] of pulled.entries()) {
      if (i % 4 === 3) continue; // a few parcels do not arrive this shift
      await local.api.updatePackage(ACCOUNT, pkg.id, { status: i % 2 === 0 ? 'received' : 'delivered' });
      if (i % 3 === 0) await local.api.updatePackage(ACCOUNT, pkg.id, { notes: `checked ${i}` });
    }
    for (let i = 0; i < WALK_INS; i += 1) {
      const walkInReturn = await local.api.createReturn({ ...RETURN_BODY, email: `walk-in-${i}@example.com`, account_id: ACCOUNT });
      const pkg = await local.api.createPackage(ACCOUNT, { return_id: walkInReturn.id, tracking_number: tracking('WALK'), status: 'delivered', weight: 2, weight_unit: 'kg' });
      if (i % 2 === 0) await local.api.updatePackage(ACCOUNT, pkg.id, { status: 'received' });
    }
    const offline = await waitFor('the station to notice it is offline', async () => {
      const status = (await local.api.station()).sync;
      return status.state === 'offline' ? status : null;
    });
    expect(offline.pending_changes).toBeGreaterThan(0);
    expect(offline.last_error).toMatch(/cannot be reached/);
  } finally {
    expect(await local.station.stop()).toBe(0);
  }

  proxy.offline = false;
  const result = await syncOnce(dataDir);
  expect(result.status, result.stdout + result.stderr).toBe(0);
  expect(result.stdout).toContain('waiting: 0 changes');

  const check = await startLocal(dataDir);
  try {
    const mine = await packagesByTracking(check.api, ACCOUNT);
    const theirs = await packagesByTracking(upstream.api, ACCOUNT);
    expect(theirs.size).toBe(ANNOUNCED + WALK_INS);
    expect([...theirs.keys()].sort()).toEqual([...mine.keys()].sort());
    for (const [trackingNumber, pkg] of mine) {
      const twin = theirs.get(trackingNumber);
      expect(twin && comparable(twin), trackingNumber).toEqual(comparable(pkg));
    }
    const received = [...mine.values()].filter((p) => p.status === 'received');
    for (const pkg of received.slice(0, 5)) {
      const twin = theirs.get(pkg.tracking_number);
      if (!twin) throw new Error('missing twin');
      expect((await upstream.api.getPackage(ACCOUNT, twin.id)).actual_arrival).toBe((await check.api.getPackage(ACCOUNT, pkg.id)).actual_arrival);
    }
    expect((await upstream.api.listAccountReturns(ACCOUNT)).meta.total_count).toBe(1 + WALK_INS);
    expect((await check.api.station()).sync).toMatchObject({ state: 'online', pending_changes: 0 });
  } finally {
    await check.station.stop();
  }
  // Every create went up once: the proxy saw one POST per walk-in return and package.
  expect(proxy.requests.filter((r) => r.method === 'POST' && r.status === 200 || r.method === 'POST' && r.status === 201)).toHaveLength(2 * WALK_INS);
}, 120_000);
