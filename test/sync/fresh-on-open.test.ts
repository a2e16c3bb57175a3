import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApiClient } from '#shared/api/client.ts';
import type { RunningStation } from '../support/station-process.ts';
import { type FakeReturnsService, type StoredPackage, startFakeReturnsService } from './fake-returns-service.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { setUpstream, startLocal, tempDir, tracking, waitFor } from './support.ts';

/*
 * Fresh where it matters (docs/decisions/sync.md), through the real `serve` against the fake returns
 * service written from the spec alone: the get-only fields (G) of open packages filled in the
 * background a few an hour, the package the dock opens read at once (get-only fields, an upstream
 * edit), a slow or unreachable upstream never delaying the open, and two opens sending one read.
 *
 * The station's layout is `{base_url}` = its URL + `/api`; the fake's is origin + `/api`, so the
 * station is pointed at the fake's origin (through a fault proxy, to go offline). Only the
 * `{base_url}` routes are used here: nothing is created at the station.
 */

const ACCOUNT = 1;
let fake: FakeReturnsService;
let proxy: FaultProxy;
let dataDir: string;
let local: { station: RunningStation; api: ApiClient };
let returnId: number;
const open: StoredPackage[] = [];
let received: StoredPackage;

const getOnes = (upstreamId?: number) =>
  fake.requests.filter(
    (r) => r.method === 'GET' && (upstreamId === undefined ? /\/return_packages\/\d+$/.test(r.path) : r.path.endsWith(`/return_packages/${upstreamId}`)),
  ).length;
const returnGetOnes = () => fake.requests.filter((r) => r.method === 'GET' && /\/returns\/\d+$/.test(r.path)).length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The station's package of an upstream one, by tracking number. */
async function localOf(u: StoredPackage) {
  const found = await local.api.lookup(u.tracking_number ?? '');
  const pkg = found.packages[0];
  if (!pkg) throw new Error(`${u.tracking_number} is not on the station`);
  return local.api.getPackage(ACCOUNT, pkg.id);
}

/** What the dock's UI sends when it opens a package (renderer/src/receiving/open-package.ts), timed. */
async function openAtDock(id: number): Promise<number> {
  const started = performance.now();
  await Promise.all([local.api.refreshPackage(ACCOUNT, id), local.api.getPackage(ACCOUNT, id), local.api.getReturn(ACCOUNT, returnId)]);
  return performance.now() - started;
}

beforeAll(async () => {
  fake = await startFakeReturnsService({ accounts: [ACCOUNT] });
  const ret = fake.seedReturn(ACCOUNT, {
    return_line_items: [{ quantity: 1, unreceived_quantity: 1, name: 'Mug', price: 9, currency: 'EUR', merchant_sku: 'SKU-MUG' }],
  });
  for (let i = 0; i < 7; i += 1) {
    open.push(
      fake.seedPackage(ACCOUNT, {
        return_id: ret.id,
        tracking_number: tracking('FRESH'),
        status: 'in_transit',
        shipping_method: 'express',
        shipping_label_cost: 7.5,
        shipping_label_cost_currency: 'EUR',
        weight: 1.25,
        weight_unit: 'kg',
        estimated_arrival: '2026-12-01T10:00:00.000Z',
      }),
    );
  }
  received = fake.seedPackage(ACCOUNT, {
    return_id: ret.id,
    tracking_number: tracking('FRESH-DONE'),
    status: 'received',
    shipping_method: 'ground',
    actual_arrival: '2026-11-20T09:00:00.000Z',
    processed_at: '2026-11-20T10:00:00.000Z',
  });
  proxy = await startFaultProxy(new URL(fake.baseUrl).origin);
  dataDir = tempDir('sync-fresh-');
  await setUpstream(dataDir, proxy.url, fake.defaultToken, [ACCOUNT]);
  local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '1000' });
  returnId = (await waitFor('the pull', async () => (await local.api.listAccountReturns(ACCOUNT, { per_page: 10 })).data[0]))?.id;
  await waitFor('every package pulled', async () => (await local.api.listPackages(ACCOUNT, { per_page: 50 })).meta.total_count === 8, 30_000);
}, 120_000);

