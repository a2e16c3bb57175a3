import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleMedia, startStation, type TestStation } from '../api/support.ts';
import { type RetryPolicy, StationBack } from '../../shared/api/retry-policy.ts';
import { UploadQueue } from '../../renderer/src/media/upload-queue.ts';
import { PackageOutbox, type PendingEntry } from '../../renderer/src/pending/package-outbox.ts';
import { PendingDb } from '../../renderer/src/pending/pending-db.ts';
import { createPackageStore } from '../../renderer/src/receiving/package-store.ts';
import { type ApiClient, ApiError } from '../../shared/api/client.ts';
import type { ReturnPackage } from '../../shared/api/return-packages.ts';
import { manualReturnBody, returnLine } from '../support/manual-return.ts';
import { StationCable } from './station-cable.ts';

/*
 * The package store and its outbox against a real station (real store, real HTTP). What is faked is
 * only the cable: a fetch that can be cut (the station unreachable) or lose an answer after the
 * station acted on the request. A "reload" is a new store and outbox on the same IndexedDB.
 */

let ts: TestStation;
/** The operator whose id the receives record. */
let worker: number;
beforeAll(async () => {
  ts = await startStation();
  worker = (await plug().client().createOperator({ name: 'Dock worker', badge_code: 'BADGE-T' })).id;
});
afterAll(async () => {
  await ts.close();
});

/** One browser page: its store, outbox and what its late notices said. */
function page(idb: InstanceType<typeof IDBFactory>, cable: StationCable, pendingAfterMs?: number, retry: RetryPolicy = { firstMs: 5, maxMs: 20 }) {
  const client = cable.client();
  const late: string[] = [];
  const outbox = new PackageOutbox({
    api: client,
    db: new PendingDb('pending', { indexedDB: idb, IDBKeyRange }),
    retry,
    ...(pendingAfterMs === undefined ? {} : { pendingAfterMs }),
    events: {
      onChange: () => usePackage.getState().outboxChanged(),
      onLateReceived: (entry: PendingEntry, pkg: ReturnPackage) => late.push(`received ${pkg.tracking_number} ${entry.units}`),
      onLateRefused: (entry: PendingEntry) => late.push(`refused ${entry.trackingNumber}`),
    },
  });
  const uploads = new UploadQueue({ api: client, onChange: (list) => usePackage.setState({ uploads: list }), retry });
  const usePackage = createPackageStore({ outbox, uploads, deleteMedia: (a, p, m) => client.deleteMedia(a, p, m) });
  return { client, outbox, usePackage, late };
}

const plug = () => new StationCable(ts);

let n = 0;
/** A return of three lines (1, 2 and 1 units) and its delivered package, made through the API. */
async function parcel(client: ApiClient, status: 'delivered' | 'in_transit' = 'delivered') {
  const tag = `${Date.now().toString(36)}${n++}`.toUpperCase();
  const skus = [`A-${tag}`, `B-${tag}`, `C-${tag}`] as const;
  const ret = await client.createReturn(manualReturnBody({ account_id: 1, return_line_items: skus.map((sku, i) => returnLine(sku, i === 1 ? 2 : 1)) }));
  const pkg = await client.createPackage(1, { return_id: ret.id, tracking_number: `1Z${tag}`, status });
  return { ret, skus, pkg: await client.getPackage(1, pkg.id) };
}

const quantities = (pkg: ReturnPackage) => pkg.line_items.map((i) => [i.return_line_item_id, i.quantity]);

