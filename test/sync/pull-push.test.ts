import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RETURN_BODY, runCli, setUpstream, startLocal, startUpstream, syncOnce, tempDir, tracking, type Upstream, waitFor } from './support.ts';

/*
 * The walk a station makes with its upstream, through the real commands: upstream set, a first
 * sync --once that pulls, the dock receiving offline-style on the station, serve pushing it, a
 * restart that duplicates nothing, and a parcel registered at the dock going up.
 */

const ACCOUNT = 1001;
let upstream: Upstream;
let dataDir: string;

beforeAll(async () => {
  upstream = await startUpstream({ accounts: [ACCOUNT] });
  dataDir = tempDir('sync-local-');
}, 120_000);
afterAll(async () => {
  await upstream?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

it('pulls, receives at the dock, pushes, and converges across restarts without duplicates', async () => {
  // The back office makes a return with two parcels upstream.
  const ret = await upstream.api.createReturn({ ...RETURN_BODY, account_id: ACCOUNT });
  const first = await upstream.api.createPackage(ACCOUNT, {
    return_id: ret.id,
    tracking_number: tracking(),
    carrier_id: 1,
    weight: 1.5,
    weight_unit: 'kg',
    estimated_arrival: '2026-11-30T12:00:00Z',
  });
  const second = await upstream.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking() });

  await setUpstream(dataDir, upstream.origin, upstream.syncToken, [ACCOUNT]);
  const shown = await runCli(['upstream', 'show', '--data-dir', dataDir]);
  expect(shown.stdout).toContain(upstream.origin);
  expect(shown.stdout).not.toContain(upstream.syncToken);

  const pulled = await syncOnce(dataDir);
  expect(pulled.status, pulled.stdout + pulled.stderr).toBe(0);
  expect(pulled.stdout).toMatch(/pulled: [1-9]/);

  let local = await startLocal(dataDir);
  try {
    const scanned = await local.api.lookup(first.tracking_number);
    expect(scanned.packages).toHaveLength(1);
    const localPkg = scanned.packages[0];
    if (!localPkg) throw new Error('not pulled');
    expect(localPkg.weight).toBe(1.5);
    expect(localPkg.estimated_arrival).toBe('2026-11-30T12:00:00.000Z');

    // The dock receives it; serve pushes it on its own.
    await local.api.updatePackage(ACCOUNT, localPkg.id, { status: 'received', notes: 'box dented' });
    const up = await waitFor('the receipt upstream', async () => {
      const pkg = await upstream.api.getPackage(ACCOUNT, first.id);
      return pkg.status === 'received' ? pkg : null;
    });
    const localAfter = await local.api.getPackage(ACCOUNT, localPkg.id);
    expect(up.actual_arrival).toBe(localAfter.actual_arrival);
    const patched = await upstream.api.updatePackage(ACCOUNT, first.id, { notes: 'box dented' });
    expect(patched.notes).toBe('box dented'); // already there: the PATCH changed nothing

    // A parcel nobody announced: registered at the dock with a new manual return.
    const localReturn = await local.api.createReturn({ ...RETURN_BODY, email: 'walk-in@example.com', account_id: ACCOUNT });
    const walkIn = await local.api.createPackage(ACCOUNT, { return_id: localReturn.id, tracking_number: tracking('WALKIN'), status: 'delivered' });
    await waitFor('the walk-in upstream', async () => (await upstream.api.listPackages(ACCOUNT, { tracking_number: walkIn.tracking_number })).data[0]);
    await waitFor('nothing waiting', async () => (await local.api.station()).sync.pending_changes === 0);
    const status = (await local.api.station()).sync;
    expect(status.state).toBe('online');
    expect(status.last_success_at).not.toBeNull();

    // Restart: links and cursors are durable; nothing is sent twice.
    expect(await local.station.stop()).toBe(0);
    local = await startLocal(dataDir);
  } finally {
    await local.station.stop();
  }
  const again = await syncOnce(dataDir);
  expect(again.status, again.stdout + again.stderr).toBe(0);
  expect(again.stdout).toContain('sent: 0 created, 0 updated');

  const upstreamPackages = await upstream.api.listPackages(ACCOUNT, { per_page: 250 });
  expect(upstreamPackages.meta.total_count).toBe(3);
  const upstreamReturns = await upstream.api.listAccountReturns(ACCOUNT, { per_page: 250 });
  expect(upstreamReturns.meta.total_count).toBe(2);
  expect(upstreamPackages.data.map((p) => p.id)).toContain(second.id);
}, 120_000);
