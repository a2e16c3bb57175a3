import { afterAll, expect, it } from 'vitest';
import type { ApiClient } from '#shared/api/client.ts';
import { errorBody } from '#shared/api/errors.ts';
import type { ReturnPackage } from '#shared/api/return-packages.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { type Site, SITE_ACCOUNT, startSite, packageAt } from './site-support.ts';
import { startLocal, waitFor } from './support.ts';

/*
 * A hub and stations of different versions during an upgrade (docs/decisions/site-versions.md), as
 * real processes: a hub on the spec-only fake and a station synced with it.
 * - A hub older than its member: a proxy before a real hub answers as a hub from before the site
 *   additions does — no `site_receipt`, no `site/config`, no event stream (404 "No route for …"),
 *   and a body with `site_unit`, `processed_at` or `processor_name` refused as unknown fields (422,
 *   its bodies are strict). The member falls back to the spec's shapes and to polling: its receipt
 *   reaches the hub and the returns service once, nothing is parked, and a receipt made at the hub
 *   reaches it.
 * - A member older than its hub: its pushes carry none of the newer fields; the hub takes them as
 *   spec pushes (its own rules decide the units, it stamps `processed_at`).
 */

const FAST = { RETURNS_STATION_SYNC_INTERVAL_MS: '1000' };
const NEWER_FIELDS = ['site_unit', 'processed_at', 'processor_name'];

let site: Site | undefined;
let proxy: FaultProxy | undefined;

afterAll(async () => {
  await site?.stop();
  await proxy?.close();
}, 60_000);

/** What a hub from before the site additions answers: no such routes, and the newer fields unknown. */
function olderHub(req: { method: string; path: string; body: string }) {
  const path = req.path.split('?')[0] ?? '';
  if (/\/site_receipt$/.test(path) || path.endsWith('/station/site/config') || /\/events$/.test(path)) {
    return { status: 404, body: errorBody('NOT_FOUND', `No route for ${req.method} ${path}.`) };
  }
  if ((req.method === 'POST' || req.method === 'PATCH') && req.body.startsWith('{')) {
    const unknown = Object.keys(JSON.parse(req.body) as Record<string, unknown>).filter((key) => NEWER_FIELDS.includes(key));
    if (unknown.length > 0) {
      return {
        status: 422,
        body: errorBody('VALIDATION_FAILED', `${unknown[0]}: Unknown field.`, { fields: unknown.map((key) => ({ path: key, message: 'Unknown field.' })) }),
      };
    }
  }
  return null;
}

/** A unit inspected and the package received at the station, as the dock does it. */
async function receiveOneUnit(api: ApiClient, trackingNumber: string): Promise<ReturnPackage> {
  const pkg = await packageAt(api, trackingNumber);
  const line = (await api.getReturn(SITE_ACCOUNT, pkg.return_id)).return_line_items[0];
  if (!line) throw new Error('the return has no line');
  await api.createLineItem(SITE_ACCOUNT, pkg.id, { return_line_item_id: line.id, condition: 'new' });
  await api.updatePackage(SITE_ACCOUNT, pkg.id, { status: 'received', notes: 'Taped twice' });
  return api.getPackage(SITE_ACCOUNT, pkg.id);
}