describe('the package store with its outbox, against a real station', () => {
  it('records scans and conditions, and receives with the units counted', async () => {
    const cable = plug();
    const p = page(new IDBFactory(), cable);
    const { ret, skus, pkg } = await parcel(p.client);
    p.usePackage.getState().open({ accountId: 1, pkg, ret });
    for (const sku of [skus[0], skus[1], skus[1]]) p.usePackage.getState().scanItem(sku);
    // The last scan selected the second unit of the line: its condition is its own.
    p.usePackage.getState().setCondition('good', worker);
    const result = await p.usePackage.getState().receive(worker);
    expect(result).toMatchObject({ kind: 'received', units: 3, pkg: { status: 'received', processor_id: worker } });
    const stored = await p.client.getPackage(1, pkg.id);
    expect(quantities(stored)).toEqual([
      [ret.return_line_items[0]?.id, 1],
      [ret.return_line_items[1]?.id, 1],
      [ret.return_line_items[1]?.id, 1],
    ]);
    expect(stored.line_items.map((i) => [i.condition, i.condition_by])).toEqual([
      [null, null],
      [null, null],
      ['good', worker],
    ]);
    expect(p.outbox.entries).toEqual([]);
  });

  it('keeps work made while the station is unreachable across a reload and records it once, in order', async () => {
    const idb = new IDBFactory();
    const first = plug();
    const before = page(idb, first);
    const a = await parcel(before.client);
    const b = await parcel(before.client);
    first.down = true;

    before.usePackage.getState().open({ accountId: 1, pkg: a.pkg, ret: a.ret });
    for (const sku of [a.skus[0], a.skus[1], a.skus[1], a.skus[2]]) before.usePackage.getState().scanItem(sku);
    // F2 answers at once: pending, with the units it will receive.
    await expect(before.usePackage.getState().receive(worker)).resolves.toEqual({ kind: 'pending', units: 4 });
    expect(before.outbox.isReceiving(1, a.pkg.id)).toBe(true);
    before.usePackage.getState().close();
    // The next parcel is worked while the first waits (opened before the cable went down is enough here).
    before.usePackage.getState().open({ accountId: 1, pkg: b.pkg, ret: b.ret });
    before.usePackage.getState().scanItem(b.skus[2]);
    expect(before.outbox.syncStateOf(1, b.pkg.id).state).not.toBe('saved');
    await expect
      .poll(() => before.outbox.entries.map((e) => [e.trackingNumber, e.receiving, e.units]))
      .toEqual([
        [a.pkg.tracking_number, true, 4],
        [b.pkg.tracking_number, false, 1],
      ]);
    expect((await plug().client().getPackage(1, a.pkg.id)).line_items).toEqual([]);

    // The tab is reloaded (the old page and its cable are gone) and the station answers again.
    const after = page(idb, plug());
    await after.outbox.restore();
    expect(after.outbox.entries.map((e) => e.trackingNumber)).toEqual([a.pkg.tracking_number, b.pkg.tracking_number]);
    await after.outbox.idle();
    const receivedA = await after.client.getPackage(1, a.pkg.id);
    expect(receivedA).toMatchObject({ status: 'received', processor_id: worker });
    // One item per unit scanned, in scan order.
    expect(quantities(receivedA)).toEqual(a.ret.return_line_items.flatMap((l) => Array.from({ length: l.quantity }, () => [l.id, 1])));
    expect(quantities(await after.client.getPackage(1, b.pkg.id))).toEqual([[b.ret.return_line_items[2]?.id, 1]]);
    // Announced once, with the units counted at F2; nothing is left in the queue or the database.
    expect(after.late).toEqual([`received ${a.pkg.tracking_number} 4`]);
    expect(after.outbox.isReceiving(1, a.pkg.id)).toBe(false);
    expect(after.outbox.entries).toEqual([]);
    expect(await new PendingDb('pending', { indexedDB: idb, IDBKeyRange }).packages.count()).toBe(0);
  });

  it('work held while the station was away goes at once when it is back, photos too, not after the rest of a wait', async () => {
    const stationBack = new StationBack();
    const cable = plug();
    const p = page(new IDBFactory(), cable, undefined, { firstMs: 60_000, maxMs: 60_000, stationBack });
    const a = await parcel(p.client);
    cable.down = true;
    p.usePackage.getState().open({ accountId: 1, pkg: a.pkg, ret: a.ret });
    p.usePackage.getState().scanItem(a.skus[0]);
    p.usePackage.getState().addPhoto(new Blob([sampleMedia('image/jpeg', 7)], { type: 'image/jpeg' }));
    await expect(p.usePackage.getState().receive(worker)).resolves.toEqual({ kind: 'pending', units: 1 });
    await expect.poll(() => p.usePackage.getState().uploads[0]?.state).toBe('retrying');
    cable.down = false;
    // Each queue waits a minute before its next try; the station's return ends both waits.
    stationBack.arrived();
    await expect.poll(() => p.late).toEqual([`received ${a.pkg.tracking_number} 1`]);
    await expect.poll(() => p.usePackage.getState().uploads[0]?.state).toBe('done');
    const stored = await p.client.getPackage(1, a.pkg.id);
    expect(stored).toMatchObject({ status: 'received', processor_id: worker });
    expect(quantities(stored)).toEqual([[a.ret.return_line_items[0]?.id, 1]]);
    expect(stored.media_files).toHaveLength(1);
  });

  it('a reopened package shows its unsent drafts, not the station’s older items', async () => {
    const idb = new IDBFactory();
    const cable = plug();
    const before = page(idb, cable);
    const a = await parcel(before.client);
    cable.down = true;
    before.usePackage.getState().open({ accountId: 1, pkg: a.pkg, ret: a.ret });
    before.usePackage.getState().scanItem(a.skus[1]);
    before.usePackage.getState().scanItem(a.skus[1]);
    await expect.poll(() => before.outbox.entries.length).toBe(1);

    const offline = plug();
    offline.down = true;
    const after = page(idb, offline);
    await after.outbox.restore();
    after.usePackage.getState().open({ accountId: 1, pkg: a.pkg, ret: a.ret });
    const two = [
      [a.ret.return_line_items[1]?.id, 1],
      [a.ret.return_line_items[1]?.id, 1],
    ];
    expect(after.usePackage.getState().drafts.map((d) => [d.return_line_item_id, d.quantity])).toEqual(two);
    offline.down = false;
    await after.outbox.idle();
    expect(quantities(await after.client.getPackage(1, a.pkg.id))).toEqual(two);
  });

  /** A page that opened a parcel and scanned its first SKU, the station's answer to that create lost once. */
  async function scannedWithLostAnswer() {
    const cable = plug();
    const p = page(new IDBFactory(), cable);
    const a = await parcel(p.client);
    cable.loseAnswers = { method: 'POST', path: /\/line_items$/, times: 1 };
    p.usePackage.getState().open({ accountId: 1, pkg: a.pkg, ret: a.ret });
    p.usePackage.getState().scanItem(a.skus[0]);
    return { cable, p, a };
  }

  it('a create whose answer was lost is not recorded twice', async () => {
    const { cable, p, a } = await scannedWithLostAnswer();
    await p.outbox.idle();
    expect(cable.requests.filter((r) => /^POST .*\/line_items$/.test(r))).toHaveLength(2);
    expect(quantities(await p.client.getPackage(1, a.pkg.id))).toEqual([[a.ret.return_line_items[0]?.id, 1]]);
  });

  it('a create whose answer was lost, its item changed meanwhile (a handheld offline), is sent again as it was, then the change: one item, no refusal', async () => {
    const { p, a } = await scannedWithLostAnswer();
    // Set before the lost answer's retry: the replay must not send this under the first body's key.
    p.usePackage.getState().setCondition('damaged', worker);
    await p.outbox.idle();
    expect(p.outbox.syncStateOf(1, a.pkg.id).state).toBe('saved');
    const items = (await p.client.getPackage(1, a.pkg.id)).line_items;
    expect(items.map((i) => [i.return_line_item_id, i.quantity, i.condition])).toEqual([[a.ret.return_line_items[0]?.id, 1, 'damaged']]);
  });

  it('after a reload, a create whose answer was lost is replayed as first sent, then its later change', async () => {
    const idb = new IDBFactory();
    const cable = plug();
    const before = page(idb, cable);
    const a = await parcel(before.client);
    before.usePackage.getState().open({ accountId: 1, pkg: a.pkg, ret: a.ret });
    // The station acts on the create; its answer is lost and the cable stays cut.
    cable.loseAnswers = { method: 'POST', path: /\/line_items$/, times: 1 };
    const lost = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (cable.loseAnswers?.times === 0) {
          cable.down = true;
          clearInterval(check);
          resolve();
        }
      }, 1);
    });
    before.usePackage.getState().scanItem(a.skus[0]);
    await lost;
    before.usePackage.getState().setCondition('fair', worker);
    await new Promise((r) => setTimeout(r, 50));
    expect((await plug().client().getPackage(1, a.pkg.id)).line_items.map((i) => i.condition)).toEqual([null]);

    // A reload: a new page on the same IndexedDB, the station reachable again.
    const after = page(idb, plug());
    await after.outbox.restore();
    await after.outbox.idle();
    expect(after.outbox.syncStateOf(1, a.pkg.id).state).toBe('saved');
    expect((await after.client.getPackage(1, a.pkg.id)).line_items.map((i) => [i.quantity, i.condition])).toEqual([[1, 'fair']]);
  });

  it('a receive whose answer was lost is received once, and said received', async () => {
    const cable = plug();
    const p = page(new IDBFactory(), cable);
    const a = await parcel(p.client);
    p.usePackage.getState().open({ accountId: 1, pkg: a.pkg, ret: a.ret });
    p.usePackage.getState().scanItem(a.skus[0]);
    cable.loseAnswers = { method: 'PATCH', path: new RegExp(`/return_packages/${a.pkg.id}$`), times: 1 };
    const result = await p.usePackage.getState().receive(worker);
    // The first answer was lost: shown pending, then announced received, once.
    expect(result.kind).toBe('pending');
    await p.outbox.idle();
    expect(p.late).toEqual([`received ${a.pkg.tracking_number} 1`]);
    expect(await p.client.getPackage(1, a.pkg.id)).toMatchObject({ status: 'received', processor_id: worker });
  });

  it('an F2 the station does not answer in time is shown pending, then announced received once', async () => {
    const cable = plug();
    const p = page(new IDBFactory(), cable, 50);
    const a = await parcel(p.client);
    p.usePackage.getState().open({ accountId: 1, pkg: a.pkg, ret: a.ret });
    p.usePackage.getState().scanItem(a.skus[0]);
    await p.outbox.idle();
    cable.stalled = true;
    await expect(p.usePackage.getState().receive(worker)).resolves.toEqual({ kind: 'pending', units: 1 });
    expect(p.late).toEqual([]);
    cable.stalled = false;
    await p.outbox.idle();
    expect(p.late).toEqual([`received ${a.pkg.tracking_number} 1`]);
  });

  it('a package the station refuses is kept, marked failed, and does not hold up the next one', async () => {
    const cable = plug();
    const p = page(new IDBFactory(), cable);
    const refused = await parcel(p.client, 'in_transit');
    const next = await parcel(p.client);
    cable.down = true;
    // Cancelled on the station while the worker still had it open.
    await plug().client().updatePackage(1, refused.pkg.id, { status: 'cancelled' });
    p.usePackage.getState().open({ accountId: 1, pkg: refused.pkg, ret: refused.ret });
    p.usePackage.getState().scanItem(refused.skus[0]);
    await expect(p.usePackage.getState().receive(worker)).resolves.toMatchObject({ kind: 'pending' });
    p.usePackage.getState().open({ accountId: 1, pkg: next.pkg, ret: next.ret });
    p.usePackage.getState().scanItem(next.skus[0]);
    cable.down = false;
    await p.outbox.idle();
    expect(p.outbox.entries.map((e) => [e.trackingNumber, e.state, e.receiving])).toEqual([[refused.pkg.tracking_number, 'failed', false]]);
    expect(p.outbox.entries[0]?.error).toBeInstanceOf(ApiError);
    expect(p.late).toEqual([`refused ${refused.pkg.tracking_number}`]);
    expect((await p.client.getPackage(1, refused.pkg.id)).status).toBe('cancelled');
    expect(quantities(await p.client.getPackage(1, next.pkg.id))).toEqual([[next.ret.return_line_items[0]?.id, 1]]);
  });

  it('undo goes back to the previous drafts and the station follows', async () => {
    const p = page(new IDBFactory(), plug());
    const a = await parcel(p.client);
    p.usePackage.getState().open({ accountId: 1, pkg: a.pkg, ret: a.ret });
    p.usePackage.getState().scanItem(a.skus[1]);
    p.usePackage.getState().scanItem(a.skus[1]);
    expect(p.usePackage.getState().undo()).toBe(`scan ${a.skus[1]}`);
    await p.outbox.idle();
    expect(quantities(await p.client.getPackage(1, a.pkg.id))).toEqual([[a.ret.return_line_items[1]?.id, 1]]);
    expect(p.outbox.syncStateOf(1, a.pkg.id).state).toBe('saved');
  });
});