afterAll(async () => {
  await local?.station.stop();
  await proxy?.close();
  await fake?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

it('fills the get-only fields of open packages in the background, at most 5 an hour, and then stops', async () => {
  await waitFor('the fill', async () => getOnes() >= 5, 20_000);
  // Several more idle rounds (one a second): the hour's 5 are spent, nothing more is read.
  await sleep(4_000);
  expect(getOnes()).toBe(5);
  const filled = [];
  for (const u of open) filled.push((await localOf(u)).shipping_method === 'express');
  expect(filled.filter(Boolean)).toHaveLength(5);
  // Received packages are not open: not filled in the background.
  expect((await localOf(received)).processed_at).toBeNull();
  const state = await local.api.syncOverview();
  expect(state.status.state).toBe('online');
});

it('fills the get-only fields when the dock opens a package, and asks for its return by id once', async () => {
  const notFilled = [];
  for (const u of open) if ((await localOf(u)).shipping_method === null) notFilled.push(u);
  const target = notFilled[0];
  if (!target) throw new Error('every open package was filled');
  const before = await localOf(target);
  expect(before.shipping_label_cost).toBeNull();

  await openAtDock(before.id);
  const after = await waitFor(
    'the open package read',
    async () => {
      const pkg = await local.api.getPackage(ACCOUNT, before.id);
      return pkg.shipping_method === 'express' ? pkg : null;
    },
    5_000,
  );
  expect(after).toMatchObject({ shipping_method: 'express', shipping_label_cost: 7.5, shipping_label_cost_currency: 'EUR' });

  // A parcel received elsewhere: its arrival and processing time come with the open.
  const done = await localOf(received);
  expect(done.actual_arrival).toBeNull();
  await openAtDock(done.id);
  const doneAfter = await waitFor(
    'the received package read',
    async () => {
      const pkg = await local.api.getPackage(ACCOUNT, done.id);
      return pkg.processed_at !== null ? pkg : null;
    },
    5_000,
  );
  expect(doneAfter).toMatchObject({
    actual_arrival: '2026-11-20T09:00:00.000Z',
    processed_at: '2026-11-20T10:00:00.000Z',
    shipping_method: 'ground',
    status: 'received',
  });

  // The spec shows no return by id: the fake answers 404 and the station stops asking.
  expect(returnGetOnes()).toBe(1);
  const another = notFilled[1];
  if (another) {
    await openAtDock((await localOf(another)).id);
    await waitFor('the second open read', async () => (await localOf(another)).shipping_method === 'express', 5_000);
  }
  expect(returnGetOnes()).toBe(1);
});

it('shows an upstream edit of an open package right after the dock opens it', async () => {
  const target = open[1] as StoredPackage;
  const mine = await localOf(target);
  fake.updatePackage(ACCOUNT, target.id, { shipping_method: 'standard', shipping_label_cost: 12.4, weight: 3.5 });
  const opened = Date.now();
  await openAtDock(mine.id);
  const fresh = await waitFor(
    'the edit on the station',
    async () => {
      const pkg = await local.api.getPackage(ACCOUNT, mine.id);
      return pkg.shipping_method === 'standard' && pkg.weight === 3.5 ? pkg : null;
    },
    3_000,
  );
  expect(fresh.shipping_label_cost).toBe(12.4);
  expect(Date.now() - opened).toBeLessThan(3_000);
});

it('two opens of one package within a few seconds send one read', async () => {
  const target = open[2] as StoredPackage;
  const mine = await localOf(target);
  const before = getOnes(target.id);
  await Promise.all([openAtDock(mine.id), openAtDock(mine.id)]);
  await sleep(500);
  await openAtDock(mine.id);
  await sleep(1_000);
  expect(getOnes(target.id) - before).toBe(1);
});

it('a slow or unreachable upstream never delays the open', async () => {
  const slow = await localOf(open[3] as StoredPackage);
  fake.modes.latencyMs = 10_000;
  try {
    expect(await openAtDock(slow.id)).toBeLessThan(1_500);
    // The station keeps answering while its read waits on the upstream (capped at 3 s).
    expect(await openAtDock(slow.id)).toBeLessThan(1_500);
  } finally {
    fake.modes.latencyMs = 0;
  }
  const offline = await localOf(open[4] as StoredPackage);
  proxy.offline = true;
  try {
    for (let i = 0; i < 3; i += 1) expect(await openAtDock(offline.id)).toBeLessThan(1_500);
  } finally {
    proxy.offline = false;
  }
});
