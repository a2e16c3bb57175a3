import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type TestStation } from '../api/support.ts';
import { UploadQueue } from '../../renderer/src/media/upload-queue.ts';
import { PackageOutbox } from '../../renderer/src/pending/package-outbox.ts';
import { PendingDb } from '../../renderer/src/pending/pending-db.ts';
import { createPackageStore } from '../../renderer/src/receiving/package-store.ts';
import type { ApiClient } from '../../shared/api/client.ts';
import { CONDITIONS, type DispositionRuleLike } from '../../shared/dispositions.ts';
import { manualReturnBody, returnLine } from '../support/manual-return.ts';
import { StationCable } from './station-cable.ts';

/*
 * Dispositions at the dock, the package store against a real station: the rules
 * the station answers run on the screen, so a condition key shows where the unit goes at once,
 * offline too, and the station (which applies the same rules) agrees; an override is recorded with
 * who and why; a bin's barcode confirms the put, a wrong one changes nothing.
 */

let ts: TestStation;
let worker: number;
let rules: readonly DispositionRuleLike[];
beforeAll(async () => {
  ts = await startStation();
  const client = new StationCable(ts).client();
  worker = (await client.createOperator({ name: 'Dock worker', badge_code: 'BADGE-D' })).id;
  rules = (await client.dispositionRules()).rules;
});
afterAll(async () => {
  await ts.close();
});

function page(cable: StationCable) {
  const client = cable.client();
  const outbox = new PackageOutbox({
    api: client,
    db: new PendingDb('pending', { indexedDB: new IDBFactory(), IDBKeyRange }),
    retry: { firstMs: 5, maxMs: 20 },
    events: { onChange: () => usePackage.getState().outboxChanged(), onLateReceived: () => undefined, onLateRefused: () => undefined },
  });
  const uploads = new UploadQueue({ api: client, onChange: () => undefined });
  const usePackage = createPackageStore({ outbox, uploads, deleteMedia: (a, p, m) => client.deleteMedia(a, p, m), dispositionRules: () => rules });
  return { client, outbox, usePackage };
}

let n = 0;
async function parcel(client: ApiClient, lines = 1) {
  const tag = `${Date.now().toString(36)}${n++}`.toUpperCase();
  const skus = Array.from({ length: lines }, (_, i) => `D${i}-${tag}`);
  const ret = await client.createReturn(manualReturnBody({ account_id: 1, return_line_items: skus.map((sku) => returnLine(sku, 1)) }));
  const pkg = await client.createPackage(1, { return_id: ret.id, tracking_number: `1D${tag}`, status: 'delivered' });
  return { ret, skus, pkg: await client.getPackage(1, pkg.id) };
}

