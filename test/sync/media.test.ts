import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  attachPhoto,
  expectSameMedia,
  mediaOf,
  packagesByTracking,
  photo,
  RETURN_BODY,
  setUpstream,
  sha256Of,
  startLocal,
  killServeAtRandom,
  syncOnce,
  tempDir,
  tracking,
  useProxiedUpstream,
  waitFor,
} from './support.ts';

/*
 * Photos taken at the dock go up as a content-hash upload queue: each hash once per package, before
 * the package's PATCH, byte for byte, and exactly once although the proxy strips Idempotency-Key, the
 * answers of uploads are lost, and serve is SIGKILLed in the middle of uploads. An upstream without
 * media keeps them on the station, says so, and everything else still syncs.
 */

const ACCOUNT = 1001;
const NO_MEDIA_ACCOUNT = 1002;
const rig = useProxiedUpstream({ accounts: [ACCOUNT, NO_MEDIA_ACCOUNT], dataDirPrefix: 'sync-media-' });
const noMediaDir = tempDir('sync-no-media-');
beforeAll(() => {
  rig.proxy.stripIdempotencyKey = true;
});
afterAll(() => rmSync(noMediaDir, { recursive: true, force: true }));

const isUpload = (r: { method: string; path: string }) => r.method === 'POST' && r.path.endsWith('/media_files');

it('uploads photos taken offline byte for byte exactly once, through a lost answer on every upload, before the PATCH', async () => {
  const { upstream, proxy, dataDir } = rig;
  const ret = await upstream.api.createReturn({ ...RETURN_BODY, account_id: ACCOUNT });
  const announced = [];
  for (let i = 0; i < 3; i += 1) announced.push(await upstream.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('PHOTO') }));
  await setUpstream(dataDir, proxy.url, upstream.syncToken, [ACCOUNT]);
  expect((await syncOnce(dataDir)).status).toBe(0);

  proxy.offline = true;
  const local = await startLocal(dataDir);
  try {
    const mine = await packagesByTracking(local.api, ACCOUNT);
    const [a, b, c] = announced.map((u) => mine.get(u.tracking_number));
    if (!a || !b || !c) throw new Error('not pulled');
    await attachPhoto(local.api, ACCOUNT, a.id, photo(1));
    await attachPhoto(local.api, ACCOUNT, a.id, photo(2));
    await attachPhoto(local.api, ACCOUNT, a.id, photo(1)); // the same photo twice: one upstream file
    await attachPhoto(local.api, ACCOUNT, b.id, photo(3, 64));
    const removed = await attachPhoto(local.api, ACCOUNT, b.id, photo(4)); // taken by mistake, removed before any send
    await local.api.deleteMedia(ACCOUNT, b.id, removed.id);
    for (const pkg of [a, b, c]) await local.api.updatePackage(ACCOUNT, pkg.id, { status: 'received' });
    // A parcel nobody announced, photographed at the dock.
    const walkInReturn = await local.api.createReturn({ ...RETURN_BODY, email: 'photo-walk-in@example.com', account_id: ACCOUNT });
    const walkIn = await local.api.createPackage(ACCOUNT, { return_id: walkInReturn.id, tracking_number: tracking('PHOTOWALK'), status: 'delivered' });
    await attachPhoto(local.api, ACCOUNT, walkIn.id, photo(5));
    expect((await local.api.getPackageSync(ACCOUNT, a.id)).state).toBe('pending');
  } finally {
    await local.station.stop();
  }

  proxy.offline = false;
  const lostOnce = new Set<string>();
  proxy.loseAnswer = (req) => {
    if (!isUpload(req) || lostOnce.has(req.body)) return false;
    lostOnce.add(req.body);
    return true;
  };
  const start = proxy.requests.length;
  const result = await syncOnce(dataDir);
  proxy.loseAnswer = null;
  expect(result.status, result.stdout + result.stderr).toBe(0);
  expect(result.stdout).toContain('media: 0 files uploaded'); // every upload landed with its answer lost, then was found upstream
  expect(result.stdout).toContain('waiting: 0 changes');

  const seen = proxy.requests.slice(start);
  expect(seen.filter((r) => isUpload(r) && r.status === 'lost')).toHaveLength(4);
  expect(seen.filter((r) => isUpload(r) && r.status !== 'lost')).toHaveLength(0); // found upstream, not sent again
  // Each received package's PATCH went after its uploads.
  for (const u of announced.slice(0, 2)) {
    const path = `/api/v1/accounts/${ACCOUNT}/return_packages/${u.id}`;
    const lastUpload = seen.findLastIndex((r) => isUpload(r) && r.path === `${path}/media_files`);
    const patch = seen.findIndex((r) => r.method === 'PATCH' && r.path === path);
    expect(lastUpload).toBeGreaterThanOrEqual(0);
    expect(patch).toBeGreaterThan(lastUpload);
  }

  const check = await startLocal(dataDir);
  try {
    expect(await expectSameMedia(check.api, upstream.api, ACCOUNT)).toBe(4);
    expect((await upstream.api.getPackage(ACCOUNT, announced[0]?.id ?? 0)).status).toBe('received');
    expect((await check.api.station()).sync).toMatchObject({ state: 'online', pending_changes: 0, media_kept_local: null });
  } finally {
    await check.station.stop();
  }
}, 180_000);

