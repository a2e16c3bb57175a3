import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '#shared/api/client.ts';
import { holdForReview } from '../../electron/station/domain/reviews.ts';
import { openStation } from '../../electron/station/station.ts';
import { asSupervisor } from '../support/supervisor.ts';
import type { FakeReturnsService } from './fake-returns-service.ts';
import { seedSpecReturn, setSpecUpstream, useSpecUpstream } from './spec-support.ts';
import { startLocal, syncOnce, tracking, waitFor } from './support.ts';

/*
 * A package held for review and the returns service (written from the spec, which may refund on
 * `received`): its move to `received` goes up only once a supervisor decides — released as usual,
 * confirmed with the finding in its notes — across real stops and starts of `serve`, and nothing
 * outside the spec's fields goes up. The hold is made as a check makes it: holdForReview in a write
 * of the station's store (the station stopped, its data directory opened in-process).
 */

const ACCOUNT = 1;
const FINDING = 'weighed 0.21 kg, expected 1.80 kg';
/** The fields the spec's package PATCH carries. */
const SPEC_PATCH_FIELDS = ['status', 'actual_arrival', 'notes'];

async function holdStopped(dataDir: string, packageId: number): Promise<void> {
  const station = await openStation({ dataDir, rendererDir: join(dataDir, 'no-renderer'), logLevel: 'silent', sync: false, hotSweepMs: 0 });
  try {
    await station.store.write((t) => holdForReview(t, packageId, { check: 'weight', text: FINDING, at: new Date().toISOString() }));
  } finally {
    await station.close();
  }
}

const upstreamOf = (fake: FakeReturnsService, trackingNumber: string) => fake.packages(ACCOUNT).find((p) => p.tracking_number === trackingNumber);
const patchesOf = (fake: FakeReturnsService, upstreamId: number) =>
  fake.requests
    .filter((r) => r.method === 'PATCH' && r.path.endsWith(`/return_packages/${upstreamId}`))
    .map((r) => JSON.parse(r.body) as Record<string, unknown>);

/** A package on the pulled return, arrived, with one inspected unit, sent up; the station stopped after. */
async function arrivedPackage(dataDir: string, fake: FakeReturnsService, trackingNumber: string): Promise<number> {
  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '300' });
  try {
    const ret = (await local.api.listAccountReturns(ACCOUNT)).data[0];
    const pkg = await local.api.createPackage(ACCOUNT, { return_id: ret?.id ?? 0, tracking_number: trackingNumber, status: 'delivered' });
    await local.api.createLineItem(ACCOUNT, pkg.id, { condition: 'new' });
    await waitFor('the package up', async () => (await local.api.station()).sync.pending_changes === 0 && upstreamOf(fake, trackingNumber), 30_000);
    return pkg.id;
  } finally {
    await local.station.stop();
  }
}

/** Receives the held package at the dock, waits for the round that would have sent it, and stops. */
async function receiveHeld(dataDir: string, packageId: number): Promise<void> {
  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '300' });
  try {
    const received = await local.api.updatePackage(ACCOUNT, packageId, { status: 'received' });
    expect(received.status).toBe('received');
    const pkg = await local.api.getPackage(ACCOUNT, packageId);
    expect(pkg.line_items.map((i) => [i.disposition, i.disposition_override?.reason])).toEqual([['quarantine', 'held for review']]);
    await waitFor('the round after the receipt', async () => (await local.api.station()).sync.pending_changes === 0, 30_000);
  } finally {
    await local.station.stop();
  }
}

async function decide(dataDir: string, packageId: number, decision: (supervisor: ApiClient) => Promise<unknown>): Promise<ApiClient> {
  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '300' });
  try {
    const held = await local.api.packageReview(ACCOUNT, packageId);
    expect(held.review?.state, 'held after the restart').toBe('held');
    await decision(await asSupervisor(local.api));
    await waitFor('the decision up', async () => (await local.api.station()).sync.pending_changes === 0, 30_000);
    return local.api;
  } finally {
    await local.station.stop();
  }
}

