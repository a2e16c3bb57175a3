import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApiClient } from '#shared/api/client.ts';
import type { PackageLineItem } from '#shared/api/line-items.ts';
import type { ReturnPackage } from '#shared/api/return-packages.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { type Site, SITE_ACCOUNT, startSite, packageAt } from './site-support.ts';
import { attachPhoto, photo, startLocal, waitFor } from './support.ts';

/*
 * The whole receipt's push to a site's hub loses nothing and duplicates nothing
 * (docs/decisions/site-receipt.md), as real `serve` processes: two joined stations reach the hub
 * through a fault proxy. The answers of the first unit create, photo upload and package PATCH (and a
 * unit PATCH when one goes up) are lost after the hub committed them; then the hub is killed in the middle of a push and
 * started again. The hub ends with each unit and photo once, the returns service with each unit and
 * receipt once, and the other station holds it all across its own restart.
 */

let site: Site;
let proxy: FaultProxy;
let a: ApiClient;
let b: ApiClient;

beforeAll(async () => {
  site = await startSite({
    stations: 2,
    packages: 2,
    joined: true,
    following: false, // the proxy buffers answers, so no event stream passes it: the stations poll
    upstreamOf: async (origin) => (proxy = await startFaultProxy(origin)).url,
    env: { RETURNS_STATION_SYNC_INTERVAL_MS: '1000' },
    // The hub pushes what it is sent at once; polling the returns service every second would spend
    // the account's 1,000 requests an hour on reads and hold its pushes behind them on a slow machine.
    hubEnv: {},
    fakeModes: { lineItemRoutes: true },
  });
  [a, b] = site.stations.map((s) => s.api) as [ApiClient, ApiClient];
}, 180_000);

afterAll(async () => {
  await site?.stop();
  await proxy?.close();
}, 60_000);

const trackingOf = (i: number) => site.trackings[i] ?? '';

const unitsOf = (pkg: ReturnPackage) =>
  pkg.line_items
    .map((i: PackageLineItem) => ({
      unit_id: i.unit_id,
      condition: i.condition,
      disposition: i.disposition,
      bin: i.bin,
      override: i.disposition_override?.reason ?? null,
      put: i.put_confirmed_at,
    }))
    .sort((x, y) => String(x.unit_id).localeCompare(String(y.unit_id)));

/** Three units (one put, one overridden and changed again), a photo, then received with arrival and notes. */
async function receiveWhole(api: ApiClient, trackingNumber: string, seed: number): Promise<void> {
  const pkg = await packageAt(api, trackingNumber);
  const line = (await api.getReturn(SITE_ACCOUNT, pkg.return_id)).return_line_items[0];
  if (!line) throw new Error('the return has no line');
  const add = (condition: 'new' | 'damaged' | 'good') => api.createLineItem(SITE_ACCOUNT, pkg.id, { return_line_item_id: line.id, condition });
  const restock = await add('new');
  await add('damaged');
  const used = await add('good');
  await api.confirmPut(SITE_ACCOUNT, pkg.id, restock.id, { bin: restock.bin ?? '' });
  await attachPhoto(api, SITE_ACCOUNT, pkg.id, photo(seed, 4));
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // the first push goes up before the next changes
  await api.updateLineItem(SITE_ACCOUNT, pkg.id, used.id, { disposition: 'quarantine', disposition_reason: 'smells of smoke', bin: 'Q-7' });
  await api.updatePackage(SITE_ACCOUNT, pkg.id, { status: 'received', actual_arrival: '2026-11-27T09:00:00Z', notes: `crushed (${seed})` });
}

/** Waits until the station has nothing left to send. */
const drained = (api: ApiClient, what: string) => waitFor(what, async () => (await api.station()).sync.pending_changes === 0, 90_000);