describe('dispositions at the dock, against a real station', () => {
  it('shows the disposition the station then stores, for every condition and the defective flag', async () => {
    const p = page(new StationCable(ts));
    const { ret, skus, pkg } = await parcel(p.client, CONDITIONS.length * 2);
    p.usePackage.getState().open({ accountId: 1, pkg, ret });
    const shown: Array<[string, string | null, string | null]> = [];
    skus.forEach((sku, i) => {
      p.usePackage.getState().scanItem(sku);
      p.usePackage.getState().setCondition(CONDITIONS[i % CONDITIONS.length] ?? 'new');
      if (i >= CONDITIONS.length) p.usePackage.getState().toggleDefective();
      // At once: no request in between.
      const draft = p.usePackage.getState().drafts.find((d) => d.key === p.usePackage.getState().selectedKey);
      expect(draft?.disposition, sku).not.toBeNull();
      shown.push([sku, draft?.disposition ?? null, draft?.bin ?? null]);
    });
    await p.outbox.idle();
    const stored = await p.client.getPackage(1, pkg.id);
    const bySku = new Map(ret.return_line_items.map((l) => [l.id, l.merchant_sku]));
    const station = stored.line_items.map((item) => [bySku.get(item.return_line_item_id ?? -1), item.disposition, item.bin]);
    expect([...station].sort()).toEqual([...shown].sort());
    // The defaults: like new and working → restock; defective → back to the vendor.
    expect(shown[1]?.[1]).toBe('restock');
    expect(shown[CONDITIONS.length + 1]?.[1]).toBe('return_to_vendor');
  });

  it('records an override with who and why, confirms the put by the bin, and refuses a wrong bin without a change', async () => {
    const p = page(new StationCable(ts));
    const { ret, skus, pkg } = await parcel(p.client);
    const store = p.usePackage;
    store.getState().open({ accountId: 1, pkg, ret });
    store.getState().scanItem(skus[0] ?? '');
    // Only scanned: not inspected yet, so nowhere to go yet.
    expect(store.getState().drafts[0]).toMatchObject({ disposition: null, bin: null });
    store.getState().setCondition('like_new');
    expect(store.getState().drafts[0]).toMatchObject({ disposition: 'restock', bin: 'RESTOCK', put_confirmed: false });

    // A wrong bin: the error, and nothing changes.
    const before = store.getState().drafts;
    expect(store.getState().scanBin('RTV')).toEqual({ kind: 'wrong', bin: 'RESTOCK' });
    expect(store.getState().drafts).toBe(before);
    // Not a bin at all: the scan is an item's business.
    expect(store.getState().scanBin('NOT-A-BIN-CODE')).toEqual({ kind: 'none', bin: null });

    // Overridden to dispose: its bin, who and why.
    expect(store.getState().overrideDisposition('dispose', worker, 'smells of smoke')).toBe(true);
    expect(store.getState().drafts[0]).toMatchObject({ disposition: 'dispose', bin: 'DISPOSE', disposition_source: 'override' });
    // A condition key no longer moves it: the person's word stands.
    store.getState().setCondition('new');
    expect(store.getState().drafts[0]?.disposition).toBe('dispose');
    expect(store.getState().scanBin('dispose')).toEqual({ kind: 'put', bin: 'DISPOSE' });
    expect(store.getState().scanBin('DISPOSE')).toEqual({ kind: 'already', bin: 'DISPOSE' });
    await p.outbox.idle();

    const item = (await p.client.getPackage(1, pkg.id)).line_items[0];
    expect(item).toMatchObject({ condition: 'new', disposition: 'dispose', bin: 'DISPOSE', disposition_source: 'override' });
    expect(item?.disposition_override).toMatchObject({ by: worker, reason: 'smells of smoke' });
    expect(item?.put_confirmed_at).not.toBeNull();
    expect(item?.unit_id).toMatch(/^RS-/);
    // The unit scanned here knows the unit id the station gave it (F5 prints its label), no reopen needed.
    expect(store.getState().drafts[0]?.unit_id).toBe(item?.unit_id);
    expect(item?.tags).toEqual(expect.arrayContaining(['disposition:dispose', 'bin:DISPOSE', `unit:${item?.unit_id}`]));

    // Undo twice: the put, then the override; the rules' answer is back on the station too.
    store.getState().undo();
    store.getState().undo();
    store.getState().undo();
    expect(store.getState().drafts[0]).toMatchObject({ disposition: 'restock', disposition_source: 'rule' });
    await p.outbox.idle();
    expect((await p.client.getPackage(1, pkg.id)).line_items[0]).toMatchObject({
      condition: 'like_new',
      disposition: 'restock',
      disposition_source: 'rule',
      disposition_override: null,
      put_confirmed_at: null,
    });
  });

  it('previews the disposition of a held condition key without changing or sending anything', async () => {
    const cable = new StationCable(ts);
    const p = page(cable);
    const { ret, skus, pkg } = await parcel(p.client);
    const store = p.usePackage;
    store.getState().open({ accountId: 1, pkg, ret });
    store.getState().scanItem(skus[0] ?? '');
    store.getState().setCondition('like_new');
    await p.outbox.idle();
    const drafts = store.getState().drafts;
    const sent = cable.requests.length;

    // The key 5 is held (a scanner's next character may follow): damaged → liquidate, shown only.
    store.getState().previewCondition('damaged');
    expect(store.getState().conditionPreview).toMatchObject({ key: drafts[0]?.key, condition: 'damaged', disposition: 'liquidate', bin: 'LIQUIDATE' });
    expect(store.getState().drafts).toBe(drafts);
    // It was the start of a scan after all: withdrawn, the unit as it was.
    store.getState().previewCondition(null);
    expect(store.getState().conditionPreview).toBeNull();
    await p.outbox.idle();
    expect(cable.requests.length).toBe(sent);
    expect((await p.client.getPackage(1, pkg.id)).line_items[0]).toMatchObject({ condition: 'like_new', disposition: 'restock' });

    // It was a key: the change itself ends the preview.
    store.getState().previewCondition('damaged');
    store.getState().setCondition('damaged');
    expect(store.getState().conditionPreview).toBeNull();
    expect(store.getState().drafts[0]).toMatchObject({ condition: 'damaged', disposition: 'liquidate' });
    // Nothing selected: nothing to preview.
    store.getState().close();
    store.getState().previewCondition('new');
    expect(store.getState().conditionPreview).toBeNull();
  });

  it('shows the disposition while the station cannot be reached, and the station agrees once it can', async () => {
    const cable = new StationCable(ts);
    const p = page(cable);
    const { ret, skus, pkg } = await parcel(p.client);
    cable.down = true;
    p.usePackage.getState().open({ accountId: 1, pkg, ret });
    p.usePackage.getState().scanItem(skus[0] ?? '');
    p.usePackage.getState().setCondition('damaged');
    expect(p.usePackage.getState().drafts[0]).toMatchObject({ disposition: 'liquidate', bin: 'LIQUIDATE' });
    expect(p.usePackage.getState().scanBin('LIQUIDATE').kind).toBe('put');
    cable.down = false;
    await p.outbox.idle();
    expect((await p.client.getPackage(1, pkg.id)).line_items[0]).toMatchObject({
      condition: 'damaged',
      disposition: 'liquidate',
      bin: 'LIQUIDATE',
      put_confirmed_at: expect.any(String),
    });
  });
});
