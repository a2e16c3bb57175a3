import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeReturnsService } from './fake-returns-service.ts';
import { cli, expectEachOnce, heldAt, pendingAt, receiveAt, type SiteStation, startTlsStation, startMovingSite } from './site-move-support.ts';
import { freePort, inviteCode, statusAt } from './site-support.ts';
import { RETURN_BODY, runCli, tracking, waitFor } from './support.ts';

/*
 * Moving the hub to another station (docs/decisions/site-promote.md), through the doors an operator
 * uses: a hub A (`serve --host`, TLS) on the spec-only fake in unfriendly modes (filters ignored,
 * newest first, 25 a page, no body on a return's create, 204 on PATCH), members B and C joined with
 * `site join`. While the returns service is down, work is done at A, B and C (A's outbox is not
 * empty; a photo taken at C has its bytes only at A and C; B changes a unit's notes that went up
 * before and cancels a parcel the service has; A makes a parcel and cancels it). `site promote 1`
 * on A steps it down; `site promote` on B, running, takes the uplink, and the first answer of each
 * kind of create it sends is lost; C and A join B with codes from B. The returns service ends with each create, unit,
 * photo and receipt once, across a restart of the new hub on its data directory.
 */

const ACCOUNT = 1;

type Station = SiteStation;

let fake: FakeReturnsService;
const dirs: string[] = [];
let a: Station;
let b: Station;
let c: Station;
let bPort: number;
const trackings: string[] = [];
/** The packages made at A while the returns service was down (a new return's). */
const madeInOutage: string[] = [];
/** A parcel upstream before the outage, cancelled at B during it; one made and cancelled at A during it (never upstream). */
let cancelledAtB = '';
let cancelledNeverUp = '';
let firstReturnId = 0;

const startHub = (dataDir: string, port: number) => startTlsStation(dataDir, port);
const receive = (at: Station, trackingNumber: string, units: Array<'new' | 'damaged' | 'good'>, photoSeed?: number) =>
  receiveAt(at, ACCOUNT, trackingNumber, units, photoSeed);

const upstreamPackage = (trackingNumber: string) => fake.packages(ACCOUNT).filter((p) => p.tracking_number === trackingNumber);
const upstreamStatus = (trackingNumber: string) => upstreamPackage(trackingNumber)[0]?.status;
const unitsAt = async (at: Station, trackingNumber: string) => {
  const found = (await at.api.lookup(trackingNumber)).packages[0];
  return found ? (await at.api.getPackage(ACCOUNT, found.id)).line_items.length : -1;
};
beforeAll(async () => {
  const site = await startMovingSite('promote', ACCOUNT, 5);
  ({ fake, a, b, c } = site);
  dirs.push(...site.dirs);
  trackings.push(...site.trackings.slice(0, 4));
  cancelledAtB = site.trackings[4] ?? '';
  firstReturnId = site.returnId;
}, 180_000);

