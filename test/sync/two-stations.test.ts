import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { RETURN_BODY, setUpstream, startLocal, startUpstream, syncOnce, tempDir, tracking, type Upstream } from './support.ts';

/*
 * Two stations and one upstream, with edits on all three: they converge, the ownership rules decide
 * every conflict (the back office's fields from upstream, the dock's from the station, status only
 * forward), and every value that was replaced or kept against the other side is written down.
 */

const ACCOUNT = 1001;
let upstream: Upstream;
let proxyA: FaultProxy;
let proxyB: FaultProxy;
const dirA = tempDir('sync-a-');
const dirB = tempDir('sync-b-');

beforeAll(async () => {
  upstream = await startUpstream({ accounts: [ACCOUNT] });
  proxyA = await startFaultProxy(upstream.origin);
  proxyB = await startFaultProxy(upstream.origin);
}, 120_000);
afterAll(async () => {
  await proxyA?.close();
  await proxyB?.close();
  await upstream?.stop();
  rmSync(dirA, { recursive: true, force: true });
  rmSync(dirB, { recursive: true, force: true });
}, 120_000);

/** Edits on a station while its upstream is unreachable (serve syncs on its own otherwise). */
async function offlineEdit(
  dataDir: string,
  proxy: FaultProxy,
  edit: (api: Awaited<ReturnType<typeof startLocal>>['api'], id: number) => Promise<unknown>,
  trackingNumber: string,
): Promise<void> {
  proxy.offline = true;
  const local = await startLocal(dataDir);
  try {
    const pkg = (await local.api.lookup(trackingNumber)).packages[0];
    if (!pkg) throw new Error('not pulled');
    await edit(local.api, pkg.id);
  } finally {
    await local.station.stop();
    proxy.offline = false;
  }
}

it('converges by the ownership rules and writes down every overwrite', async () => {
  const ret = await upstream.api.createReturn({ ...RETURN_BODY, account_id: ACCOUNT });
  const parcel = await upstream.api.createPackage(ACCOUNT, {
    return_id: ret.id,
    tracking_number: tracking('TWO'),
    weight: 1,
    weight_unit: 'kg',
    estimated_arrival: '2026-11-28T09:00:00Z',
  });
  await setUpstream(dirA, proxyA.url, upstream.syncToken, [ACCOUNT]);
  await setUpstream(dirB, proxyB.url, upstream.syncToken, [ACCOUNT]);
  expect((await syncOnce(dirA)).status).toBe(0);
  expect((await syncOnce(dirB)).status).toBe(0);

  // The back office re-weighs and re-schedules; station A (offline) re-weighs too, says "delivered"
  // and writes a note; station B receives the parcel.
  await upstream.api.updatePackage(ACCOUNT, parcel.id, { weight: 2, estimated_arrival: '2026-11-29T09:00:00Z' });
  await offlineEdit(
    dirA,
    proxyA,
    (api, id) => api.updatePackage(ACCOUNT, id, { weight: 5, status: 'delivered', notes: 'seen at door 3' }),
    parcel.tracking_number,
  );
  await offlineEdit(dirB, proxyB, (api, id) => api.updatePackage(ACCOUNT, id, { status: 'received' }), parcel.tracking_number);

  expect((await syncOnce(dirB)).status).toBe(0);
  const a = await syncOnce(dirA);
  expect(a.status, a.stdout + a.stderr).toBe(0);
  expect((await syncOnce(dirB)).status).toBe(0);

  const theirs = await upstream.api.getPackage(ACCOUNT, parcel.id);
  expect(theirs.status).toBe('received'); // B's move; A's "delivered" would have gone backwards
  expect(theirs.weight).toBe(2); // the back office's value
  expect(theirs.estimated_arrival).toBe('2026-11-29T09:00:00.000Z');
  const noted = await upstream.api.updatePackage(ACCOUNT, parcel.id, { notes: 'seen at door 3' });
  expect(noted.updated_at).toBe(theirs.updated_at); // A's note was already there: nothing changed

  for (const dir of [dirA, dirB]) {
    const station = await startLocal(dir);
    try {
      const mine = (await station.api.lookup(parcel.tracking_number)).packages[0];
      expect(mine).toMatchObject({ status: 'received', weight: 2, estimated_arrival: '2026-11-29T09:00:00.000Z' });
      const overview = await station.api.syncOverview();
      expect(overview.status.pending_changes).toBe(0);
      if (dir === dirA) {
        // A's own weight and status were replaced: both written down, nothing silently.
        expect(overview.conflicts).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ field: 'weight', local_value: 5, upstream_value: 2, kept: 'upstream' }),
            expect.objectContaining({ field: 'status', local_value: 'delivered', upstream_value: 'received', kept: 'upstream' }),
          ]),
        );
      }
      if (!mine) throw new Error('missing');
      expect(await station.api.getPackageSync(ACCOUNT, mine.id)).toMatchObject({ upstream_id: parcel.id, state: 'synced' });
    } finally {
      await station.station.stop();
    }
  }
  expect((await upstream.api.listPackages(ACCOUNT)).meta.total_count).toBe(1);
}, 180_000);
