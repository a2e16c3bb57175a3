import { beforeAll, expect, it } from 'vitest';
import { packagesByTracking, RETURN_BODY, setUpstream, startLocal, tracking, useProxiedUpstream, waitFor } from './support.ts';

/*
 * A first pull of a larger account shows its progress and, killed part-way, resumes from the page
 * it had stored rather than from the start. (300 packages, slowed by the proxy; the bench pulls 100,000.)
 */

const ACCOUNT = 1001;
const PACKAGES = 300;
const rig = useProxiedUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'sync-first-' });

beforeAll(async () => {
  const ret = await rig.upstream.api.createReturn({ ...RETURN_BODY, account_id: ACCOUNT });
  for (let i = 0; i < PACKAGES; i += 1) await rig.upstream.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('FIRST') });
}, 180_000);

const packageLists = () => rig.proxy.requests.filter((r) => r.method === 'GET' && /\/return_packages\?/.test(r.path) && r.path.includes('sort=updated_at'));

it('shows progress, and resumes after a SIGKILL from what it had stored', async () => {
  const { upstream, proxy, dataDir } = rig;
  await setUpstream(dataDir, proxy.url, upstream.syncToken, [ACCOUNT]);
  proxy.delayMs = 500;
  const env = { RETURNS_STATION_SYNC_OVERLAP_MS: '0' };
  const first = await startLocal(dataDir, env);
  const progress = await waitFor('a first page stored', async () => (await first.api.syncOverview()).pulls.find((p) => p.resource === 'return_packages' && p.stored >= 250), 30_000);
  expect(progress.total).toBe(PACKAGES);
  first.station.process.kill('SIGKILL');
  await first.station.stop();
  const before = packageLists().length;

  proxy.delayMs = 0;
  const second = await startLocal(dataDir, env);
  try {
    await waitFor('every package', async () => (await second.api.syncOverview()).pulls.length === 0 && (await second.api.listPackages(ACCOUNT, { per_page: 1 })).meta.total_count === PACKAGES, 30_000);
    const resumed = packageLists().slice(before);
    // The first list request after the restart starts at the stored cursor, not at the beginning.
    expect(resumed[0]?.path).not.toContain('updated_since=1970-01-01');
    expect((await packagesByTracking(second.api, ACCOUNT)).size).toBe(PACKAGES);
  } finally {
    await second.station.stop();
  }
}, 180_000);