/** The hub's package has each unit and photo once, and the returns service each unit and the receipt once. */
async function expectOnce(trackingNumber: string, atA: ReturnPackage): Promise<void> {
  const atHub = await packageAt(site.hubApi, trackingNumber);
  expect(unitsOf(atHub)).toEqual(unitsOf(atA));
  expect(atHub.media_files).toHaveLength(1);
  expect(atHub.status).toBe('received');
  await waitFor(
    'the receipt upstream',
    async () => site.fake.packages(SITE_ACCOUNT).find((p) => p.tracking_number === trackingNumber)?.status === 'received',
    60_000,
  );
  await drained(site.hubApi, 'the hub has sent everything');
  const upstream = site.fake.packages(SITE_ACCOUNT).find((p) => p.tracking_number === trackingNumber);
  expect(upstream?.line_items).toHaveLength(3);
  const path = `/return_packages/${upstream?.id}`;
  const receipts = site.fake.requests.filter(
    (r) => r.method === 'PATCH' && r.path.endsWith(path) && (JSON.parse(r.body) as { status?: string }).status === 'received',
  );
  expect(receipts).toHaveLength(1);
}

it('lost answers on the push to the hub duplicate nothing, and the other station gets the whole receipt', async () => {
  const lost = new Set<string>();
  // The first answer of each kind of write is lost after the hub committed it.
  proxy.loseAnswer = ({ method, path }) => {
    const kind = `${method} ${path.replace(/\/\d+/g, '/N')}`;
    if (method === 'GET' || !/line_items|media_files|return_packages\/N$/.test(kind) || lost.has(kind)) return false;
    lost.add(kind);
    return true;
  };
  await receiveWhole(a, trackingOf(0), 51);
  await drained(a, 'A has sent everything');
  proxy.loseAnswer = null;
  // A unit's PATCH answer too when the override went up apart from its create (the gate's backoff after a lost answer may join them).
  for (const kind of [
    'POST /api/v1/accounts/N/return_packages/N/line_items',
    'POST /api/v1/accounts/N/return_packages/N/media_files',
    'PATCH /api/v1/accounts/N/return_packages/N',
  ])
    expect(lost).toContain(kind);
  const atA = await packageAt(a, trackingOf(0));
  await expectOnce(trackingOf(0), atA);
  await waitFor('the whole receipt on B', async () => JSON.stringify(unitsOf(await packageAt(b, trackingOf(0)))) === JSON.stringify(unitsOf(atA)), 30_000);
  expect((await packageAt(b, trackingOf(0))).media_files).toHaveLength(1);
}, 180_000);

it('a hub killed during a push and started again ends with everything once; the other station keeps it across its restart', async () => {
  proxy.delayMs = 250; // each request a little slow, so the push is under way when the hub goes
  const before = proxy.requests.length;
  const receipt = receiveWhole(a, trackingOf(1), 52);
  await waitFor('A pushing to the hub', async () => proxy.requests.slice(before).some((r) => r.method === 'POST' && r.path.endsWith('/line_items')), 30_000);
  site.hub.process.kill('SIGKILL');
  await receipt;
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await site.restartHub();
  proxy.delayMs = 0;
  await drained(a, 'A has sent everything');
  const atA = await packageAt(a, trackingOf(1));
  await expectOnce(trackingOf(1), atA);
  // The units go up before the package's PATCH (its notes): B has the whole receipt once both reached it.
  await waitFor(
    'the whole receipt on B',
    async () => {
      const atB = await packageAt(b, trackingOf(1));
      return JSON.stringify(unitsOf(atB)) === JSON.stringify(unitsOf(atA)) && (await b.getSiteReceipt(SITE_ACCOUNT, atB.id)).notes === 'crushed (52)';
    },
    60_000,
  );

  // B stopped and started on its data directory: the receipts it took from the hub are still whole.
  const stationB = site.stations[1];
  if (!stationB) throw new Error('no B');
  await stationB.station.stop();
  site.stations[1] = await startLocal(stationB.station.dataDir);
  const again = site.stations[1].api;
  for (const i of [0, 1]) {
    const pkg = await packageAt(again, trackingOf(i));
    expect(unitsOf(pkg)).toEqual(unitsOf(await packageAt(a, trackingOf(i))));
    expect(pkg.media_files).toHaveLength(1);
    expect((await again.getSiteReceipt(SITE_ACCOUNT, pkg.id)).notes).toBe(`crushed (${51 + i})`);
  }
}, 240_000);
