import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { ApiClient } from '#shared/api/client.ts';
import { returnBody, uniqueTracking } from '../api/support.ts';
import { cli } from '../restart/station-state.ts';
import { followEvents } from '../support/event-stream.ts';
import { startStation } from '../support/station-process.ts';
import { setUpstream, tempDir } from './support.ts';

/*
 * Creating while the upstream cannot be reached (docs/decisions/create-path.md): every create
 * marks an outbox slot, and after every commit the station refreshes its sync status, which counts
 * the backlog. Those refreshes are coalesced (one at a time, the calls made meanwhile share the
 * next); the status must still count every acknowledged change at once, and the backlog must be
 * whole across a stop and a start of the real `serve`.
 */

const dir = tempDir('sync-offline-backlog-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ACCOUNT = 1002;

/** How many changes of `account` the station's list of waiting changes holds, every page read. */
async function waitingOf(api: ApiClient, account: number): Promise<number> {
  let count = 0;
  for (let page = 1; ; page += 1) {
    const { data, meta } = await api.listSyncChanges({ page, per_page: 100 });
    count += data.filter((change) => change.account_id === account).length;
    if (page * 100 >= meta.total_count) return count;
  }
}

const CLIENTS = 32;
const CREATES_PER_CLIENT = 8;

it('counts every change made while the upstream is unreachable at once, and keeps them across a restart', async () => {
  const accountToken = cli(dir, 'token', 'create', '--account', String(ACCOUNT)).trim();
  const demo = await startStation({ dataDir: dir, args: ['--demo'] });
  expect(await demo.stop()).toBe(0);
  // Port 9 (discard) on loopback: nothing listens, every sync round finds the upstream offline.
  await setUpstream(dir, 'http://127.0.0.1:9', 'unused-token', [ACCOUNT]);

  const station = await startStation({ dataDir: dir, env: { RETURNS_STATION_SYNC_INTERVAL_MS: '200' } });
  let pending: number;
  try {
    const api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
    const before = (await api.listSyncChanges({ per_page: 1 })).meta.total_count;
    // The status counts the synced account's changes; the list holds the demo's other account's too.
    const statusBefore = (await api.syncOverview()).status.pending_changes;
    expect(statusBefore).toBe(await waitingOf(api, ACCOUNT));
    expect(statusBefore).toBeLessThan(before);
    const stream = await followEvents(station.origin, station.stationToken, ACCOUNT);
    expect(stream.status).toBe(200);
    /** The `pending_changes` of every `sync.status` event so far. */
    const counted = () => stream.events.flatMap((e) => (e.event === 'sync.status' ? [e.data.sync.pending_changes] : []));
    const ret = await new ApiClient({ baseUrl: station.origin, token: accountToken }).createReturn(returnBody({ email: 'offline.backlog@example.com' }));
    const created = await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        const ids: number[] = [];
        for (let i = 0; i < CREATES_PER_CLIENT; i += 1) {
          ids.push((await api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: uniqueTracking('OFF'), status: 'in_transit' })).id);
        }
        return ids;
      }),
    );
    const changed = created.flat().length + 1; // the packages and their return
    // The UI hears of the burst too: commits refresh the status at most every 250 ms, the last of
    // them included, so a `sync.status` event counts every change without anyone asking (no
    // `GET …/sync` is made before it arrives).
    await stream.waitFor(() => counted().some((count) => count >= statusBefore + changed)).finally(() => stream.close());
    expect(Math.max(...counted())).toBeGreaterThanOrEqual(statusBefore + changed);
    // The answer to a read made after the last create counts it (no waiting for a later refresh).
    const status = (await api.syncOverview()).status.pending_changes;
    expect(status).toBe(statusBefore + changed);
    expect(status).toBe(await waitingOf(api, ACCOUNT));
    pending = (await api.listSyncChanges({ per_page: 1 })).meta.total_count;
    expect(pending).toBe(before + changed);
  } finally {
    expect(await station.stop()).toBe(0);
  }

  const again = await startStation({ dataDir: dir });
  try {
    const api = new ApiClient({ baseUrl: again.origin, token: again.stationToken });
    expect((await api.listSyncChanges({ per_page: 1 })).meta.total_count).toBe(pending);
  } finally {
    expect(await again.stop()).toBe(0);
  }
}, 120_000);