afterAll(async () => {
  for (const s of [a, b, c]) await s?.station.stop();
  await fake?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('moving the hub', { timeout: 240_000 }, () => {
  it('the new hub takes the uplink with the old hub’s unsent work and duplicates nothing upstream', async () => {
    const [t0 = '', t1 = '', t2 = ''] = trackings;
    // Before the outage: a receipt at B goes up through A.
    await receive(b, t0, ['new', 'damaged'], 71);
    await waitFor(
      'B’s receipt upstream',
      async () => upstreamStatus(t0) === 'received' && upstreamPackage(t0)[0]?.line_items.length === 2 && upstreamPackage(t0)[0]?.media_files.length === 1,
      60_000,
    );

    // The returns service is down: work at C, at A's own dock and a new return and parcel at A.
    fake.modes.outage = { status: 503, retryAfterSeconds: 1, until: fake.now() + 3_600_000 };
    await receive(c, t1, ['good'], 72); // the photo's bytes stay at A: B shows it through A
    await receive(a, t2, ['new', 'new']);
    const ret2 = await a.api.createReturn({ ...RETURN_BODY, account_id: ACCOUNT, email: 'outage@example.com' });
    madeInOutage.push((await a.api.createPackage(ACCOUNT, { return_id: ret2.id, tracking_number: tracking('OUTAGE') })).tracking_number);
    await waitFor('C’s receipt on B', async () => (await statusAt(b.api, t1)) === 'received' && (await unitsAt(b, t1)) === 1, 30_000);
    await waitFor('A’s receipt on B', async () => (await statusAt(b.api, t2)) === 'received' && (await unitsAt(b, t2)) === 2, 30_000);
    await waitFor('A’s new parcel on B', async () => (await statusAt(b.api, madeInOutage[0] ?? '')) !== undefined, 30_000);
    // B changes the notes of a unit A sent up before the outage, and cancels a parcel the service has;
    // A makes a parcel and cancels it (the service never sees it). All of it reaches A, which cannot send it.
    const t0AtB = (await b.api.lookup(t0)).packages[0];
    const unitAtB = t0AtB ? (await b.api.getPackage(ACCOUNT, t0AtB.id)).line_items[0] : undefined;
    if (!t0AtB || !unitAtB) throw new Error('B has no unit of t0');
    await b.api.updateLineItem(ACCOUNT, t0AtB.id, unitAtB.id, { notes: 'seal broken', tags: ['recheck'] });
    const toCancel = (await b.api.lookup(cancelledAtB)).packages[0];
    if (!toCancel) throw new Error('B does not have the parcel to cancel');
    await b.api.updatePackage(ACCOUNT, toCancel.id, { status: 'cancelled' });
    const never = await a.api.createPackage(ACCOUNT, { return_id: firstReturnId, tracking_number: tracking('NEVERUP') });
    cancelledNeverUp = never.tracking_number;
    await a.api.updatePackage(ACCOUNT, never.id, { status: 'cancelled' });
    await waitFor('B’s cancel on A', async () => (await statusAt(a.api, cancelledAtB)) === 'cancelled', 30_000);
    await waitFor('A’s cancelled parcel on B', async () => (await b.api.lookup(cancelledNeverUp)).packages[0]?.status === 'cancelled', 30_000);
    await waitFor('B sent its changes to A', async () => (await pendingAt(b)) === 0, 30_000);
    expect(await pendingAt(a)).toBeGreaterThanOrEqual(3); // A's outbox holds what the returns service has not taken

    // On the old hub: B (member 1) becomes the hub. A sends nothing more upstream from now on.
    const stepped = await cli(['site', 'promote', '1', '--data-dir', a.station.dataDir]);
    expect(stepped).toContain('its uplink waits for member 1');
    expect((await a.api.site()).handover).toEqual({ member_id: 1, stepped_down_at: expect.any(String), taken_at: null });
    expect((await a.api.getUpstream()).returns_url).toBeNull();
    fake.modes.outage = null;
    const before = fake.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(fake.requests.slice(before)).toEqual([]);

    // The first answer of each kind of create the new hub sends is lost after the returns service
    // committed it (a PATCH whose answer is lost is sent again: the same receipt, not a second one).
    const lost = new Set<string>();
    fake.modes.loseAnswer = ({ method, path }) => {
      const kind = `${method} ${path.replace(/\/\d+/g, '/N')}`;
      if (method !== 'POST' || lost.has(kind)) return false;
      lost.add(kind);
      return true;
    };
    // On B, running: catch up with A and take the uplink (the command line asks the running station).
    const promoted = await runCli(['site', 'promote', '--data-dir', b.station.dataDir]);
    expect(promoted.status, promoted.stderr).toBe(0);
    expect(promoted.stderr).toContain("This station is the site's hub now");
    expect((await b.api.getUpstream()).returns_url).toBe(fake.returnsUrl);
    expect((await b.api.site()).hub).toBeNull();
    expect((await runCli(['site', 'show', '--data-dir', a.station.dataDir])).stdout).toMatch(/^stepped down at \S+: the uplink was taken by member 1 at \S+$/m);
    expect((await a.api.site()).members.map((m) => [m.id, m.removed_at === null])).toEqual([
      [1, true],
      [2, false],
    ]);
    // The parcel made and cancelled at A was never upstream: the read after the take does not find
    // it, so it is not made there; it waits for a person, who keeps it local.
    await waitFor('the never-sent cancel held for a person', async () => (await heldAt(b)).includes(`${cancelledNeverUp} RELINK_CANCELLED`), 90_000);
    const neverAtB = (await b.api.lookup(cancelledNeverUp)).packages[0];
    if (!neverAtB) throw new Error('B lost the cancelled parcel');
    await b.api.keepLocalSyncChange({ kind: 'return_package', id: neverAtB.id });
    await waitFor(
      'every change up',
      async () =>
        (await pendingAt(b)) === 0 &&
        upstreamStatus(cancelledAtB) === 'cancelled' &&
        upstreamStatus(t2) === 'received' &&
        upstreamStatus(t1) === 'received' &&
        upstreamPackage(madeInOutage[0] ?? '').length === 1,
      90_000,
    );
    fake.modes.loseAnswer = null;
    expect([...lost]).toEqual(
      expect.arrayContaining([
        'POST /manual/returns',
        'POST /api/v1/accounts/N/return_packages',
        'POST /api/v1/accounts/N/return_packages/N/line_items',
        'POST /api/v1/accounts/N/return_packages/N/media_files',
      ]),
    );
    expect(upstreamPackage(t1)[0]?.line_items).toHaveLength(1);
    // C's photo went up from B, which copied its bytes from A before A stepped aside; B's own was adopted, not sent again.
    expect(upstreamPackage(t1)[0]?.media_files).toHaveLength(1);
    expect(upstreamPackage(t0)[0]?.media_files).toHaveLength(1);
    expect(upstreamPackage(t2)[0]?.line_items).toHaveLength(2);
    expect(upstreamPackage(t0)[0]?.line_items).toHaveLength(2);
    // The notes and tags change A never sent went up once, by B, though B found the unit by its content.
    expect(upstreamPackage(t0)[0]?.line_items.filter((item) => item.notes === 'seal broken' && item.tags.includes('recheck'))).toHaveLength(1);
    expect(upstreamPackage(cancelledNeverUp)).toEqual([]);
    // B listens on the site network from now on, for the others to join it.
    await b.station.stop();
    bPort = await freePort();
    b = await startHub(b.station.dataDir, bPort);
    expect(await pendingAt(b)).toBe(0);
    // One package a tracking number on B: the cancelled ones were linked, not copied from the service as new ones.
    for (const t of [cancelledAtB, cancelledNeverUp]) expect((await b.api.lookup(t)).packages.map((p) => p.status)).toEqual(['cancelled']);
    expectEachOnce(fake, ACCOUNT, 2);
  });

  it('the other member holds its work until it joins the new hub; the old hub joins too; all of it goes up once, across a restart of the new hub', async () => {
    const [, , , t3 = ''] = trackings;
    // C's token was revoked when B took the uplink: its receipt is held, not lost.
    await receive(c, t3, ['damaged']);
    await waitFor('C sees it was removed', async () => (await c.api.site()).hub?.removed === true, 30_000);
    expect(await pendingAt(c)).toBeGreaterThan(0);

    await cli(['site', 'join', b.station.origin, '--code', await inviteCode(b.station.dataDir), '--name', 'dock C', '--data-dir', c.station.dataDir]);
    await cli(['site', 'join', b.station.origin, '--code', await inviteCode(b.station.dataDir), '--name', 'old hub A', '--data-dir', a.station.dataDir]);
    await waitFor('C’s held receipt upstream', async () => upstreamStatus(t3) === 'received' && upstreamPackage(t3)[0]?.line_items.length === 1, 90_000);
    for (const s of [a, c]) await waitFor('the member sent everything', async () => (await pendingAt(s)) === 0, 60_000);

    // The new hub restarted on its data directory: nothing goes up again.
    await b.station.stop();
    b = await startHub(b.station.dataDir, bPort);
    const madeAfter = madeInOutage[0] ?? '';
    await receive(c, madeAfter, ['good']);
    await waitFor('a receipt after the restart upstream', async () => upstreamStatus(madeAfter) === 'received', 60_000);
    await waitFor('everything sent', async () => (await pendingAt(b)) === 0 && (await pendingAt(c)) === 0 && (await pendingAt(a)) === 0, 60_000);
    // Every station shows the receipts the returns service has.
    for (const s of [a, b, c]) {
      await waitFor(
        `every receipt on ${s.station.origin}`,
        async () => (await Promise.all([...trackings, madeAfter].map((t) => statusAt(s.api, t)))).every((status) => status === 'received'),
        30_000,
      );
    }
    expectEachOnce(fake, ACCOUNT, 2);
  });
});
