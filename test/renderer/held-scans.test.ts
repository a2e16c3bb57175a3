import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type TestStation } from '../api/support.ts';
import { createStationApi } from '../../renderer/src/api/station-api.ts';
import { MAX_HELD_SCANS, useHeldScans } from '../../renderer/src/receiving/held-scans.ts';
import { outbox, usePackage } from '../../renderer/src/receiving/page-package.ts';
import { releaseHeldScansWhenAnswered } from '../../renderer/src/receiving/release-held-scans.ts';
import { scanQueue } from '../../renderer/src/receiving/scan-router.ts';
import { useSession } from '../../renderer/src/session/session-store.ts';
import { useNav } from '../../renderer/src/state/nav-store.ts';
import { useStationLink } from '../../renderer/src/state/station-link.ts';
import { ApiClient } from '../../shared/api/client.ts';
import { manualReturnBody, returnLine } from '../support/manual-return.ts';

/*
 * Parcels scanned while the station was away (held-scans.ts) and what happens when it answers again
 * (release-held-scans.ts), on the page's own stores and router against a real station: the oldest
 * opens for a free worker, once; a worker who went on keeps them listed; the list is bounded.
 */

let ts: TestStation;
let client: ApiClient;
let stopRelease: () => void;
beforeAll(async () => {
  ts = await startStation();
  createStationApi({ baseUrl: ts.origin, token: ts.stationToken, version: '' }, () => undefined);
  client = new ApiClient({ baseUrl: ts.origin, token: ts.stationToken });
  const ada = await client.createOperator({ name: 'Ada', badge_code: 'BADGE-ADA' });
  useSession.getState().signIn(ada);
  // Nothing typed in the scan field (the page hands in its field's text).
  stopRelease = releaseHeldScansWhenAnswered(() => '');
});
afterAll(async () => {
  stopRelease();
  await outbox.idle();
  await ts.close();
});

let n = 0;
async function parcel(): Promise<{ tracking: string; id: number }> {
  const tag = `H${n++}${Date.now().toString(36)}`.toUpperCase();
  const ret = await client.createReturn(manualReturnBody({ account_id: 1, return_line_items: [returnLine(`SKU-${tag}`, 1)] }));
  const pkg = await client.createPackage(1, { return_id: ret.id, tracking_number: `1Z${tag}`, status: 'in_transit' });
  return { tracking: pkg.tracking_number, id: pkg.id };
}

/** The station was away and answers again, as the page's link sees it. */
async function stationAnswersAgain(): Promise<void> {
  useStationLink.setState({ link: 'unreachable' });
  useStationLink.setState({ link: 'online' });
  await scanQueue.idle();
}

const held = () => useHeldScans.getState().scans.map((s) => s.code);

describe('held parcel scans', () => {
  it('a worker busy with a package keeps them listed; once free, the oldest opens when the station answers, once', async () => {
    const [first, second] = [await parcel(), await parcel()];
    useHeldScans.getState().hold(first.tracking);
    useHeldScans.getState().hold(second.tracking);
    // Busy: another screen. Nothing opens, nothing is lost.
    useNav.getState().go('packages');
    await stationAnswersAgain();
    expect(usePackage.getState().current).toBeNull();
    expect(held()).toEqual([first.tracking, second.tracking]);

    // Free, on the scan screen: the oldest opens (the station marks it arrived), the other stays listed.
    useNav.getState().go('scan');
    await stationAnswersAgain();
    expect(usePackage.getState().current?.pkg.id).toBe(first.id);
    expect(held()).toEqual([second.tracking]);
    expect((await client.getPackage(1, first.id)).status).toBe('delivered');

    // With a package open, the station answering again opens nothing more.
    await stationAnswersAgain();
    expect(usePackage.getState().current?.pkg.id).toBe(first.id);
    expect(held()).toEqual([second.tracking]);
    expect((await client.getPackage(1, second.id)).status).toBe('in_transit');
    useHeldScans.getState().take(second.tracking);
    usePackage.getState().close();
  });

  it('holds a code once, whatever its case, and at most MAX_HELD_SCANS: past that a scan is refused and the list kept', () => {
    expect(useHeldScans.getState().hold('1zabc')).toBe('held');
    expect(useHeldScans.getState().hold('1ZABC')).toBe('already');
    for (let i = 1; i < MAX_HELD_SCANS; i++) expect(useHeldScans.getState().hold(`1ZFILL${i}`)).toBe('held');
    expect(useHeldScans.getState().hold('1ZONE-TOO-MANY')).toBe('full');
    expect(held()).toHaveLength(MAX_HELD_SCANS);
    expect(held()[0]).toBe('1ZABC');
    expect(useHeldScans.getState().take('1zabc')).toBe(true);
    expect(useHeldScans.getState().take('1zabc')).toBe(false);
  });
});
