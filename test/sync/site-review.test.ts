import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { holdForReview } from '../../electron/station/domain/reviews.ts';
import { openStation } from '../../electron/station/station.ts';
import { asSupervisor } from '../support/supervisor.ts';
import { type Site, SITE_ACCOUNT, packageAt, startSite, statusAt } from './site-support.ts';
import { startLocal, waitFor } from './support.ts';

/*
 * A package held for review at a site's station (real `serve` processes: a hub on the spec-only
 * returns service, one station joined to it). The station keeps its `received` from the hub until a
 * supervisor decides, so the hub — which alone talks to the returns service — never sends it on;
 * released, it reaches the hub and the returns service once.
 */

let site: Site;

beforeAll(async () => {
  site = await startSite({ stations: 1, packages: 1, joined: true });
}, 180_000);

afterAll(async () => {
  await site?.stop();
}, 60_000);

it("keeps a held package's receipt from the hub and so from the returns service, and sends it once released", async () => {
  const trackingNumber = site.trackings[0] ?? '';
  const member = site.stations[0];
  if (!member) throw new Error('no station');
  const pkg = await packageAt(member.api, trackingNumber);
  await member.api.createLineItem(SITE_ACCOUNT, pkg.id, { condition: 'new' });
  await waitFor('the unit at the hub', async () => (await packageAt(site.hubApi, trackingNumber)).line_items.length === 1, 60_000);

  // The check holds it (in a write of the station's store, as the weight check does), the station stopped meanwhile.
  const dataDir = member.station.dataDir;
  await member.station.stop();
  const station = await openStation({ dataDir, rendererDir: join(dataDir, 'no-renderer'), logLevel: 'silent', sync: false, hotSweepMs: 0 });
  try {
    await station.store.write((t) => holdForReview(t, pkg.id, { check: 'weight', text: 'weighed 0.21 kg, expected 1.80 kg', at: new Date().toISOString() }));
  } finally {
    await station.close();
  }
  site.stations[0] = await startLocal(dataDir, { RETURNS_STATION_LOG_LEVEL: 'warn' });
  const api = site.stations[0].api;

  await api.updatePackage(SITE_ACCOUNT, pkg.id, { status: 'received' });
  await waitFor('the round after the receipt', async () => (await api.station()).sync.pending_changes === 0, 60_000);
  // The unit's quarantine reached the hub; the receipt did not, nor the returns service.
  await waitFor('the held unit at the hub', async () => (await packageAt(site.hubApi, trackingNumber)).line_items[0]?.disposition === 'quarantine', 60_000);
  expect(await statusAt(site.hubApi, trackingNumber)).not.toBe('received');
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const upstream = () => site.fake.packages(SITE_ACCOUNT).find((p) => p.tracking_number === trackingNumber);
  expect(upstream()?.status).not.toBe('received');

  await (await asSupervisor(api)).releaseReview(SITE_ACCOUNT, pkg.id);
  await waitFor('received at the hub', async () => (await statusAt(site.hubApi, trackingNumber)) === 'received', 60_000);
  await waitFor('received upstream', async () => upstream()?.status === 'received', 60_000);
  const sent = site.fake.requests.filter(
    (r) => r.method === 'PATCH' && r.path.endsWith(`/return_packages/${upstream()?.id ?? 0}`) && r.body.includes('"received"'),
  );
  expect(sent).toHaveLength(1);
}, 300_000);
