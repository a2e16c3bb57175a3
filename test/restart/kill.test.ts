import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ApiClient } from '#shared/api/client.ts';
import type { PackageStatus } from '#shared/package-status.ts';
import { returnBody, uniqueTracking } from '../api/support.ts';
import { startStation } from '../support/station-process.ts';
import { seededRandom } from '../support/test-seed.ts';
import { cli, readState } from './station-state.ts';

/*
 * The real `serve`, killed with SIGKILL at a random moment while eight clients write: it must start
 * again every time, and every write it acknowledged must be there, as acknowledged.
 */

const dir = mkdtempSync(join(tmpdir(), 'station-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WRITERS = 8;
const ROUNDS = 3;
/** When each round is killed, from the run's seed: a replay kills at the same times. */
const killAt = seededRandom('kill.test');
/** Each writer walks its own packages through these statuses, then adds line items. */
const WALK: PackageStatus[] = ['pending', 'in_transit', 'delivered', 'received'];

interface Acknowledged {
  account: number;
  id: number;
  tracking: string;
  /** Statuses acknowledged so far, in order; the package ends in the last one or the one in flight. */
  statuses: PackageStatus[];
  lineItems: number[];
}

async function writer(api: ApiClient, returnId: number, account: number, acked: Acknowledged[], stop: AbortSignal): Promise<void> {
  while (!stop.aborted) {
    const tracking = uniqueTracking('KILL');
    const created = await api.createPackage(account, { return_id: returnId, tracking_number: tracking, status: 'pending' });
    const record: Acknowledged = { account, id: created.id, tracking, statuses: ['pending'], lineItems: [] };
    acked.push(record);
    for (const status of WALK.slice(1)) {
      await api.updatePackage(account, created.id, { status });
      record.statuses.push(status);
    }
    const item = await api.createLineItem(account, created.id, { name: 'Mug', merchant_sku: 'MUG-1', quantity: 1 });
    record.lineItems.push(item.id);
  }
}

it('starts again after SIGKILL under concurrent writes, with every acknowledged write in place', async () => {
  const accountToken = cli(dir, 'token', 'create', '--account', '1001').trim();
  const acked: Acknowledged[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const station = await startStation({ dataDir: dir, args: round === 1 ? ['--demo'] : [] });
    const api = new ApiClient({ baseUrl: station.origin, token: accountToken });
    const ret = await api.createReturn(returnBody({ email: `kill.${round}@example.com` }));
    const stop = new AbortController();
    const writers = Array.from({ length: WRITERS }, () => writer(api, ret.id, 1001, acked, stop.signal).catch(() => undefined));
    await new Promise((resolve) => setTimeout(resolve, 300 + killAt() * 1200));
    station.process.kill('SIGKILL');
    stop.abort();
    await Promise.all(writers);
    await station.stop();
  }

  const station = await startStation({ dataDir: dir });
  try {
    const api = new ApiClient({ baseUrl: station.origin, token: accountToken });
    expect(acked.length).toBeGreaterThan(WRITERS);
    for (const record of acked) {
      const stored = await api.getPackage(record.account, record.id);
      expect(stored.tracking_number).toBe(record.tracking);
      const last = record.statuses.length - 1;
      // The last acknowledged status, or the next one if its request was in flight at the kill.
      expect(WALK.slice(last, last + 2), `package ${record.id}`).toContain(stored.status);
      for (const id of record.lineItems) expect(stored.line_items.map((i) => i.id)).toContain(id);
    }
    // The store is whole: everything reads back, and the next start reads the same.
    const state = await readState(station.origin, station.stationToken);
    expect(await station.stop()).toBe(0);
    const again = await startStation({ dataDir: dir });
    expect(await readState(again.origin, again.stationToken)).toEqual(state);
    expect(await again.stop()).toBe(0);
  } finally {
    await station.stop();
  }
}, 120_000);
