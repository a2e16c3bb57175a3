import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '#shared/api/client.ts';
import { fetchTrusting } from '../../electron/station/tls/pinned-fetch.ts';
import { type RunningStation, startStation } from '../support/station-process.ts';
import { type FakeReturnsService, startFakeReturnsService } from './fake-returns-service.ts';
import { freePort, inviteCode, statusAt } from './site-support.ts';
import { setSpecUpstream } from './spec-support.ts';
import { attachPhoto, photo, RETURN_BODY, runCli, tempDir, tracking, waitFor } from './support.ts';

/*
 * Moving the hub to another station (docs/decisions/site-promote.md), through the doors an operator
 * uses: a hub A (`serve --host`, TLS) on the spec-only fake in unfriendly modes (filters ignored,
 * newest first, 25 a page, no body on a return's create, 204 on PATCH), members B and C joined with
 * `site join`. While the returns service is down, work is done at A, B and C (A's outbox is not
 * empty; a photo taken at C has its bytes only at A and C). `site promote 1` on A steps it down;
 * `site promote` on the stopped B takes the uplink, and the first answer of each kind of create it
 * sends is lost; C and A join B with codes from B. The returns service ends with each create, unit,
 * photo and receipt once, across a restart of the new hub on its data directory.
 */

const ACCOUNT = 1;
const ENV = { RETURNS_STATION_LOG_LEVEL: 'warn' };
// Members poll their hub every second; a hub polling the returns service that often would spend its budget on reads.
const MEMBER_ENV = { ...ENV, RETURNS_STATION_SYNC_INTERVAL_MS: '1000' };

interface Station {
  station: RunningStation;
  api: ApiClient;
}

let fake: FakeReturnsService;
const dirs: string[] = [];
let a: Station;
let b: Station;
let c: Station;
let bPort: number;
const trackings: string[] = [];
/** The packages made at A while the returns service was down (a new return's). */
const madeInOutage: string[] = [];

const newDir = (prefix: string) => {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
};

/** A station over TLS: the API client trusts its site authority alone. */
async function startHub(dataDir: string, port: number, env = ENV): Promise<Station> {
  const station = await startStation({ dataDir, args: ['--host', '0.0.0.0', '--port', String(port)], env });
  const ca = readFileSync(join(dataDir, 'tls', 'site-ca.pem'), 'utf8');
  return { station, api: new ApiClient({ baseUrl: station.origin, token: station.stationToken, fetch: fetchTrusting({ ca }) }) };
}

async function startMember(dataDir: string): Promise<Station> {
  const station = await startStation({ dataDir, env: MEMBER_ENV });
  return { station, api: new ApiClient({ baseUrl: station.origin, token: station.stationToken }) };
}

async function cli(args: string[]): Promise<string> {
  const ran = await runCli(args);
  if (ran.status !== 0) throw new Error(`${args.join(' ')} exited ${ran.status}: ${ran.stderr}`);
  return ran.stderr;
}

/** Receives the package at the station with `units` units of its return's first line (and a photo when `photoSeed` is given). */
async function receive(at: Station, trackingNumber: string, units: Array<'new' | 'damaged' | 'good'>, photoSeed?: number): Promise<void> {
  const found = (await at.api.lookup(trackingNumber)).packages[0];
  if (!found) throw new Error(`${trackingNumber} is not on the station`);
  const line = (await at.api.getReturn(ACCOUNT, found.return_id)).return_line_items[0];
  if (!line) throw new Error('the return has no line');
  for (const condition of units) await at.api.createLineItem(ACCOUNT, found.id, { return_line_item_id: line.id, condition });
  if (photoSeed !== undefined) await attachPhoto(at.api, ACCOUNT, found.id, photo(photoSeed, 4));
  await at.api.updatePackage(ACCOUNT, found.id, { status: 'received', notes: `received at ${at.station.origin}` });
}

const upstreamPackage = (trackingNumber: string) => fake.packages(ACCOUNT).filter((p) => p.tracking_number === trackingNumber);
const upstreamStatus = (trackingNumber: string) => upstreamPackage(trackingNumber)[0]?.status;
const unitsAt = async (at: Station, trackingNumber: string) => {
  const found = (await at.api.lookup(trackingNumber)).packages[0];
  return found ? (await at.api.getPackage(ACCOUNT, found.id)).line_items.length : -1;
};
const pendingAt = async (at: Station) => (await at.api.station()).sync.pending_changes;

