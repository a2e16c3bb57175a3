import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStation, type Station } from '../../electron/station/station.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { searchTreesOf } from '../../electron/station/store/hot-set/compact-trees.ts';
import { call, createPackage, createReturn, expectError, packageBody } from '../api/support.ts';
import { returnLine } from '../support/manual-return.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * The hot set (docs/decisions/store-hot-set.md) on the real store and real HTTP: with a window of
 * zero a received package leaves memory at the next sweep, and every operation still works on it.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function open(
  dataDir: string,
  hot: { hotDays?: number; hotRecentLimit?: number } = { hotDays: 0 },
): Promise<{ station: Station; origin: string; token: string }> {
  const station = await openStation({ dataDir, rendererDir: join(dataDir, 'no-renderer'), logLevel: 'silent', sync: false, hotSweepMs: 0, ...hot });
  const origin = await station.listen('127.0.0.1', 0);
  const token = (await createToken(station.store, station.ctx.clock, { scope: 'account', accountId: 1, name: 'hot-set test' })).secret;
  return { station, origin, token };
}

/** Packages the engine itself holds (a count over the whole table never asks SQLite). */
const packagesInMemory = (station: Station): Promise<number> => insidesOf(station.store).db.return_packages.count();
/** Outbox slots (unsent changes) the engine itself holds (a filter walks the engine only; a whole-table read also merges the slots on disk). */
const slotsInMemory = async (station: Station): Promise<string[]> =>
  (
    await insidesOf(station.store)
      .db.outbox.filter(() => true)
      .toArray()
  )
    .map((slot) => slot.key)
    .sort();

