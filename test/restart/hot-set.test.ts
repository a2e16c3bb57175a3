import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, returnBody } from '../api/support.ts';
import { returnLine } from '../support/manual-return.ts';
import { type RunningStation, startStation } from '../support/station-process.ts';
import { startUpstream, waitFor } from '../sync/support.ts';
import { cli } from './station-state.ts';

/*
 * The hot set through the real `returns-station serve` (docs/decisions/store-hot-set.md): with
 * --hot-days 0 a received package is not in memory after a restart, and is read, corrected,
 * listed and shed again from memory like any hot one.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const A = '/api/v1/accounts/1';
const COLD = { args: ['--hot-days', '0'], env: { RETURNS_STATION_LOG_LEVEL: 'info', RETURNS_STATION_HOT_SWEEP_MS: '300' } };

async function until(what: string, predicate: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const inMemoryAtOpen = (station: RunningStation): number | undefined => {
  const match = /"returns_in_memory":(\d+)/.exec(station.output().stderr);
  return match?.[1] === undefined ? undefined : Number(match[1]);
};
const slotsAtOpen = (station: RunningStation): number | undefined => {
  const match = /"outbox_slots_in_memory":(\d+)/.exec(station.output().stderr);
  return match?.[1] === undefined ? undefined : Number(match[1]);
};
const sheds = (station: RunningStation): number => (station.output().stderr.match(/were shed from memory/g) ?? []).length;

describe('a station with a hot-set window of zero', () => {
  it('reads, corrects, lists and sheds again a received package that is cold after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'station-hot-set-'));
    dirs.push(dir);
    const token = cli(dir, 'token', 'create', '--account', '1', '--name', 'hot-set test').trim();

    let station = await startStation({ dataDir: dir, ...COLD });
    const ret = await call(station.origin, 'POST', '/returns', { token, body: returnBody({ return_line_items: [returnLine('COLD-1', 1)] }) });
    expect(ret.status, ret.text).toBe(200);
    const { id: returnId, return_line_items: lines } = ret.json as { id: number; return_line_items: Array<{ id: number }> };
    const pkg = await call(station.origin, 'POST', `${A}/return_packages`, { token, body: { return_id: returnId, tracking_number: 'COLD-TRK-1' } });
    expect(pkg.status, pkg.text).toBe(201);
    const packageId = (pkg.json as { id: number }).id;
    const item = await call(station.origin, 'POST', `${A}/return_packages/${packageId}/line_items`, {
      token,
      body: { return_line_item_id: lines[0]?.id, quantity: 1 },
    });
    expect(item.status, item.text).toBe(201);
    const itemId = (item.json as { id: number }).id;
    expect((await call(station.origin, 'PATCH', `${A}/return_packages/${packageId}`, { token, body: { status: 'received' } })).status).toBe(200);
    // A second return with an open package stays hot.
    const open = await call(station.origin, 'POST', '/returns', { token, body: returnBody() });
    const openId = (open.json as { id: number }).id;
    expect((await call(station.origin, 'POST', `${A}/return_packages`, { token, body: { return_id: openId, tracking_number: 'HOT-TRK-1' } })).status).toBe(201);
    expect(await station.stop()).toBe(0);

    station = await startStation({ dataDir: dir, ...COLD });
    try {
      await until('the open report', () => inMemoryAtOpen(station) !== undefined);
      expect(inMemoryAtOpen(station)).toBe(1); // the open return only
      const got = await call(station.origin, 'GET', `${A}/return_packages/${packageId}`, { token });
      expect(got.status, got.text).toBe(200);
      expect(got.json).toMatchObject({ id: packageId, status: 'received', tracking_number: 'COLD-TRK-1', line_items: [{ id: itemId, condition: null }] });
      expect((await call(station.origin, 'GET', `${A}/returns/${returnId}`, { token })).json).toMatchObject({ status: 'received' });
      // Pages that hold a cold record beside a hot one are read through Dexie (a page wholly in
      // memory is made from the engine's own records): the same rows either way.
      const page = await call(station.origin, 'GET', `${A}/return_packages?per_page=10`, { token });
      expect(page.status, page.text).toBe(200);
      const rows = (page.json as { data: Array<{ tracking_number: string; status: string; line_items_count: number }> }).data;
      expect(rows.map((row) => [row.tracking_number, row.status, row.line_items_count]).sort()).toEqual([
        ['COLD-TRK-1', 'received', 1],
        ['HOT-TRK-1', 'in_transit', 0],
      ]);
      const stationPage = await call(station.origin, 'GET', '/api/v1/station/return_packages?account_id=1', { token: station.stationToken });
      expect((stationPage.json as { data: Array<{ account_id: number }> }).data.map((row) => row.account_id)).toEqual([1, 1]);
      const returnsPage = await call(station.origin, 'GET', `${A}/returns`, { token });
      const returnRows = (returnsPage.json as { data: Array<{ id: number; status: string }> }).data;
      expect(returnRows.map((row) => row.id).sort()).toEqual([returnId, openId].sort());
      expect(returnRows.find((row) => row.id === returnId)?.status).toBe('received');
      expect(returnRows.find((row) => row.id === openId)?.status).not.toBe('received');

      // Correct the receipt: the write brings the package into memory; the sweep sheds it again.
      const shedBefore = sheds(station);
      const corrected = await call(station.origin, 'PATCH', `${A}/return_packages/${packageId}/line_items/${itemId}`, {
        token,
        body: { condition: 'damaged', tags: ['corrected-by-ada'] },
      });
      expect(corrected.status, corrected.text).toBe(200);
      await until('the sweep', () => sheds(station) > shedBefore);

      const listed = await call(station.origin, 'GET', `${A}/return_packages?status=received`, { token });
      expect(listed.json).toMatchObject({ data: [{ id: packageId, line_items_count: 1 }], meta: { total_count: 1 } });
      const duplicate = await call(station.origin, 'POST', `${A}/return_packages`, { token, body: { return_id: openId, tracking_number: 'cold-trk-1' } });
      expect(duplicate.status, duplicate.text).toBe(409);
      const after = await call(station.origin, 'GET', `${A}/return_packages/${packageId}`, { token });
      expect(after.json).toMatchObject({
        line_items: [
          {
            id: itemId,
            condition: 'damaged',
            disposition: 'liquidate',
            tags: ['corrected-by-ada', 'disposition:liquidate', 'bin:LIQUIDATE', expect.stringMatching(/^unit:RS-/)],
          },
        ],
      });
    } finally {
      expect(await station.stop()).toBe(0);
    }

    station = await startStation({ dataDir: dir, ...COLD });
    try {
      await until('the open report', () => inMemoryAtOpen(station) !== undefined);
      expect(inMemoryAtOpen(station)).toBe(1);
      const again = await call(station.origin, 'GET', `${A}/return_packages/${packageId}`, { token });
      expect(again.json).toMatchObject({
        line_items: [
          {
            id: itemId,
            condition: 'damaged',
            disposition: 'liquidate',
            tags: ['corrected-by-ada', 'disposition:liquidate', 'bin:LIQUIDATE', expect.stringMatching(/^unit:RS-/)],
          },
        ],
      });
    } finally {
      expect(await station.stop()).toBe(0);
    }
  }, 60_000);

  it('keeps the unsent changes of received parcels on disk while no upstream is set, and sends them all once one is, across a restart', async () => {
    // Without an upstream every local change leaves an outbox slot (two per parcel): held in memory
    // they grew with the history (docs/decisions/store-hot-set.md).
    const dir = mkdtempSync(join(tmpdir(), 'station-hot-outbox-'));
    dirs.push(dir);
    const token = cli(dir, 'token', 'create', '--account', '1', '--name', 'hot-set outbox test').trim();
    let station = await startStation({ dataDir: dir, ...COLD });
    const tracking = ['COLD-SLOT-1', 'COLD-SLOT-2'];
    for (const number of tracking) {
      const ret = await call(station.origin, 'POST', '/returns', { token, body: returnBody({ return_line_items: [returnLine(`${number}-SKU`, 1)] }) });
      expect(ret.status, ret.text).toBe(200);
      const { id: returnId, return_line_items: lines } = ret.json as { id: number; return_line_items: Array<{ id: number }> };
      const pkg = await call(station.origin, 'POST', `${A}/return_packages`, { token, body: { return_id: returnId, tracking_number: number } });
      expect(pkg.status, pkg.text).toBe(201);
      const packageId = (pkg.json as { id: number }).id;
      expect(
        (
          await call(station.origin, 'POST', `${A}/return_packages/${packageId}/line_items`, {
            token,
            body: { return_line_item_id: lines[0]?.id, quantity: 1 },
          })
        ).status,
      ).toBe(201);
      expect((await call(station.origin, 'PATCH', `${A}/return_packages/${packageId}`, { token, body: { status: 'received' } })).status).toBe(200);
    }
    const open = await call(station.origin, 'POST', '/returns', { token, body: returnBody() });
    const openId = (open.json as { id: number }).id;
    expect((await call(station.origin, 'POST', `${A}/return_packages`, { token, body: { return_id: openId, tracking_number: 'HOT-SLOT-1' } })).status).toBe(
      201,
    );
    await until('the sweep', () => sheds(station) > 0);
    expect(await station.stop()).toBe(0);

    station = await startStation({ dataDir: dir, ...COLD });
    const upstream = await startUpstream({ accounts: [1] });
    try {
      await until('the open report', () => slotsAtOpen(station) !== undefined);
      expect(inMemoryAtOpen(station)).toBe(1);
      expect(slotsAtOpen(station)).toBe(2); // the open return's and its package's, not the received ones'
      const set = await call(station.origin, 'POST', '/api/v1/station/upstream', {
        token: station.stationToken,
        body: { url: upstream.origin, token: upstream.syncToken, accounts: [1] },
      });
      expect(set.status, set.text).toBe(200);
      // The backlog made before there was an upstream, shed and restarted since, goes up whole.
      for (const number of [...tracking, 'HOT-SLOT-1']) {
        const sent = await waitFor(`${number} upstream`, async () => (await upstream.api.listPackages(1, { tracking_number: number })).data[0], 30_000);
        expect(sent.status).toBe(number === 'HOT-SLOT-1' ? 'in_transit' : 'received');
      }
      await waitFor(
        'nothing left to send',
        async () => {
          const sync = await call(station.origin, 'GET', '/api/v1/station/sync', { token: station.stationToken });
          return (sync.json as { status: { pending_changes: number } }).status.pending_changes === 0;
        },
        30_000,
      );
    } finally {
      expect(await station.stop()).toBe(0);
      await upstream.stop();
    }
  }, 90_000);
});

describe('a station with a limit on the records kept for a recent change', () => {
  /** How many returns the sweeps shed in all (from their log lines). */
  const shedInAll = (station: RunningStation): number =>
    [...station.output().stderr.matchAll(/"returns":(\d+)[^\n]*were shed from memory/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  /** Waits for the sweeps to have shed `count` returns, then for three more sweeps: none sheds another. */
  const expectShedInAll = async (station: RunningStation, count: number) => {
    await until(`${count} returns shed`, () => shedInAll(station) >= count);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(shedInAll(station)).toBe(count);
  };

  it('keeps the most recently received returns within --hot-recent-max, the open ones beyond it, and reads the rest from disk, across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'station-hot-recent-'));
    dirs.push(dir);
    const token = cli(dir, 'token', 'create', '--account', '1', '--name', 'hot-recent test').trim();
    // A 14-day window (given: test:cold sets 0 for every station) would keep every one of them: the limit is what sheds.
    const LIMITED = { args: ['--hot-recent-max', '2', '--hot-days', '14'], env: { RETURNS_STATION_LOG_LEVEL: 'info', RETURNS_STATION_HOT_SWEEP_MS: '300' } };

    /** Starts the station again on the same directory and waits for its open report. */
    const restartLimited = async () => {
      const started = await startStation({ dataDir: dir, ...LIMITED });
      await until('the open report', () => inMemoryAtOpen(started) !== undefined);
      return started;
    };
    let station = await startStation({ dataDir: dir, ...LIMITED });
    const received: number[] = [];
    for (let n = 1; n <= 4; n++) {
      const ret = await call(station.origin, 'POST', '/returns', { token, body: returnBody({ return_line_items: [returnLine(`RECENT-${n}`, 1)] }) });
      const { id, return_line_items: lines } = ret.json as { id: number; return_line_items: Array<{ id: number }> };
      const pkg = await call(station.origin, 'POST', `${A}/return_packages`, { token, body: { return_id: id, tracking_number: `RECENT-TRK-${n}` } });
      const packageId = (pkg.json as { id: number }).id;
      expect(
        (
          await call(station.origin, 'POST', `${A}/return_packages/${packageId}/line_items`, {
            token,
            body: { return_line_item_id: lines[0]?.id, quantity: 1 },
          })
        ).status,
      ).toBe(201);
      expect((await call(station.origin, 'PATCH', `${A}/return_packages/${packageId}`, { token, body: { status: 'received' } })).status).toBe(200);
      received.push(packageId);
      await new Promise((resolve) => setTimeout(resolve, 5)); // each received at its own instant
    }
    // Three open returns: more than the limit, all kept (the limit is on recent changes alone).
    for (let n = 1; n <= 3; n++) {
      const open = await call(station.origin, 'POST', '/returns', { token, body: returnBody() });
      expect(
        (
          await call(station.origin, 'POST', `${A}/return_packages`, {
            token,
            body: { return_id: (open.json as { id: number }).id, tracking_number: `OPEN-TRK-${n}` },
          })
        ).status,
      ).toBe(201);
    }
    try {
      // The two received first (a sweep may run between two receipts: then one at a time).
      await expectShedInAll(station, 2);
    } finally {
      expect(await station.stop()).toBe(0);
    }

    station = await restartLimited();
    try {
      expect(inMemoryAtOpen(station)).toBe(3 + 2);
      // The open report names the window and the limit it keeps, as given.
      expect(station.output().stderr).toContain('"hot_days":14,"hot_recent_max":2');
      // The oldest receipt reads from disk, and a correction brings it back; the next sweep sheds the
      // then least recently changed one (the second oldest receipt), not the one just corrected.
      const oldest = await call(station.origin, 'GET', `${A}/return_packages/${received[0]}`, { token });
      expect(oldest.json).toMatchObject({ id: received[0], status: 'received', tracking_number: 'RECENT-TRK-1', line_items: [{ quantity: 1 }] });
      const itemId = (oldest.json as { line_items: Array<{ id: number }> }).line_items[0]?.id;
      const corrected = await call(station.origin, 'PATCH', `${A}/return_packages/${received[0]}/line_items/${itemId}`, {
        token,
        body: { condition: 'damaged' },
      });
      expect(corrected.status, corrected.text).toBe(200);
      await expectShedInAll(station, 1);
    } finally {
      expect(await station.stop()).toBe(0);
    }

    station = await restartLimited();
    try {
      expect(inMemoryAtOpen(station)).toBe(3 + 2);
      const page = await call(station.origin, 'GET', `${A}/return_packages?status=received&sort=id`, { token });
      expect((page.json as { data: Array<{ id: number }> }).data.map((row) => row.id)).toEqual(received);
      expect((await call(station.origin, 'GET', `${A}/return_packages/${received[0]}`, { token })).json).toMatchObject({
        line_items: [{ condition: 'damaged' }],
      });
    } finally {
      expect(await station.stop()).toBe(0);
    }
  }, 60_000);
});
