import { expect, it } from 'vitest';
import { seedSpecReturn, setSpecUpstream, useSpecUpstream } from './spec-support.ts';
import { startLocal, syncOnce, waitFor } from './support.ts';

/*
 * A unit changed after its create went up (docs/decisions/sync.md, "Line items"): the spec shows no
 * line item update, so a returns service may answer the PATCH 404. The station makes the item again
 * with the new values (DELETE, then POST) and the receipt still goes up, once; where the service
 * cannot delete items either, the change stays on the station and the receipt still goes up. Real
 * `serve` processes against the spec-only fake with line item routes (no PATCH), across a restart.
 */

const ACCOUNT = 1;
const rig = useSpecUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'spec-unit-changes-', modes: { lineItemRoutes: true } });

const receiptsOf = (upstreamId: number | undefined) =>
  rig.fake.requests.filter(
    (r) => r.method === 'PATCH' && r.path.endsWith(`/return_packages/${upstreamId}`) && (JSON.parse(r.body) as { status?: string }).status === 'received',
  );

type Local = Awaited<ReturnType<typeof startLocal>>;

async function changedAfterTheyWentUp(local: Local, tracking: string) {
  const { fake } = rig;
  const ret = (await local.api.listAccountReturns(ACCOUNT)).data.find((r) => r.email === 'changes@example.com');
  const line = ret?.return_line_items[0];
  if (!ret || !line) throw new Error('The upstream return was not pulled.');
  const pkg = await local.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking, status: 'delivered' });
  const kept = await local.api.createLineItem(ACCOUNT, pkg.id, { return_line_item_id: line.id, condition: 'new' });
  const changed = await local.api.createLineItem(ACCOUNT, pkg.id, { return_line_item_id: line.id, condition: 'damaged' });
  await waitFor(
    'both units upstream',
    async () =>
      fake.packages(ACCOUNT).find((p) => p.tracking_number === tracking)?.line_items.length === 2 && (await local.api.station()).sync.pending_changes === 0,
    60_000,
  );
  // Inspected again, then overridden to quarantine, then the package received.
  await local.api.updateLineItem(ACCOUNT, pkg.id, changed.id, { condition: 'good', notes: 'second look' });
  await local.api.updateLineItem(ACCOUNT, pkg.id, changed.id, { disposition: 'quarantine', disposition_reason: 'smells of smoke', bin: 'Q-7' });
  await local.api.updatePackage(ACCOUNT, pkg.id, { status: 'received' });
  await waitFor('every change taken', async () => (await local.api.station()).sync.pending_changes === 0, 60_000);
  const theirs = fake.packages(ACCOUNT).find((p) => p.tracking_number === tracking);
  return { pkg, kept, changed, theirs };
}

it('makes a changed unit again upstream when the service has no item update, and the receipt goes up once', async () => {
  const { fake, dataDir } = rig;
  let ids = { pkg: 0, changed: 0 };
  seedSpecReturn(fake, ACCOUNT, 'changes@example.com');
  await setSpecUpstream(dataDir, fake, [ACCOUNT]);
  expect((await syncOnce(dataDir)).status).toBe(0);

  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '300' });
  try {
    const { pkg, kept, changed, theirs } = await changedAfterTheyWentUp(local, 'UNIT-CHANGES-1');
    ids = { pkg: pkg.id, changed: changed.id };
    expect(theirs?.status).toBe('received');
    expect(theirs?.line_items.map((i) => [i.condition, i.notes, i.tags.find((t) => t.startsWith('unit:')), i.tags.find((t) => t.startsWith('bin:'))])).toEqual([
      ['new', null, `unit:${kept.unit_id}`, 'bin:RESTOCK'],
      ['good', 'second look', `unit:${changed.unit_id}`, 'bin:Q-7'],
    ]);
    expect(receiptsOf(theirs?.id)).toHaveLength(1);
    // The first twin was deleted once and the unit made again once (no second copy after the retry).
    const itemPath = `/return_packages/${theirs?.id}/line_items`;
    expect(fake.requests.filter((r) => r.method === 'DELETE' && r.path.includes(itemPath))).toHaveLength(1);
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith(itemPath))).toHaveLength(3);
  } finally {
    await local.station.stop();
  }

  // Started again on its data directory: nothing is left to send and nothing goes up twice.
  const before = fake.requests.length;
  const again = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '300' });
  try {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await again.api.station()).sync.pending_changes).toBe(0);
    expect(fake.requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
    const ours = await again.api.getPackage(ACCOUNT, ids.pkg);
    expect(ours.line_items.find((i) => i.id === ids.changed)).toMatchObject({ condition: 'good', bin: 'Q-7', disposition: 'quarantine' });
  } finally {
    await again.station.stop();
  }
}, 180_000);

it('keeps the change on the station where the service can neither update nor delete an item, and still sends the receipt', async () => {
  const { fake, dataDir } = rig;
  fake.modes.lineItemDeletes = false;
  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '300' });
  try {
    const { pkg, changed, theirs } = await changedAfterTheyWentUp(local, 'UNIT-CHANGES-2');
    expect(theirs?.status).toBe('received');
    expect(receiptsOf(theirs?.id)).toHaveLength(1);
    // The service keeps what it was first sent; the station keeps what the worker decided.
    expect(theirs?.line_items.map((i) => i.condition)).toEqual(['new', 'damaged']);
    expect((await local.api.getPackage(ACCOUNT, pkg.id)).line_items.find((i) => i.id === changed.id)).toMatchObject({ condition: 'good', bin: 'Q-7' });
    const changes = await local.api.listSyncChanges();
    expect(changes.data).toEqual([]);
  } finally {
    await local.station.stop();
  }
}, 180_000);
