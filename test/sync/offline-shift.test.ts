import { expect, it } from 'vitest';
import {
  attachPhoto,
  comparable,
  expectSameMedia,
  packagesByTracking,
  photo,
  RETURN_BODY,
  setUpstream,
  startLocal,
  syncOnce,
  tracking,
  useProxiedUpstream,
  waitFor,
} from './support.ts';

/*
 * A shift offline: the dock receives what was pulled, inspects and photographs parcels, and registers
 * parcels nobody announced while the upstream is unreachable; back online, one `sync --once`
 * converges and the upstream holds everything exactly once, field by field equal to the station,
 * photos byte for byte. (Scaled down for CI: the bench measures 1,000 changes.)
 */

const ACCOUNT = 1001;
const ANNOUNCED = 24;
const WALK_INS = 8;
/** Two per inspected parcel, a shared one on every fourth, one per walk-in (see the shift below). */
const INSPECTED = Array.from({ length: ANNOUNCED }, (_, i) => i).filter((i) => i % 4 !== 3 && i % 2 === 0);
const PHOTOS = 2 * INSPECTED.length + INSPECTED.filter((i) => i % 4 === 0).length + WALK_INS;
const rig = useProxiedUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'sync-shift-' });

it('converges exactly once after an offline shift', async () => {
  const { upstream, proxy, dataDir } = rig;
  const ret = await upstream.api.createReturn({ ...RETURN_BODY, account_id: ACCOUNT });
  for (let i = 0; i < ANNOUNCED; i += 1) {
    await upstream.api.createPackage(ACCOUNT, {
      return_id: ret.id,
      tracking_number: tracking('ANN'),
      carrier_id: 1 + (i % 3),
      weight: 1 + i,
      weight_unit: 'kg',
    });
  }
  await setUpstream(dataDir, proxy.url, upstream.syncToken, [ACCOUNT]);
  expect((await syncOnce(dataDir)).status).toBe(0);

  proxy.offline = true;
  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '500' });
  try {
    const pulled = [...(await packagesByTracking(local.api, ACCOUNT)).values()];
    expect(pulled).toHaveLength(ANNOUNCED);
    const lines = (await local.api.getReturn(ACCOUNT, pulled[0]?.return_id ?? 0)).return_line_items;
    for (const [i, pkg] of pulled.entries()) {
      if (i % 4 === 3) continue; // a few parcels do not arrive this shift
      if (i % 2 === 0) {
        // Inspected: two items against the return's lines, one re-graded, one scanned by mistake and removed.
        const kept = await local.api.createLineItem(ACCOUNT, pkg.id, {
          return_line_item_id: lines[0]?.id ?? null,
          quantity: 1,
          condition: 'good',
          barcode: `40${i}`,
          tags: ['restock'],
        });
        const wrong = await local.api.createLineItem(ACCOUNT, pkg.id, { return_line_item_id: lines[1]?.id ?? null, quantity: 1, condition: 'damaged' });
        await local.api.updateLineItem(ACCOUNT, pkg.id, kept.id, { condition: 'like_new', notes: 'tags on' });
        await local.api.deleteLineItem(ACCOUNT, pkg.id, wrong.id);
        await local.api.createLineItem(ACCOUNT, pkg.id, {
          return_line_item_id: null,
          quantity: 1,
          name: 'Unexpected scarf',
          merchant_sku: 'SCARF-1',
          condition: 'new',
          defective: i % 4 === 0,
        });
        // Photos: two of the parcel, and the dock's damage-report photo that every fourth parcel shares.
        await attachPhoto(local.api, ACCOUNT, pkg.id, photo(1000 + i, 8));
        await attachPhoto(local.api, ACCOUNT, pkg.id, photo(2000 + i, 8));
        if (i % 4 === 0) await attachPhoto(local.api, ACCOUNT, pkg.id, photo(1, 8));
      }
      await local.api.updatePackage(ACCOUNT, pkg.id, { status: i % 2 === 0 ? 'received' : 'delivered' });
      if (i % 3 === 0) await local.api.updatePackage(ACCOUNT, pkg.id, { notes: `checked ${i}` });
    }
    for (let i = 0; i < WALK_INS; i += 1) {
      const walkInReturn = await local.api.createReturn({ ...RETURN_BODY, email: `walk-in-${i}@example.com`, account_id: ACCOUNT });
      const pkg = await local.api.createPackage(ACCOUNT, {
        return_id: walkInReturn.id,
        tracking_number: tracking('WALK'),
        status: 'delivered',
        weight: 2,
        weight_unit: 'kg',
      });
      await attachPhoto(local.api, ACCOUNT, pkg.id, photo(3000 + i, 8));
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
    // Received packages: arrival and every inspected item equal, field by field (ids differ by design).
    const item = (i: {
      quantity: number;
      merchant_sku: string | null;
      name: string | null;
      condition: string | null;
      defective: boolean;
      notes: string | null;
      barcode: string | null;
      tags: string[];
    }) => ({
      quantity: i.quantity,
      merchant_sku: i.merchant_sku,
      name: i.name,
      condition: i.condition,
      defective: i.defective,
      notes: i.notes,
      barcode: i.barcode,
      tags: i.tags,
    });
    const received = [...mine.values()].filter((p) => p.status === 'received');
    for (const pkg of received) {
      const twin = theirs.get(pkg.tracking_number);
      if (!twin) throw new Error('missing twin');
      const [upstreamView, localView] = [await upstream.api.getPackage(ACCOUNT, twin.id), await check.api.getPackage(ACCOUNT, pkg.id)];
      expect(upstreamView.actual_arrival).toBe(localView.actual_arrival);
      expect(upstreamView.line_items.map(item), pkg.tracking_number).toEqual(localView.line_items.map(item));
      expect(upstreamView.line_items.map((i) => i.return_line_item_id === null)).toEqual(localView.line_items.map((i) => i.return_line_item_id === null));
    }
    expect(received.some((p) => p.tracking_number.startsWith('ANN'))).toBe(true);
    // Every photo upstream byte for byte on its parcel, each once.
    expect(await expectSameMedia(check.api, upstream.api, ACCOUNT)).toBe(PHOTOS);
    expect((await upstream.api.listAccountReturns(ACCOUNT)).meta.total_count).toBe(1 + WALK_INS);
    expect((await check.api.station()).sync).toMatchObject({ state: 'online', pending_changes: 0 });
  } finally {
    await check.station.stop();
  }
  // Every create went up once: the proxy saw one POST per walk-in return and package.
  const posts = proxy.requests.filter((r) => r.method === 'POST' && (r.status === 200 || r.status === 201));
  expect(posts.filter((r) => r.path === '/returns' || r.path.endsWith('/return_packages'))).toHaveLength(2 * WALK_INS);
  // Items: two kept per inspected parcel; the one removed before any send never went up at all.
  expect(posts.filter((r) => r.path.endsWith('/line_items'))).toHaveLength(2 * INSPECTED.length);
  expect(posts.filter((r) => r.path.endsWith('/media_files'))).toHaveLength(PHOTOS);
  expect(proxy.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
}, 120_000);
