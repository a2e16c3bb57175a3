import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApiClient } from '#shared/api/client.ts';
import type { PackageLineItem } from '#shared/api/line-items.ts';
import type { ReturnPackage } from '#shared/api/return-packages.ts';
import { type Site, SITE_ACCOUNT, startSite, packageAt } from './site-support.ts';
import { attachPhoto, photo, sha256Of, waitFor } from './support.ts';

/*
 * The whole receipt travels between a site's hub and the stations that joined it
 * (docs/decisions/site-receipt.md), as real `serve` processes: a hub on the spec-only returns
 * service and two stations whose settings carry `site`. A receipt made at A — arrival, notes, who, three
 * units of different conditions, dispositions and bins, an override, a put, a photo — is all on B
 * (the photo's bytes read from the hub when asked, not copied), and the returns service gets only
 * the spec's fields, once.
 */

let site: Site;
let a: ApiClient;
let b: ApiClient;

beforeAll(async () => {
  // The returns service here has line items (the spec does not show them), so what the hub sends of units can be checked.
  site = await startSite({ stations: 2, packages: 3, joined: true, fakeModes: { lineItemRoutes: true } });
  [a, b] = site.stations.map((s) => s.api) as [ApiClient, ApiClient];
}, 180_000);

afterAll(async () => {
  await site?.stop();
}, 60_000);

const trackingOf = (i: number) => site.trackings[i] ?? '';

/** What must be the same of a unit on every station: everything but ids, operator ids and the station's own label state. */
function unitOf(item: PackageLineItem) {
  return {
    unit_id: item.unit_id,
    merchant_sku: item.merchant_sku,
    condition: item.condition,
    condition_at: item.condition_at,
    disposition: item.disposition,
    bin: item.bin,
    disposition_source: item.disposition_source,
    override: item.disposition_override ? { reason: item.disposition_override.reason, at: item.disposition_override.at } : null,
    put_confirmed_at: item.put_confirmed_at,
    tags: [...item.tags].sort(),
  };
}

const unitsOf = (pkg: ReturnPackage) => pkg.line_items.map(unitOf).sort((x, y) => String(x.unit_id).localeCompare(String(y.unit_id)));

/** Records a receipt at the station: three units (restock and put; liquidate; refurbish overridden to quarantine), a photo, arrival and notes. */
async function receiveWhole(api: ApiClient, trackingNumber: string, seed: number, processorName: string): Promise<{ pkg: ReturnPackage; bytes: Uint8Array }> {
  const pkg = await packageAt(api, trackingNumber);
  const line = (await api.getReturn(SITE_ACCOUNT, pkg.return_id)).return_line_items[0];
  if (!line) throw new Error('the return has no line');
  const add = (condition: 'new' | 'damaged' | 'good') => api.createLineItem(SITE_ACCOUNT, pkg.id, { return_line_item_id: line.id, condition });
  const restock = await add('new');
  await add('damaged');
  const used = await add('good');
  await api.updateLineItem(SITE_ACCOUNT, pkg.id, used.id, { disposition: 'quarantine', disposition_reason: 'smells of smoke', bin: 'Q-7' });
  await api.confirmPut(SITE_ACCOUNT, pkg.id, restock.id, { bin: restock.bin ?? '' });
  const bytes = photo(seed, 8);
  await attachPhoto(api, SITE_ACCOUNT, pkg.id, bytes);
  await api.updatePackage(SITE_ACCOUNT, pkg.id, {
    status: 'received',
    actual_arrival: '2026-11-27T09:00:00Z',
    notes: `Box crushed at one corner (${seed})`,
    processor_name: processorName,
  });
  return { pkg: await api.getPackage(SITE_ACCOUNT, pkg.id), bytes };
}

