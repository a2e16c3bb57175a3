import { beforeAll, expect, it } from 'vitest';
import { packagesByTracking, RETURN_BODY, setUpstream, startLocal, tracking, useProxiedUpstream, waitFor } from './support.ts';

/*
 * A first pull of a larger account shows its progress and, killed part-way, resumes from the page
 * it had stored rather than from the start. (300 packages, slowed by the proxy; the bench pulls 100,000.)
 * A Returns Station honours updated_since: once the station saw that, it reads the change feed, and
 * idle, it reads from its cursor once the overlap window behind it closed.
 */

const ACCOUNT = 1001;
const PACKAGES = 300;
const rig = useProxiedUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'sync-first-' });

beforeAll(async () => {
  const ret = await rig.upstream.api.createReturn({ ...RETURN_BODY, account_id: ACCOUNT });
  for (let i = 0; i < PACKAGES; i += 1) await rig.upstream.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('FIRST') });
}, 180_000);

/** The change feed's reads (updated_since with sort=updated_at, used once the upstream was seen to honour it). */
const packageLists = () => rig.proxy.requests.filter((r) => r.method === 'GET' && /\/return_packages\?/.test(r.path) && r.path.includes('sort=updated_at'));
/** Every read of the packages list (the first pull reads it by page numbers alone). */
const packagePages = () => rig.proxy.requests.filter((r) => r.method === 'GET' && /\/return_packages\?/.test(r.path));

it('shows progress, and resumes after a SIGKILL from what it had stored', async () => {
  const { upstream, proxy, dataDir } = rig;
  await setUpstream(dataDir, proxy.url, upstream.syncToken, [ACCOUNT]);
  proxy.delayMs = 500;
  const env = { RETURNS_STATION_SYNC_OVERLAP_MS: '0' };
  const first = await startLocal(dataDir, env);
  const progress = await waitFor(
    'a first page stored',
    async () => (await first.api.syncOverview()).pulls.find((p) => p.resource === 'return_packages' && p.stored >= 250),
    30_000,
  );
  expect(progress.total).toBe(PACKAGES);
  first.station.process.kill('SIGKILL');
  await first.station.stop();
  const before = packagePages().length;

  proxy.delayMs = 0;
  const second = await startLocal(dataDir, env);
  try {
    await waitFor(
      'every package',
      async () =>
        (await second.api.syncOverview()).pulls.length === 0 && (await second.api.listPackages(ACCOUNT, { per_page: 1 })).meta.total_count === PACKAGES,
      30_000,
    );
    const resumed = packagePages().slice(before);
    // The first list request after the restart reads on from the page it had stored, not page 1.
    expect(resumed[0]?.path).not.toMatch(/[?&]page=1(&|$)/);
    expect((await packagesByTracking(second.api, ACCOUNT)).size).toBe(PACKAGES);
  } finally {
    await second.station.stop();
  }
}, 180_000);

it('stops re-reading its overlap window once it closed, and still pulls what changes next', async () => {
  const { upstream, proxy, dataDir } = rig;
  const sinceOf = (path: string) => Date.parse(new URL(path, 'http://x').searchParams.get('updated_since') ?? '');
  const from = packageLists().length;
  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_OVERLAP_MS: '1000', RETURNS_STATION_SYNC_INTERVAL_MS: '300' });
  try {
    // Idle rounds: a window behind the cursor until a round re-read it after it closed, then the cursor itself.
    const settled = await waitFor('a round from the cursor itself', async () => {
      const seen = packageLists()
        .slice(from)
        .map((r) => sinceOf(r.path));
      const first = seen[0];
      return first !== undefined && seen.length >= 3 && seen.at(-1) === first + 1000 ? seen : null;
    });
    expect(Math.max(...settled)).toBe((settled[0] ?? 0) + 1000);
    const idle = packageLists().length;
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(
      packageLists()
        .slice(idle)
        .every((r) => sinceOf(r.path) === (settled[0] ?? 0) + 1000),
    ).toBe(true);

    // Something new upstream opens a new window and arrives.
    const ret = (await upstream.api.listAccountReturns(ACCOUNT)).data[0];
    const late = await upstream.api.createPackage(ACCOUNT, { return_id: ret?.id ?? 0, tracking_number: tracking('LATE') });
    await waitFor('the new package on the station', async () => (await local.api.lookup(late.tracking_number)).packages.length === 1);
  } finally {
    await local.station.stop();
  }
  expect(proxy.requests.some((r) => r.status === 429)).toBe(false);
}, 120_000);