describe('the hot set with a window of zero', () => {
  it('sheds a received package, then reads, lists, guards and edits it as if it were hot, across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hot-set-'));
    dirs.push(dataDir);
    let { station, origin, token } = await open(dataDir);
    const A = '/api/v1/accounts/1';

    // A return received in full: nothing of it is open any more.
    const done = await createReturn(origin, token, { return_line_items: [returnLine('HOT-SET-1', 1)] });
    const received = await createPackage(origin, token, 1, done.id);
    const lineId = done.return_line_items[0]?.id;
    const item = await call(origin, 'POST', `${A}/return_packages/${received.id}/line_items`, { token, body: { return_line_item_id: lineId, quantity: 1 } });
    expect(item.status, item.text).toBe(201);
    const itemId = (item.json as { id: number }).id;
    const receipt = await call(origin, 'PATCH', `${A}/return_packages/${received.id}`, { token, body: { status: 'received' } });
    expect(receipt.status, receipt.text).toBe(200);
    expect((await call(origin, 'GET', `${A}/returns/${done.id}`, { token })).json).toMatchObject({ status: 'received' });
    const open_ = await createReturn(origin, token);
    const inTransit = await createPackage(origin, token, 1, open_.id);

    expect(await station.store.shedCold()).toBeGreaterThanOrEqual(1);
    expect(await packagesInMemory(station)).toBe(1); // only the open one

    // Get-one from SQLite, with its line items.
    const got = await call(origin, 'GET', `${A}/return_packages/${received.id}`, { token });
    expect(got.status, got.text).toBe(200);
    expect(got.json).toMatchObject({ id: received.id, status: 'received', line_items: [{ id: itemId }] });
    // Lists and counts see it.
    const listed = await call(origin, 'GET', `${A}/return_packages?status=received`, { token });
    expect((listed.json as { data: Array<{ id: number }> }).data.map((p) => p.id)).toContain(received.id);
    // Its tracking number is still taken.
    expectError(
      await call(origin, 'POST', `${A}/return_packages`, { token, body: packageBody(done.id, { tracking_number: received.tracking_number }) }),
      'DUPLICATE_TRACKING_NUMBER',
    );
    // The refused write's fault-in went with its transaction; the package still reads.
    expect(await packagesInMemory(station)).toBe(1);
    expect((await call(origin, 'GET', `${A}/return_packages/${received.id}`, { token })).status).toBe(200);

    // Correct the receipt: the write brings it back and goes through.
    const corrected = await call(origin, 'PATCH', `${A}/return_packages/${received.id}/line_items/${itemId}`, {
      token,
      body: { condition: 'damaged', tags: ['corrected-by-ada'] },
    });
    expect(corrected.status, corrected.text).toBe(200);
    expect(await packagesInMemory(station)).toBe(2);
    expect(await station.store.shedCold()).toBe(1);
    const after = await call(origin, 'GET', `${A}/return_packages/${received.id}`, { token });
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
    expect(inTransit.id).toBeGreaterThan(0);

    await station.close();
    ({ station, origin, token } = await open(dataDir));
    try {
      expect(await packagesInMemory(station)).toBe(1);
      const again = await call(origin, 'GET', `${A}/return_packages/${received.id}`, { token });
      expect(again.json).toMatchObject({ id: received.id, line_items: [{ condition: 'damaged' }] });
      const notes = await call(origin, 'PATCH', `${A}/return_packages/${received.id}`, { token, body: { notes: 'checked again' } });
      expect(notes.status, notes.text).toBe(200);
      const ret = await call(origin, 'GET', `${A}/returns/${done.id}`, { token });
      expect(ret.status, ret.text).toBe(200);
    } finally {
      await station.close();
    }
  });

  it('without an upstream, the outbox slots of shed records leave memory; setting an upstream brings the backlog back, across a restart', async () => {
    // Without an upstream every local change leaves a slot for a later upstream: two per parcel,
    // a year of them held in memory was the growth the year bench found.
    const dataDir = mkdtempSync(join(tmpdir(), 'hot-set-outbox-'));
    dirs.push(dataDir);
    const first = await open(dataDir);
    let { station, origin } = first;
    const { token } = first;
    const A = '/api/v1/accounts/1';
    const done = await createReturn(origin, token, { return_line_items: [returnLine('SLOT-1', 1)] });
    const received = await createPackage(origin, token, 1, done.id);
    const item = await call(origin, 'POST', `${A}/return_packages/${received.id}/line_items`, {
      token,
      body: { return_line_item_id: done.return_line_items[0]?.id, quantity: 1 },
    });
    expect(item.status, item.text).toBe(201);
    expect((await call(origin, 'PATCH', `${A}/return_packages/${received.id}`, { token, body: { status: 'received' } })).status).toBe(200);
    const open_ = await createReturn(origin, token);
    const inTransit = await createPackage(origin, token, 1, open_.id);
    const backlog = [`return:${done.id}`, `return:${open_.id}`, `return_package:${inTransit.id}`, `return_package:${received.id}`].sort();
    expect(await slotsInMemory(station)).toEqual(backlog);
    const slotBefore = await insidesOf(station.store).db.outbox.get(`return_package:${received.id}`);

    const stationToken = (await createToken(station.store, station.ctx.clock, { scope: 'station', accountId: null, name: 'settings' })).secret;
    const waiting = async () => {
      const listed = await call(origin, 'GET', '/api/v1/station/sync/changes', { token: stationToken });
      expect(listed.status, listed.text).toBe(200);
      return (listed.json as { data: Array<{ kind: string; id: number }> }).data.map((change) => `${change.kind}:${change.id}`).sort();
    };
    expect(await waiting()).toEqual(backlog);
    expect(await station.store.shedCold()).toBe(1);
    expect(await slotsInMemory(station)).toEqual([`return:${open_.id}`, `return_package:${inTransit.id}`].sort());
    // The slot is still there for whoever asks (from disk), unchanged; the list of waiting changes is the same.
    expect(await insidesOf(station.store).db.outbox.get(`return_package:${received.id}`)).toEqual(slotBefore);
    expect(await waiting()).toEqual(backlog);
    // A new change to the shed package keeps its slot's history (when it was first queued).
    const later = new Date(Date.parse(slotBefore?.changed_at ?? '') + 1).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await call(origin, 'PATCH', `${A}/return_packages/${received.id}`, { token, body: { notes: 'checked again' } })).status).toBe(200);
    const slotAfter = await insidesOf(station.store).db.outbox.get(`return_package:${received.id}`);
    expect(slotAfter).toMatchObject({ queued_at: slotBefore?.queued_at });
    expect((slotAfter?.changed_at ?? '') >= later).toBe(true);
    expect(await station.store.shedCold()).toBe(1);
    expect(await slotsInMemory(station)).toHaveLength(2);

    await station.close();
    ({ station, origin } = await open(dataDir));
    try {
      expect(await slotsInMemory(station)).toEqual([`return:${open_.id}`, `return_package:${inTransit.id}`].sort());
      // An upstream set: the whole backlog is work at hand and in memory, as sync reads it.
      const set = await call(origin, 'POST', '/api/v1/station/upstream', {
        token: stationToken,
        body: { url: 'http://127.0.0.1:9', token: 'upstream-token', accounts: [1] },
      });
      expect(set.status, set.text).toBe(200);
      expect(await slotsInMemory(station)).toEqual(backlog);
      expect((await insidesOf(station.store).db.outbox.where('account_id').equals(1).toArray()).map((slot) => slot.key).sort()).toEqual(backlog);
      // Unsent changes stay in memory while the upstream is set.
      expect(await station.store.shedCold()).toBe(0);
      expect(await slotsInMemory(station)).toEqual(backlog);
    } finally {
      await station.close();
    }
    // And after a restart with the upstream set, the open loads them all.
    ({ station } = await open(dataDir));
    try {
      expect(await slotsInMemory(station)).toEqual(backlog);
    } finally {
      await station.close();
    }
  });

  it('the sweep leaves no dead copies of what it shed in memory, and the shed parcels still read and take writes, across a restart', async () => {
    // fake-indexeddb deletes by tombstone (the record stays in its tree until two thirds of the
    // nodes are dead): shedding a third of the hot set every day kept all of it in memory.
    const dataDir = mkdtempSync(join(tmpdir(), 'hot-set-tombstones-'));
    dirs.push(dataDir);
    let { station, origin, token } = await open(dataDir);
    const A = '/api/v1/accounts/1';
    const parcels: Array<{ id: number; received: boolean }> = [];
    for (let n = 0; n < 6; n++) {
      const ret = await createReturn(origin, token, { return_line_items: [returnLine(`TOMB-${n}`, 1)] });
      const pkg = await createPackage(origin, token, 1, ret.id);
      const received = n < 2;
      if (received) {
        const item = await call(origin, 'POST', `${A}/return_packages/${pkg.id}/line_items`, {
          token,
          body: { return_line_item_id: ret.return_line_items[0]?.id, quantity: 1 },
        });
        expect(item.status, item.text).toBe(201);
        expect((await call(origin, 'PATCH', `${A}/return_packages/${pkg.id}`, { token, body: { status: 'received' } })).status).toBe(200);
      }
      parcels.push({ id: pkg.id, received });
    }
    const tables = ['returns', 'return_packages', 'package_line_items', 'outbox'];
    const trees = () => {
      const found = searchTreesOf(insidesOf(station.store).db.backendDB(), tables);
      if ('mismatch' in found) throw new Error(found.mismatch);
      return found;
    };
    expect(await station.store.shedCold()).toBe(2);
    expect(trees().map((tree) => tree._numTombstones)).toEqual(trees().map(() => 0));
    expect(trees()[1]?._numNodes).toBe(4); // return_packages' own tree: the four open packages, nothing dead

    for (const parcel of parcels) {
      const got = await call(origin, 'GET', `${A}/return_packages/${parcel.id}`, { token });
      expect(got.json).toMatchObject({ id: parcel.id, status: parcel.received ? 'received' : 'in_transit' });
    }
    const shedId = parcels[0]?.id ?? 0;
    const patched = await call(origin, 'PATCH', `${A}/return_packages/${shedId}`, { token, body: { shipping_method: 'freight' } });
    expect(patched.status, patched.text).toBe(200);
    expect((await call(origin, 'GET', `${A}/return_packages/${shedId}`, { token })).json).toMatchObject({ shipping_method: 'freight', status: 'received' });
    expect(await packagesInMemory(station)).toBe(5);
    await station.close();
    ({ station, origin, token } = await open(dataDir));
    try {
      expect((await call(origin, 'GET', `${A}/return_packages/${shedId}`, { token })).json).toMatchObject({ shipping_method: 'freight', status: 'received' });
      expect(await packagesInMemory(station)).toBe(4);
    } finally {
      await station.close();
    }
  });

  it('a read or a write queued while a sweep sheds its record still finds it, with its line items', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hot-set-race-'));
    dirs.push(dataDir);
    const { station, origin, token } = await open(dataDir);
    const A = '/api/v1/accounts/1';
    const ret = await createReturn(origin, token, { return_line_items: [returnLine('RACE-1', 2)] });
    const pkg = await createPackage(origin, token, 1, ret.id);
    const lineId = ret.return_line_items[0]?.id;
    for (let i = 0; i < 2; i++) {
      const item = await call(origin, 'POST', `${A}/return_packages/${pkg.id}/line_items`, { token, body: { return_line_item_id: lineId, quantity: 1 } });
      expect(item.status, item.text).toBe(201);
    }
    expect((await call(origin, 'PATCH', `${A}/return_packages/${pkg.id}`, { token, body: { status: 'received' } })).status).toBe(200);
    const items = () => insidesOf(station.store).db.package_line_items.where('return_package_id').equals(pkg.id);

    // The sweep's transaction is queued first; the read's and the write's are queued behind it,
    // asked while the cluster is still in memory and answered once it is shed.
    const sweep = station.store.shedCold();
    const read = items().toArray();
    const count = items().count();
    const written = station.store.write(async () => (await items().toArray()).length);
    expect(await sweep).toBe(1);
    expect((await read).map((item) => item.quantity)).toEqual([1, 1]);
    expect(await count).toBe(2);
    expect(await written).toBe(2);
    await station.close();
  });

  it("a sweep queued behind a write not yet on disk sheds nothing: a write queued behind the sweep keeps the first one's change", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hot-set-behind-'));
    dirs.push(dataDir);
    const { station, origin, token } = await open(dataDir);
    const A = '/api/v1/accounts/1';
    // Received parcels: cold with a window of zero, once what made them so is on disk.
    const received: number[] = [];
    for (let n = 0; n < 3; n++) {
      const ret = await createReturn(origin, token, { return_line_items: [returnLine(`BEHIND-${n}`, 1)] });
      const pkg = await createPackage(origin, token, 1, ret.id);
      expect(
        (
          await call(origin, 'POST', `${A}/return_packages/${pkg.id}/line_items`, {
            token,
            body: { return_line_item_id: ret.return_line_items[0]?.id, quantity: 1 },
          })
        ).status,
      ).toBe(201);
      expect((await call(origin, 'PATCH', `${A}/return_packages/${pkg.id}`, { token, body: { status: 'received' } })).status).toBe(200);
      received.push(pkg.id);
    }
    expect(await station.store.shedCold()).toBe(3);
    // For each shed parcel: write A runs in the engine while a sweep queues behind it, and write B
    // queues behind the sweep. When A is done in the engine it may not be on disk yet: a sweep that
    // judged by the disk then would shed A's record, and B would bring back the older copy from
    // disk and write over A's change.
    for (const id of received) {
      let entered = false;
      let release = false;
      const a = station.store.write(async () => {
        const pkg = await insidesOf(station.store).db.table('return_packages').get(id);
        entered = true;
        while (!release) await insidesOf(station.store).db.table('station_meta').get('hot-set-test.none');
        await insidesOf(station.store)
          .db.table('return_packages')
          .put({ ...pkg, notes: 'A' });
      });
      while (!entered) await new Promise((resolve) => setTimeout(resolve, 1));
      const sweep = station.store.shedCold();
      await new Promise((resolve) => setTimeout(resolve, 20));
      release = true;
      const b = station.store.write(async () => {
        const pkg = await insidesOf(station.store).db.table('return_packages').get(id);
        await insidesOf(station.store)
          .db.table('return_packages')
          .put({ ...pkg, notes: `${String(pkg.notes)} then B` });
      });
      await Promise.all([a, sweep, b]);
      expect((await insidesOf(station.store).db.return_packages.get(id))?.notes).toBe('A then B');
    }
    // Once on disk they leave memory (a sweep waits for the disk first), and read the same from there.
    await station.store.shedCold();
    expect(await packagesInMemory(station)).toBe(0);
    for (const id of received) expect((await insidesOf(station.store).db.return_packages.get(id))?.notes).toBe('A then B');
    await station.close();
  });
});

