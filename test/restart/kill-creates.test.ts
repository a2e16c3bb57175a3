import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ApiClient } from '#shared/api/client.ts';
import { returnBody, uniqueTracking } from '../api/support.ts';
import { startStation } from '../support/station-process.ts';
import { seededRandom } from '../support/test-seed.ts';
import { cli } from './station-state.ts';

/*
 * Group commit under the real `serve`: 32 clients create packages as fast as they can, so every
 * commit carries many of them and is acknowledged after one fsync of the WAL (docs/decisions/
 * wal-sync-off-loop.md). The station is killed with SIGKILL at a random moment, round after round;
 * after a start, every create it acknowledged is there, once.
 */

const dir = mkdtempSync(join(tmpdir(), 'station-kill-creates-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CLIENTS = 32;
const ROUNDS = 3;
/** When each round is killed, from the run's seed: a replay kills at the same times. */
const killAt = seededRandom('kill-creates.test');
const ACCOUNT = 1002;

interface Acknowledged {
  id: number;
  tracking: string;
}

async function client(api: ApiClient, returnId: number, acked: Acknowledged[], stop: AbortSignal): Promise<void> {
  while (!stop.aborted) {
    const tracking = uniqueTracking('GRP');
    const created = await api.createPackage(ACCOUNT, { return_id: returnId, tracking_number: tracking, status: 'in_transit' });
    acked.push({ id: created.id, tracking });
  }
}

it('keeps every create it acknowledged to 32 concurrent clients when killed with SIGKILL', async () => {
  const accountToken = cli(dir, 'token', 'create', '--account', String(ACCOUNT)).trim();
  const acked: Acknowledged[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const station = await startStation({ dataDir: dir, args: round === 1 ? ['--demo'] : [] });
    const ret = await new ApiClient({ baseUrl: station.origin, token: accountToken }).createReturn(returnBody({ email: `group.${round}@example.com` }));
    // The creates and the check below use the station token: an account token's 1,000 requests an
    // hour would stop the clients (and the check of every acknowledged create) part way.
    const api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
    const before = acked.length;
    const stop = new AbortController();
    const clients = Array.from({ length: CLIENTS }, () => client(api, ret.id, acked, stop.signal).catch(() => undefined));
    // Kill once the clients are in full flow, at a random moment of it.
    while (acked.length - before < CLIENTS) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, killAt() * 800));
    station.process.kill('SIGKILL');
    stop.abort();
    await Promise.all(clients);
    await station.stop();
  }

  const station = await startStation({ dataDir: dir });
  try {
    const api = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
    expect(acked.length).toBeGreaterThan(ROUNDS * CLIENTS);
    for (const record of acked) {
      const stored = await api.getPackage(ACCOUNT, record.id);
      expect(stored.tracking_number, `package ${record.id}`).toBe(record.tracking);
    }
    // Each acknowledged create is there once (an id is never handed out twice across the kills).
    expect(new Set(acked.map((record) => record.id)).size).toBe(acked.length);
    const listed = await api.listPackages(ACCOUNT, { per_page: 1 });
    expect(listed.meta.total_count).toBeGreaterThanOrEqual(acked.length);
    expect(await station.stop()).toBe(0);
  } finally {
    await station.stop();
  }
}, 120_000);