it('uploads each photo exactly once across SIGKILLs in the middle of uploads', async () => {
  const { upstream, proxy, dataDir } = rig;
  proxy.offline = true;
  const local = await startLocal(dataDir);
  const hashes: string[] = [];
  try {
    for (let i = 0; i < 6; i += 1) {
      const ret = await local.api.createReturn({ ...RETURN_BODY, email: `kill-photo-${i}@example.com`, account_id: ACCOUNT });
      const pkg = await local.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('KILLPHOTO'), status: 'delivered' });
      for (let j = 0; j < 3; j += 1) {
        const bytes = photo(100 + i * 10 + j, 256);
        hashes.push(sha256Of(bytes));
        await attachPhoto(local.api, ACCOUNT, pkg.id, bytes);
      }
      await local.api.updatePackage(ACCOUNT, pkg.id, { status: 'received' });
    }
  } finally {
    await local.station.stop();
    proxy.offline = false;
  }
  proxy.delayMs = 60; // uploads last long enough to be cut
  const start = proxy.requests.length;
  await killServeAtRandom(dataDir, { minMs: 300, spreadMs: 700 });
  proxy.delayMs = 0;
  expect(proxy.requests.slice(start).some(isUpload)).toBe(true); // the kills did cut rounds that were uploading
  const result = await syncOnce(dataDir);
  expect(result.status, result.stdout + result.stderr).toBe(0);

  const check = await startLocal(dataDir);
  try {
    expect(await expectSameMedia(check.api, upstream.api, ACCOUNT)).toBe(4 + hashes.length);
  } finally {
    await check.station.stop();
  }
}, 180_000);

it('keeps media local where the upstream has none, says so, syncs the rest, and sends them once it has', async () => {
  const { upstream, proxy } = rig;
  proxy.fault = ({ path }) =>
    path.includes('/media_files')
      ? { status: 404, body: { error: 'Not Found', error_code: 'NOT_FOUND', details: { message: 'Route POST:/media_files not found.' } } }
      : null;
  const ret = await upstream.api.createReturn({ ...RETURN_BODY, account_id: NO_MEDIA_ACCOUNT });
  const parcel = await upstream.api.createPackage(NO_MEDIA_ACCOUNT, { return_id: ret.id, tracking_number: tracking('NOMEDIA') });
  await setUpstream(noMediaDir, proxy.url, upstream.syncToken, [NO_MEDIA_ACCOUNT]);
  expect((await syncOnce(noMediaDir)).status).toBe(0);

  const bytes = photo(7, 16);
  const local = await startLocal(noMediaDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '300' });
  try {
    const pkg = (await packagesByTracking(local.api, NO_MEDIA_ACCOUNT)).get(parcel.tracking_number);
    if (!pkg) throw new Error('not pulled');
    await attachPhoto(local.api, NO_MEDIA_ACCOUNT, pkg.id, bytes);
    await local.api.createLineItem(NO_MEDIA_ACCOUNT, pkg.id, {
      return_line_item_id: null,
      quantity: 1,
      name: 'Boots',
      merchant_sku: 'BOOT-1',
      condition: 'good',
    });
    await local.api.updatePackage(NO_MEDIA_ACCOUNT, pkg.id, { status: 'received' });
    // Everything else goes up.
    await waitFor('the package received upstream', async () => (await upstream.api.getPackage(NO_MEDIA_ACCOUNT, parcel.id)).status === 'received');
    const status = await waitFor('nothing waiting', async () => {
      const sync = (await local.api.station()).sync;
      return sync.pending_changes === 0 && sync.media_kept_local !== null ? sync : null;
    });
    expect(status.state).toBe('online');
    expect(status.media_kept_local).toMatch(/^media kept local: upstream has no media support \(404: Route POST:\/media_files not found\.\)/);
    const upstreamView = await upstream.api.getPackage(NO_MEDIA_ACCOUNT, parcel.id);
    expect(upstreamView.media_files).toEqual([]);
    expect(upstreamView.line_items.map((i) => i.merchant_sku)).toEqual(['BOOT-1']);
    // The photo is still the station's, whole.
    expect([...(await mediaOf(local.api, NO_MEDIA_ACCOUNT, pkg.id)).keys()]).toEqual([sha256Of(bytes)]);
  } finally {
    await local.station.stop();
  }
  expect(proxy.requests.filter((r) => isUpload(r) && r.path.includes(`/${NO_MEDIA_ACCOUNT}/`))).toHaveLength(1); // asked once, not per round

  // Across a restart the station still says so; `sync --once` too.
  const again = await syncOnce(noMediaDir);
  expect(again.status, again.stdout).toBe(0);
  expect(again.stdout).toContain('media kept local: upstream has no media support');

  // The upstream gains media; setting it again sends what was kept.
  proxy.fault = null;
  await setUpstream(noMediaDir, proxy.url, upstream.syncToken, [NO_MEDIA_ACCOUNT]);
  const sent = await syncOnce(noMediaDir);
  expect(sent.status, sent.stdout).toBe(0);
  expect(sent.stdout).toContain('media: 1 files uploaded');
  expect(sent.stdout).not.toContain('media kept local');
  const upstreamMedia = await mediaOf(upstream.api, NO_MEDIA_ACCOUNT, parcel.id);
  expect(Buffer.from(upstreamMedia.get(sha256Of(bytes)) ?? []).equals(Buffer.from(bytes))).toBe(true);
  const check = await startLocal(noMediaDir);
  try {
    const pkg = (await packagesByTracking(check.api, NO_MEDIA_ACCOUNT)).get(parcel.tracking_number);
    expect((await check.api.getPackageSync(NO_MEDIA_ACCOUNT, pkg?.id ?? 0)).state).toBe('synced');
  } finally {
    await check.station.stop();
  }
}, 180_000);