describe('the hot set with a limit on the records kept for a recent change', () => {
  it('keeps the most recently changed received returns, sheds the least recently changed first, and a correction makes a shed one the newest, at a sweep and at a start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hot-set-recent-'));
    dirs.push(dataDir);
    const hot = { hotDays: 14, hotRecentLimit: 2 };
    const opened = await open(dataDir, hot);
    const { origin, token } = opened;
    let { station } = opened;
    const A = '/api/v1/accounts/1';
    const received: number[] = [];
    for (let n = 1; n <= 4; n++) {
      const ret = await createReturn(origin, token, { return_line_items: [returnLine(`RECENT-${n}`, 1)] });
      const pkg = await createPackage(origin, token, 1, ret.id);
      expect(
        (
          await call(origin, 'POST', `${A}/return_packages/${pkg.id}/line_items`, {
            token,
            body: { return_line_item_id: ret.return_line_items[0]?.id, quantity: 1 },
          })
        ).status,
      ).toBe(201);
      expect((await call(origin, 'PATCH', `${A}/return_packages/${pkg.id}`, { token, body: { status: 'received' } })).status).toBe(200);
      received.push(pkg.id);
      await new Promise((resolve) => setTimeout(resolve, 5)); // each received at its own instant
    }
    const open1 = await createPackage(origin, token, 1, (await createReturn(origin, token)).id);
    const inMemory = async () => (await insidesOf(station.store).db.return_packages.toCollection().primaryKeys()).sort((a, b) => a - b);
    const [first, second, third, fourth] = received;

    expect(await station.store.shedCold()).toBe(2);
    expect(await inMemory()).toEqual([third, fourth, open1.id]);
    // A correction of the oldest brings it back as the most recently changed: the next sweep sheds the third.
    const got = await call(origin, 'GET', `${A}/return_packages/${first}`, { token });
    expect((await call(origin, 'PATCH', `${A}/return_packages/${first}`, { token, body: { shipping_method: 'freight' } })).status).toBe(200);
    expect(got.status).toBe(200);
    expect(await station.store.shedCold()).toBe(1);
    expect(await inMemory()).toEqual([first, fourth, open1.id]);

    // The open selects the same: the two most recently changed, and the open one.
    await station.close();
    ({ station } = await open(dataDir, hot));
    try {
      expect(await inMemory()).toEqual([first, fourth, open1.id]);
      expect(await station.store.shedCold()).toBe(0);
      // Without the limit the window keeps them all.
      await station.close();
      ({ station } = await open(dataDir, { hotDays: 14 }));
      expect(await inMemory()).toEqual([first, second, third, fourth, open1.id]);
    } finally {
      await station.close();
    }
  });
});