it('a receipt at one station is whole at another: arrival, notes, processed_at, units with their dispositions, bins, override and put, and the photo from the hub', async () => {
  const { pkg: atA, bytes } = await receiveWhole(a, trackingOf(0), 31, 'Ada Lovelace');
  expect(
    unitsOf(atA)
      .map((u) => u.disposition)
      .sort(),
  ).toEqual(['liquidate', 'quarantine', 'restock']);

  const atB = await waitFor(
    'the whole receipt on B',
    async () => {
      const pkg = await packageAt(b, trackingOf(0));
      return (
        pkg.status === 'received' &&
        pkg.line_items.length === 3 &&
        pkg.media_files.length === 1 &&
        pkg.line_items.some((i) => i.put_confirmed_at !== null) &&
        pkg
      );
    },
    15_000,
  );
  expect(unitsOf(atB)).toEqual(unitsOf(atA));
  expect(atB.actual_arrival).toBe('2026-11-27T09:00:00.000Z');
  // When A received it, not when the receipt reached the hub or B.
  expect(atB.processed_at).toBe(atA.processed_at);
  const receiptAtB = await b.getSiteReceipt(SITE_ACCOUNT, atB.id);
  expect(receiptAtB.notes).toBe('Box crushed at one corner (31)');
  // Who received it, by name: B has other operators, so not by A's operator id.
  expect(receiptAtB.processor_name).toBe('Ada Lovelace');
  expect(atB.processor_id).toBeNull();
  // The hub holds it all as well.
  const atHub = await packageAt(site.hubApi, trackingOf(0));
  expect(unitsOf(atHub)).toEqual(unitsOf(atA));
  expect(atHub.processed_at).toBe(atA.processed_at);

  // The photo: B's own capability URL answers the bytes, read from the hub (B keeps no copy).
  const [file] = atB.media_files;
  if (!file) throw new Error('no photo on B');
  expect(file.url.startsWith(site.stations[1]?.station.origin ?? '-')).toBe(true);
  const answer = await fetch(file.url);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('image/jpeg');
  expect(sha256Of(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256Of(bytes));
  expect(existsSync(join(site.stations[1]?.station.dataDir ?? '', 'media', sha256Of(bytes)))).toBe(false);

  // The returns service: the spec's fields only, the receipt once, each unit once.
  await waitFor(
    'the receipt upstream',
    async () => site.fake.packages(SITE_ACCOUNT).find((p) => p.tracking_number === trackingOf(0))?.status === 'received',
    30_000,
  );
  const upstream = site.fake.packages(SITE_ACCOUNT).find((p) => p.tracking_number === trackingOf(0));
  const path = `/v1/accounts/${SITE_ACCOUNT}/return_packages/${upstream?.id}`;
  const patches = site.fake.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith(path));
  expect(patches.filter((r) => (JSON.parse(r.body) as { status?: string }).status === 'received')).toHaveLength(1);
  for (const r of patches) expect(Object.keys(JSON.parse(r.body) as object).every((k) => ['status', 'actual_arrival', 'notes'].includes(k))).toBe(true);
  const items = site.fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`${path}/line_items`));
  // A unit the hub sent before a later change reached it is made again upstream (the spec shows no item
  // update, sync.md): a create beyond the three replaces one, its first twin deleted.
  const replaced = site.fake.requests.filter((r) => r.method === 'DELETE' && r.path.includes(`${path}/line_items/`));
  expect(items.length - replaced.length).toBe(3);
  for (const r of items) expect(r.body).not.toContain('site_unit');
  expect(upstream?.line_items).toHaveLength(3);
  expect(new Set(upstream?.line_items.map((i) => i.tags.find((t) => t.startsWith('unit:')))).size).toBe(3);
  expect(upstream?.notes).toBe('Box crushed at one corner (31)');
}, 90_000);

it('a unit changed at two stations while the hub was away ends the same everywhere: the last push to the hub wins', async () => {
  const atA = await packageAt(a, trackingOf(1));
  const line = (await a.getReturn(SITE_ACCOUNT, atA.return_id)).return_line_items[0];
  if (!line) throw new Error('the return has no line');
  const unit = await a.createLineItem(SITE_ACCOUNT, atA.id, { return_line_item_id: line.id, condition: 'good' });
  const onB = await waitFor('the unit on B', async () => (await packageAt(b, trackingOf(1))).line_items.find((i) => i.unit_id === unit.unit_id), 15_000);
  site.hub.process.kill('SIGKILL');
  await a.updateLineItem(SITE_ACCOUNT, atA.id, unit.id, { disposition: 'dispose', disposition_reason: 'A says', bin: 'D-1' });
  await b.updateLineItem(SITE_ACCOUNT, (await packageAt(b, trackingOf(1))).id, onB.id, { disposition: 'quarantine', disposition_reason: 'B says', bin: 'Q-2' });
  await site.restartHub();
  const reasonAt = async (api: ApiClient) =>
    (await packageAt(api, trackingOf(1))).line_items.find((i) => i.unit_id === unit.unit_id)?.disposition_override?.reason;
  const agreed = await waitFor(
    'one answer on both stations and the hub',
    async () => {
      const [x, y, h] = await Promise.all([reasonAt(a), reasonAt(b), reasonAt(site.hubApi)]);
      return x !== undefined && x === y && y === h && x;
    },
    90_000,
  );
  expect(['A says', 'B says']).toContain(agreed);
}, 150_000);