/** The returns service saw each package created once, each receipt once, and no more unit creates than the units it holds. */
function expectEachOnce(): void {
  // A write whose answer was lost was committed all the same.
  const requests = fake.requests.filter((r) => r.status === 'lost' || r.status < 300);
  for (const p of fake.packages(ACCOUNT)) {
    const path = `/return_packages/${p.id}`;
    expect(
      fake.packages(ACCOUNT).filter((q) => q.tracking_number === p.tracking_number),
      `${p.tracking_number} upstream`,
    ).toHaveLength(1);
    const receipts = requests.filter((r) => r.method === 'PATCH' && r.path.endsWith(path) && (JSON.parse(r.body) as { status?: string }).status === 'received');
    expect(receipts.length, `receipts of ${p.tracking_number}`).toBe(p.status === 'received' ? 1 : 0);
    const unitCreates = requests.filter((r) => r.method === 'POST' && r.path.endsWith(`${path}/line_items`));
    expect(unitCreates.length, `unit creates of ${p.tracking_number}`).toBe(p.line_items.length);
    const uploads = requests.filter((r) => r.method === 'POST' && r.path.endsWith(`${path}/media_files`));
    expect(uploads.length, `photo uploads of ${p.tracking_number}`).toBe(p.media_files.length);
  }
  const packageCreates = requests
    .filter((r) => r.method === 'POST' && /\/return_packages$/.test(r.path))
    .map((r) => (JSON.parse(r.body) as { tracking_number: string }).tracking_number);
  expect(new Set(packageCreates).size).toBe(packageCreates.length);
  expect(requests.filter((r) => r.method === 'POST' && /\/returns$/.test(r.path))).toHaveLength(2);
  expect(fake.returns(ACCOUNT)).toHaveLength(2);
}

beforeAll(async () => {
  fake = await startFakeReturnsService({
    accounts: [ACCOUNT],
    modes: { lineItemRoutes: true, mediaRoutes: true, order: 'id_desc', defaultPerPage: 25, pageCap: 25, returnCreateBody: 'empty', patchStatus: 204 },
  });
  const aDir = newDir('promote-a-');
  await setSpecUpstream(aDir, fake, [ACCOUNT]);
  a = await startHub(aDir, await freePort());
  const ret = await a.api.createReturn({ ...RETURN_BODY, account_id: ACCOUNT });
  for (let i = 0; i < 4; i += 1)
    trackings.push((await a.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('PROMOTE') })).tracking_number);

  const bDir = newDir('promote-b-');
  await cli(['site', 'join', a.station.origin, '--code', await inviteCode(aDir), '--name', 'dock B', '--data-dir', bDir]);
  const cDir = newDir('promote-c-');
  await cli(['site', 'join', a.station.origin, '--code', await inviteCode(aDir), '--name', 'dock C', '--data-dir', cDir]);
  b = await startMember(bDir);
  c = await startMember(cDir);
  for (const station of [b, c])
    await waitFor('the hub’s packages on the member', async () => (await statusAt(station.api, trackings[3] ?? '')) !== undefined, 60_000);
  await waitFor('the packages upstream', async () => trackings.every((t) => upstreamPackage(t).length === 1), 60_000);
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

    // On B, stopped: catch up with A, take the uplink, start as the hub.
    await b.station.stop();
    const promoted = await runCli(['site', 'promote', '--data-dir', b.station.dataDir]);
    expect(promoted.status, promoted.stderr).toBe(0);
    expect(promoted.stderr).toContain("This station is the site's hub now");
    expect((await runCli(['site', 'show', '--data-dir', a.station.dataDir])).stdout).toMatch(/^stepped down at \S+: the uplink was taken by member 1 at \S+$/m);
    expect((await a.api.site()).members.map((m) => [m.id, m.removed_at === null])).toEqual([
      [1, true],
      [2, false],
    ]);
    // The first answer of each kind of create the new hub sends is lost after the returns service
    // committed it (a PATCH whose answer is lost is sent again: the same receipt, not a second one).
    const lost = new Set<string>();
    fake.modes.loseAnswer = ({ method, path }) => {
      const kind = `${method} ${path.replace(/\/\d+/g, '/N')}`;
      if (method !== 'POST' || lost.has(kind)) return false;
      lost.add(kind);
      return true;
    };
    bPort = await freePort();
    b = await startHub(b.station.dataDir, bPort);
    await waitFor(
      'every change up',
      async () =>
        (await pendingAt(b)) === 0 &&
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
    expectEachOnce();
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
    expectEachOnce();
  });
});