it(
  'a member of a newer version syncs with an older hub in the spec shapes and by polling: nothing parked, nothing lost, nothing twice',
  { timeout: 240_000 },
  async () => {
    site = await startSite({
      stations: 1,
      packages: 2,
      joined: true,
      following: false,
      env: FAST,
      hubEnv: {},
      fakeModes: { lineItemRoutes: true },
      upstreamOf: async (origin) => {
        proxy = await startFaultProxy(origin);
        proxy.fault = olderHub;
        return proxy.url;
      },
    });
    const started = site.stations[0];
    if (!started || !proxy) throw new Error('no member');
    const [first = '', second = ''] = site.trackings;
    // Its first pull met no site_receipt route: it asked once, and reads no receipts of this hub since.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(proxy.requests.filter((r) => r.path.endsWith('/site_receipt')).map((r) => r.status)).toEqual([404]);

    // A receipt made while the hub is away, sent by the member started again (it knows nothing of the
    // hub's version then): its first push carries the newer fields and is refused for them.
    proxy.offline = true;
    const atMember = await receiveOneUnit(started.api, first);
    await started.station.stop();
    proxy.offline = false;
    const seen = proxy.requests.length;
    const member = await startLocal(started.station.dataDir, { ...FAST, RETURNS_STATION_LOG_LEVEL: 'warn' });
    site.stations[0] = member;

    // The receipt reaches the older hub (its unit and notes), then the returns service, once.
    await waitFor('the receipt on the hub', async () => (await packageAt(site?.hubApi as ApiClient, first)).status === 'received', 60_000);
    const atHub = await packageAt(site.hubApi, first);
    expect(atHub.line_items.map((i) => [i.condition, i.merchant_sku])).toEqual(atMember.line_items.map((i) => [i.condition, i.merchant_sku]));
    expect((await site.hubApi.getSiteReceipt(SITE_ACCOUNT, atHub.id)).notes).toBe('Taped twice');
    await waitFor(
      'the receipt at the returns service',
      async () => site?.fake.packages(SITE_ACCOUNT).find((p) => p.tracking_number === first)?.status === 'received',
      60_000,
    );
    expect(site.fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/line_items') && r.status === 201)).toHaveLength(1);

    // The older hub refused the newer fields once; the same unit went again in the spec's shape, and
    // everything after it too: nothing parked, nothing waiting, no error.
    const since = proxy.requests.slice(seen);
    expect(since.filter((r) => r.status === 422).map((r) => [r.method, r.path.replace(/\/\d+/g, '/N')])).toEqual([
      ['POST', '/api/v1/accounts/N/return_packages/N/line_items'],
    ]);
    const status = await waitFor(
      'the member settled',
      async () => {
        const sync = (await member.api.station()).sync;
        return sync.pending_changes === 0 && sync;
      },
      30_000,
    );
    expect(status.last_error).toBeNull();
    expect(status.upstream_events).toBe('polling');

    // A receipt made at the hub reaches the member by polling, in what the spec's shapes carry.
    const hubPkg = await packageAt(site.hubApi, second);
    await site.hubApi.updatePackage(SITE_ACCOUNT, hubPkg.id, { status: 'received' });
    await waitFor('the hub’s receipt on the member', async () => (await packageAt(member.api, second)).status === 'received', 30_000);
    expect(proxy.requests.slice(seen).filter((r) => r.path.endsWith('/site_receipt'))).toEqual([]);
    expect((await member.api.station()).sync.last_error).toBeNull();
  },
);

it(
  'a member of an older version pushes without the newer fields: the hub takes them as the spec’s, decides the units and stamps processed_at',
  { timeout: 240_000 },
  async () => {
    await site?.stop();
    await proxy?.close();
    proxy = undefined;
    // Not joined: the station sends what a member from before the site additions sends.
    site = await startSite({ stations: 1, packages: 1, following: false, env: FAST, hubEnv: {}, fakeModes: { lineItemRoutes: true } });
    const member = site.stations[0];
    if (!member) throw new Error('no member');
    const [first = ''] = site.trackings;
    await receiveOneUnit(member.api, first);
    await waitFor('the receipt on the hub', async () => (await packageAt(site?.hubApi as ApiClient, first)).status === 'received', 60_000);
    const atHub = await packageAt(site.hubApi, first);
    expect(atHub.processed_at).not.toBeNull();
    expect(atHub.line_items).toHaveLength(1);
    expect(atHub.line_items[0]?.condition).toBe('new');
    const wholeAtHub = await site.hubApi.getSiteReceipt(SITE_ACCOUNT, atHub.id);
    expect(wholeAtHub.notes).toBe('Taped twice');
    const sync = await waitFor(
      'the member settled',
      async () => {
        const s = (await member.api.station()).sync;
        return s.pending_changes === 0 && s;
      },
      30_000,
    );
    expect(sync.last_error).toBeNull();
    await waitFor(
      'the receipt at the returns service',
      async () => site?.fake.packages(SITE_ACCOUNT).find((p) => p.tracking_number === first)?.status === 'received',
      60_000,
    );
  },
);
