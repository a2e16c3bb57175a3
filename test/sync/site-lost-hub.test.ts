import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeReturnsService } from './fake-returns-service.ts';
import { cli, expectEachOnce, pendingAt, receiveAt, type SiteStation, startMemberStation, startTlsStation, startMovingSite } from './site-move-support.ts';
import { freePort, inviteCode, statusAt } from './site-support.ts';
import { RETURN_BODY, runCli, tracking, waitFor } from './support.ts';

/*
 * A hub lost with its machine (docs/decisions/site-promote.md), through the doors an operator uses:
 * a hub A (`serve --host`) on the spec-only fake in unfriendly modes, members B and C joined with
 * `site join`. The returns service goes down; B and C receive (A holds their work unsent); A
 * receives at its own dock while B is stopped, then A's machine is gone. B, running again, keeps
 * receiving with its hub away. `site promote` on B is refused (no hub to catch up with);
 * `site promote --without-hub` with the returns service's settings makes B the hub. The returns
 * service ends with B's own work and what B had from the site once each, nothing twice; A's own
 * receipt, which only A held, is lost (said in the operator guide). C joins B and its next receipt
 * goes up through B.
 */

const ACCOUNT = 1;

let fake: FakeReturnsService;
const dirs: string[] = [];
let a: SiteStation;
let b: SiteStation;
let c: SiteStation;
const trackings: string[] = [];

const upstreamPackage = (trackingNumber: string) => fake.packages(ACCOUNT).filter((p) => p.tracking_number === trackingNumber);
const upstreamStatus = (trackingNumber: string) => upstreamPackage(trackingNumber)[0]?.status;

beforeAll(async () => {
  const site = await startMovingSite('losthub', ACCOUNT, 5);
  ({ fake, a, b, c } = site);
  dirs.push(...site.dirs);
  trackings.push(...site.trackings);
}, 180_000);

afterAll(async () => {
  for (const s of [a, b, c]) await s?.station.stop();
  await fake?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('a hub lost with its machine', { timeout: 300_000 }, () => {
  it('a member takes the uplink given by the operator: its own work and what it had from the site go up once; what only the hub held is lost', async () => {
    const [t0 = '', t1 = '', t2 = '', t3 = '', t4 = ''] = trackings;
    // Before the outage: B's receipt goes up through A.
    await receiveAt(b, ACCOUNT, t0, ['new'], 81);
    await waitFor('B’s receipt upstream', async () => upstreamStatus(t0) === 'received' && upstreamPackage(t0)[0]?.media_files.length === 1, 60_000);

    // The returns service is down: B and C receive, A holds their work unsent; B has C's receipt.
    fake.modes.outage = { status: 503, retryAfterSeconds: 1, until: fake.now() + 3_600_000 };
    await receiveAt(b, ACCOUNT, t1, ['damaged', 'good']);
    await receiveAt(c, ACCOUNT, t2, ['good'], 82); // its bytes at C and A only: B shows it through A
    await waitFor('B sent its receipt to A', async () => (await pendingAt(b)) === 0, 30_000);
    await waitFor('C’s receipt on B', async () => (await statusAt(b.api, t2)) === 'received', 30_000);

    // A receives at its own dock while B is stopped (B never sees it), then A's machine is gone.
    await b.station.stop();
    await receiveAt(a, ACCOUNT, t3, ['new']);
    await a.station.stop();
    b = await startMemberStation(b.station.dataDir);
    // With its hub away, B keeps receiving and holds its work.
    await receiveAt(b, ACCOUNT, t4, ['new', 'damaged']);
    await waitFor('B holds its receipt', async () => (await pendingAt(b)) > 0, 30_000);
    fake.modes.outage = null;

    // No hub to catch up with: the plain take-over is refused and nothing changes.
    const refused = await runCli(['site', 'promote', '--data-dir', b.station.dataDir]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/cannot be (asked|reached)/);
    expect(refused.stderr).toContain('--without-hub');
    expect((await b.api.site()).hub?.url).toBe(a.station.origin);
    // Bad input is refused before anything is taken.
    const noAccount = await runCli(['site', 'promote', '--without-hub', '--url', fake.returnsUrl, '--token', 'x', '--data-dir', b.station.dataDir]);
    expect(noAccount.status).not.toBe(0);
    expect(noAccount.stderr).toContain('--account');
    expect((await b.api.site()).hub?.url).toBe(a.station.origin);

    // The operator gives B the returns service, as `upstream set` takes it (the token on stdin).
    const took = await runCli(
      [
        'site',
        'promote',
        '--without-hub',
        '--returns-url',
        fake.returnsUrl,
        '--base-url',
        fake.baseUrl,
        '--token-stdin',
        '--account',
        String(ACCOUNT),
        '--data-dir',
        b.station.dataDir,
      ],
      { input: `${fake.defaultToken}\n` },
    );
    expect(took.status, took.stderr).toBe(0);
    expect(took.stderr).toContain("This station is the site's hub now");
    expect(took.stderr).toContain('What only the lost hub held');
    expect((await b.api.site()).hub).toBeNull();

    // B's own work (held at B, or held unsent at A) and C's receipt B had go up once each.
    await waitFor(
      'B’s work upstream',
      async () =>
        (await pendingAt(b)) === 0 &&
        upstreamStatus(t1) === 'received' &&
        upstreamStatus(t2) === 'received' &&
        upstreamStatus(t4) === 'received' &&
        upstreamPackage(t4)[0]?.line_items.length === 2,
      90_000,
    );
    expect(upstreamPackage(t1)[0]?.line_items).toHaveLength(2);
    expect(upstreamPackage(t2)[0]?.line_items).toHaveLength(1);
    // B's own photo, up before, is found by its bytes, not sent again.
    expect(upstreamPackage(t0)[0]?.media_files).toHaveLength(1);
    // C's photo had its bytes at A (and C): B never held them, so it is not sent, and waits for nothing.
    expect(upstreamPackage(t2)[0]?.media_files).toHaveLength(0);
    // A's own receipt was only at A: lost with it, upstream and on B.
    expect(upstreamStatus(t3)).not.toBe('received');
    expect(await statusAt(b.api, t3)).not.toBe('received');
    expectEachOnce(fake, ACCOUNT, 1);
  });

  it('the other member joins the new hub; its next receipt goes up once through it, across a restart of the new hub', async () => {
    // B listens on the site network for the others to join it.
    await b.station.stop();
    const bPort = await freePort();
    b = await startTlsStation(b.station.dataDir, bPort);
    await cli(['site', 'join', b.station.origin, '--code', await inviteCode(b.station.dataDir), '--name', 'dock C', '--data-dir', c.station.dataDir]);
    const ret = await b.api.createReturn({ ...RETURN_BODY, account_id: ACCOUNT, email: 'after@example.com' });
    const made = (await b.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('AFTER') })).tracking_number;
    await waitFor('the new parcel on C', async () => (await statusAt(c.api, made)) !== undefined, 60_000);
    await b.station.stop();
    b = await startTlsStation(b.station.dataDir, bPort);
    await receiveAt(c, ACCOUNT, made, ['good']);
    await waitFor('C’s receipt upstream', async () => upstreamStatus(made) === 'received' && upstreamPackage(made)[0]?.line_items.length === 1, 90_000);
    for (const s of [b, c]) await waitFor('everything sent', async () => (await pendingAt(s)) === 0, 60_000);
    expectEachOnce(fake, ACCOUNT, 2);
  });
});
