import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHousekeeping } from '../../electron/station/housekeeping.ts';
import { CHANGE_LOG_RETENTION_MS, IDEMPOTENCY_TTL_MS, pruneExpired } from '../../electron/station/domain/retention.ts';
import { openStore, type StationStore } from '../../electron/station/store/index.ts';
import { openStation } from '../../electron/station/station.ts';
import { tempDataDir } from './fixtures.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/* Each retention rule on real rows on both sides of its cutoff, on the real store, and across a reopen. */

const NOW = Date.UTC(2026, 10, 20, 12);
const at = (msBeforeNow: number) => new Date(NOW - msBeforeNow).toISOString();

let dir: string;
let cleanup: () => Promise<void>;
let store: StationStore;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDataDir());
  store = await openStore({ dataDir: dir });
});
afterEach(async () => {
  await store.close().catch(() => undefined);
  await cleanup();
});

/** The change log as stored (it is read from SQLite: the engine sheds it). */
const logged = () => store.changeLog.after(0, 1_000_000);

async function seed(): Promise<void> {
  await store.write(async (t) => {
    for (const [key, age] of [
      ['old', IDEMPOTENCY_TTL_MS + 1],
      ['edge', IDEMPOTENCY_TTL_MS],
      ['young', IDEMPOTENCY_TTL_MS - 1],
      ['new', 0],
    ] as const) {
      await t.idempotency_keys.add({ key, request_hash: 'h', status: 201, response: '{}', created_at: at(age) });
    }
    // In time order, as the station appends them: three past the retention, one at it, two inside.
    for (const age of [CHANGE_LOG_RETENTION_MS + 3000, CHANGE_LOG_RETENTION_MS + 2000, CHANGE_LOG_RETENTION_MS + 1, CHANGE_LOG_RETENTION_MS, 1000, 0]) {
      await t.change_log.add({ account_id: 1, resource: 'return', resource_id: 1, action: 'updated', data: {}, created_at: at(age) });
    }
  });
}

describe('pruneExpired', () => {
  it('drops idempotency keys older than 24 h and change-log entries older than 7 days, keeping the rest', async () => {
    await seed();
    const report = await pruneExpired(store, new Date(NOW).toISOString());
    expect(report).toEqual({ idempotencyKeys: 1, changeLogEntries: 3 });
    expect((await insidesOf(store).db.idempotency_keys.toArray()).map((k) => k.key).sort()).toEqual(['edge', 'new', 'young']);
    expect(logged().map((e) => e.seq)).toEqual([4, 5, 6]);

    // What was pruned is gone from disk too, and what was kept is still there.
    await store.close();
    store = await openStore({ dataDir: dir });
    expect(await insidesOf(store).db.idempotency_keys.count()).toBe(3);
    expect(logged().map((e) => e.seq)).toEqual([4, 5, 6]);
  });

  it('empties a change log whose every entry is past the retention, and does nothing on empty tables', async () => {
    expect(await pruneExpired(store, new Date(NOW).toISOString())).toEqual({ idempotencyKeys: 0, changeLogEntries: 0 });
    await seed();
    expect(await pruneExpired(store, new Date(NOW + CHANGE_LOG_RETENTION_MS + 10_000).toISOString())).toEqual({ idempotencyKeys: 4, changeLogEntries: 6 });
    expect(logged()).toHaveLength(0);
  });
});

describe('housekeeping at start', () => {
  it('never stops the station from opening: a failing prune is logged once and the station serves', async () => {
    await seed();
    await store.close();
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    let station;
    try {
      // A clock that cannot be read as a time makes the prune throw (RangeError from toISOString).
      station = await openStation({ dataDir: dir, rendererDir: dir, logLevel: 'error', clock: { now: () => 'not a time' } });
    } finally {
      process.stderr.write = write;
    }
    try {
      const failures = lines.filter((line) => line.includes('housekeeping failed'));
      expect(failures).toHaveLength(1);
      expect(failures[0]).toContain('the station carries on serving');
      const response = await station.server.inject({ method: 'GET', url: '/healthz' });
      expect(response.statusCode).toBe(200);
    } finally {
      await station.close();
      store = await openStore({ dataDir: dir });
    }
    // Nothing was lost: the rows are all still there.
    expect(logged()).toHaveLength(6);
  });
});

describe('housekeeping rounds', () => {
  it('a round whose SQLite commit fails loses nothing, is logged once however often it repeats, and the next good round prunes', async () => {
    await seed();
    await store.close();
    let diskFails = true;
    store = await openStore({
      dataDir: dir,
      beforeCommit: () => {
        if (diskFails) throw new Error('SQLITE_FULL (injected)');
      },
    });
    const lines: Array<{ level: number; msg: string }> = [];
    const server = Fastify({
      logger: { level: 'debug', stream: { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) } },
    });
    const eightDaysLater = { now: () => new Date(NOW + 8 * 86_400_000).toISOString() };
    const housekeeping = startHousekeeping(store, eightDaysLater, server.log);
    try {
      expect(await housekeeping.runOnce()).toBe(false);
      expect(await housekeeping.runOnce()).toBe(false);
      expect(lines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([expect.stringContaining('housekeeping failed')]);
      // The failed prune took nothing away from the stored log (where it is read).
      expect(logged()).toHaveLength(6);
      expect(await insidesOf(store).db.idempotency_keys.count()).toBe(4);

      diskFails = false;
      expect(await housekeeping.runOnce()).toBe(true);
      expect(lines.some((line) => line.level === 30 && line.msg === 'housekeeping works again')).toBe(true);
      expect(logged()).toHaveLength(0);
      expect(await insidesOf(store).db.idempotency_keys.count()).toBe(0);
    } finally {
      housekeeping.stop();
      await server.close();
    }
    await store.close();
    store = await openStore({ dataDir: dir });
    expect(logged()).toHaveLength(0);
  });
});

describe('why lint bans until()', () => {
  it('Dexie hands until() no value on key-only walks (what stopped restarts), while filter() always gets the row', async () => {
    await seed();
    const seenByUntil: unknown[] = [];
    const seenByFilter: unknown[] = [];
    // eslint-disable-next-line no-restricted-properties -- showing the very pitfall the rule bans
    await insidesOf(store)
      .db.change_log.orderBy('seq')
      .until((entry) => (seenByUntil.push(entry), false))
      .primaryKeys();
    await insidesOf(store)
      .db.change_log.orderBy('seq')
      .filter((entry) => (seenByFilter.push(entry), true))
      .primaryKeys();
    expect(seenByUntil.length).toBeGreaterThan(0);
    expect(seenByUntil.every((entry) => entry === undefined)).toBe(true);
    expect(seenByFilter.map((entry) => (entry as { seq: number }).seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
