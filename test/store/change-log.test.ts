import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANGE_LOG_RETENTION_MS, pruneExpired } from '../../electron/station/domain/retention.ts';
import { openStore, type StationStore } from '../../electron/station/store/index.ts';
import { tempDataDir } from './fixtures.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * The change log lives on disk (store/change-log-reads.ts): the engine appends to it, the sweep
 * sheds what is durable, the open does not load it. Every entry must still be read back in order,
 * no seq may be handed out twice (after a sweep, a restart, or from a database older than the
 * table of issued ids), and housekeeping must prune only what expired, whatever the engine holds.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function dataDir(): Promise<string> {
  const { dir, cleanup } = await tempDataDir();
  cleanups.push(cleanup);
  return dir;
}

async function open(dir: string): Promise<StationStore> {
  const store = await openStore({ dataDir: dir, hotSet: { sweepMs: 0 } });
  cleanups.unshift(() => store.close());
  return store;
}

const NOW = Date.UTC(2026, 10, 23, 12);
const at = (msBeforeNow: number) => new Date(NOW - msBeforeNow).toISOString();

/** Appends one entry per age, as the domain code does (the engine hands out the seq); returns their seqs. */
async function append(store: StationStore, ...ages: number[]): Promise<number[]> {
  return store.write(async (t) => {
    const seqs: number[] = [];
    for (const age of ages)
      seqs.push(
        await t.change_log.add({ account_id: 1, resource: 'return', resource_id: seqs.length + 1, action: 'updated', data: { age }, created_at: at(age) }),
      );
    return seqs;
  });
}

const stored = (store: StationStore) => store.changeLog.after(0, 1_000_000).map((entry) => entry.seq);

describe('the change log on disk', () => {
  it('is read back whole and in order after the sweep shed it from the engine, and new entries follow on', async () => {
    const store = await open(await dataDir());
    expect(await append(store, 3, 2, 1)).toEqual([1, 2, 3]);
    await store.shedCold();
    expect(await insidesOf(store).db.change_log.count()).toBe(0);
    expect(stored(store)).toEqual([1, 2, 3]);
    expect(store.changeLog.after(1, 1).map((entry) => [entry.seq, entry.data])).toEqual([[2, { age: 2 }]]);
    expect(await append(store, 0)).toEqual([4]);
    expect(stored(store)).toEqual([1, 2, 3, 4]);
  });

  it('is not loaded at a start, and its seqs carry on from the highest ever handed out', async () => {
    const dir = await dataDir();
    let store = await open(dir);
    await append(store, 5, 4, 3, 2);
    await store.write((t) => t.change_log.delete(4)); // the newest entry gone: its seq is still used
    await store.close();
    store = await open(dir);
    expect(await insidesOf(store).db.change_log.count()).toBe(0);
    expect(stored(store)).toEqual([1, 2, 3]);
    expect(await append(store, 1)).toEqual([5]);
    await store.close();

    // A database from before the station recorded issued ids: the highest stored seq is the floor.
    const sqlite = new DatabaseSync(join(dir, 'station.db'));
    sqlite.exec(`DELETE FROM _sequences WHERE name = 'change_log'`);
    sqlite.close();
    store = await open(dir);
    expect(await append(store, 0)).toEqual([6]);
    expect(stored(store)).toEqual([1, 2, 3, 5, 6]);
  });

  it('is pruned on disk by housekeeping when the engine holds none of it, keeping every entry inside the retention', async () => {
    const dir = await dataDir();
    let store = await open(dir);
    const week = CHANGE_LOG_RETENTION_MS;
    await append(store, week + 3000, week + 2000, week + 1, week, 1000);
    await store.shedCold();
    expect(await pruneExpired(store, new Date(NOW).toISOString())).toMatchObject({ changeLogEntries: 3 });
    expect(stored(store)).toEqual([4, 5]);
    await store.close();
    store = await open(dir);
    expect(stored(store)).toEqual([4, 5]);
    // Everything expired: the log empties, and the next entry still gets a new seq.
    expect(await pruneExpired(store, new Date(NOW + 2 * week).toISOString())).toMatchObject({ changeLogEntries: 2 });
    expect(stored(store)).toEqual([]);
    expect(await append(store, 0)).toEqual([6]);
  });

  it('keeps an entry whose write is still in memory when housekeeping prunes everything stored before it', async () => {
    const store = await open(await dataDir());
    const week = CHANGE_LOG_RETENTION_MS;
    await append(store, week + 2000, week + 1000);
    // One write: the new entry is added first (in memory only), then the prune runs in the same
    // queue of writes and finds only the two stored ones expired.
    const [added, pruned] = await Promise.all([append(store, 0), pruneExpired(store, new Date(NOW).toISOString())]);
    expect(added).toEqual([3]);
    expect(pruned.changeLogEntries).toBe(2);
    expect(stored(store)).toEqual([3]);
  });
});