describe('a held package and the returns service', () => {
  const rig = useSpecUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'review-push-' });

  it('keeps `received` from the returns service while held, across restarts; released after a restart, sends it once', async () => {
    const { fake, dataDir } = rig;
    seedSpecReturn(fake, ACCOUNT);
    await setSpecUpstream(dataDir, fake, [ACCOUNT]);
    expect((await syncOnce(dataDir)).status).toBe(0);
    const trackingNumber = tracking('HELD');
    const packageId = await arrivedPackage(dataDir, fake, trackingNumber);
    await holdStopped(dataDir, packageId);
    await receiveHeld(dataDir, packageId);
    const upstream = upstreamOf(fake, trackingNumber);
    expect(upstream?.status, 'not received upstream while held').toBe('delivered');
    // A complete round of its own after a stop: nothing waits, and still nothing of the receipt went up.
    const once = await syncOnce(dataDir);
    expect(once.status, once.stdout + once.stderr).toBe(0);
    expect(upstreamOf(fake, trackingNumber)?.status).toBe('delivered');
    expect(patchesOf(fake, upstream?.id ?? 0).filter((b) => b.status === 'received')).toHaveLength(0);

    await decide(dataDir, packageId, (supervisor) => supervisor.releaseReview(ACCOUNT, packageId));
    expect(upstreamOf(fake, trackingNumber)?.status).toBe('received');
    const patches = patchesOf(fake, upstream?.id ?? 0);
    expect(
      patches.filter((b) => b.status === 'received'),
      'sent once',
    ).toHaveLength(1);
    for (const body of patches)
      expect(
        Object.keys(body).every((k) => SPEC_PATCH_FIELDS.includes(k)),
        JSON.stringify(body),
      ).toBe(true);
    expect(upstreamOf(fake, trackingNumber)?.notes ?? null).toBeNull();
    // And once more after another restart: nothing new goes up.
    expect((await syncOnce(dataDir)).status).toBe(0);
    expect(patchesOf(fake, upstream?.id ?? 0).filter((b) => b.status === 'received')).toHaveLength(1);
  }, 180_000);

  it('confirmed, sends `received` with the finding and the reason in its notes, and its units stay in quarantine', async () => {
    const { fake, dataDir } = rig;
    const trackingNumber = tracking('CONF');
    const packageId = await arrivedPackage(dataDir, fake, trackingNumber);
    await holdStopped(dataDir, packageId);
    await receiveHeld(dataDir, packageId);
    const upstream = upstreamOf(fake, trackingNumber);
    expect(upstream?.status).toBe('delivered');

    const api = await decide(dataDir, packageId, (supervisor) => supervisor.confirmReview(ACCOUNT, packageId, { reason: 'empty box' }));
    void api;
    const after = upstreamOf(fake, trackingNumber);
    expect(after?.status).toBe('received');
    expect(after?.notes).toBe(`${FINDING}: empty box confirmed`);
    const patches = patchesOf(fake, upstream?.id ?? 0);
    expect(patches.filter((b) => b.status === 'received')).toHaveLength(1);
    for (const body of patches)
      expect(
        Object.keys(body).every((k) => SPEC_PATCH_FIELDS.includes(k)),
        JSON.stringify(body),
      ).toBe(true);
    const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '60000' });
    try {
      const review = await local.api.packageReview(ACCOUNT, packageId);
      expect(review.review).toMatchObject({ state: 'confirmed', reason: 'empty box', decided_by_name: 'Test supervisor' });
      const pkg = await local.api.getPackage(ACCOUNT, packageId);
      expect(pkg.line_items.map((i) => [i.disposition, i.disposition_override?.reason])).toEqual([['quarantine', 'review confirmed: empty box']]);
    } finally {
      await local.station.stop();
    }
  }, 180_000);
});
