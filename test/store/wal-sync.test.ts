import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CommitFailedError, openStore, STORE_FILE } from '../../electron/station/store/index.ts';
import { samplePackage, sampleReturn, tempDataDir } from './fixtures.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * The commit loop writes a batch to SQLite without an fsync and acknowledges it only after its own
 * fsync of the WAL (docs/decisions/wal-sync-off-loop.md). A kill cannot tell the difference (the
 * page cache survives a process); these tests hold and fail that fsync instead.
 */

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDataDir());
});
afterEach(() => cleanup());

/** A gate the test opens by hand: every sync waits on it while it is shut. */
function gate(): { wait: () => Promise<void>; shut: () => void; open: () => void; waiting: () => number } {
  let opened: Promise<void> = Promise.resolve();
  let release = (): void => {};
  let waiting = 0;
  return {
    wait: async () => {
      waiting += 1;
      await opened;
      waiting -= 1;
    },
    shut: () => {
      opened = new Promise((resolve) => (release = resolve));
    },
    open: () => release(),
    waiting: () => waiting,
  };
}

const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

it('acknowledges a write only after the WAL is synced, and keeps the engine running meanwhile', async () => {
  const sync = gate();
  const store = await openStore({ dataDir: dir, beforeSync: sync.wait });
  try {
    const returnId = await store.write(() => insidesOf(store).db.returns.add(sampleReturn(1, 1)));
    sync.shut();
    let acknowledged = false;
    const held = store.write(() => insidesOf(store).db.return_packages.add(samplePackage(1, returnId, 1))).then(() => (acknowledged = true));
    await turns(20);
    expect(sync.waiting()).toBe(1);
    expect(acknowledged).toBe(false);
    // While that sync is held, more writes run in the engine and queue for the next commit.
    const next = Array.from({ length: 5 }, (_unused, n) => store.write(() => insidesOf(store).db.return_packages.add(samplePackage(1, returnId, 10 + n))));
    await turns(20);
    expect(await insidesOf(store).db.return_packages.count()).toBe(6);
    expect(acknowledged).toBe(false);
    sync.open();
    await held;
    await Promise.all(next);
  } finally {
    sync.open();
    await store.close();
  }
  const reopened = await openStore({ dataDir: dir });
  expect(await insidesOf(reopened).db.return_packages.count()).toBe(6);
  await reopened.close();
});

it('fails the writers of a sync that failed, and goes on with the next', async () => {
  let fail = false;
  const store = await openStore({
    dataDir: dir,
    beforeSync: async () => {
      if (fail) throw new Error('EIO (injected)');
    },
  });
  try {
    fail = true;
    await expect(store.write(() => insidesOf(store).db.accounts.add({ name: 'unsure', created_at: 'x' }))).rejects.toBeInstanceOf(CommitFailedError);
    fail = false;
    await store.write(() => insidesOf(store).db.accounts.add({ name: 'sure', created_at: 'x' }));
    // Memory matches SQLite: the failed batch was written, only its fsync is in doubt.
    expect((await insidesOf(store).db.accounts.toArray()).map((a) => a.name)).toEqual(['unsure', 'sure']);
  } finally {
    await store.close();
  }
});

it('syncs the same WAL file across checkpoints (SQLite resets it rather than replacing it)', async () => {
  const store = await openStore({ dataDir: dir });
  const wal = join(dir, `${STORE_FILE}-wal`);
  try {
    const returnId = await store.write(() => insidesOf(store).db.returns.add(sampleReturn(1, 1)));
    const inode = statSync(wal).ino;
    // Well past the automatic checkpoint (1,000 pages of 4 KiB): the WAL is reset at least once.
    for (let batch = 0; batch < 12; batch++) {
      await store.write(() =>
        insidesOf(store).db.return_packages.bulkAdd(
          Array.from({ length: 500 }, (_unused, n) => ({ ...samplePackage(1, returnId, batch * 1000 + n), notes: 'x'.repeat(400) })),
        ),
      );
    }
    expect(statSync(wal).ino).toBe(inode);
    // It was reset: it holds far less than what was written, which the checkpoints moved into the
    // database file (the list indexes make that ≈ 10 MB; a WAL never reset would hold all of it).
    expect(statSync(wal).size).toBeLessThan(statSync(join(dir, STORE_FILE)).size * 0.75);
  } finally {
    await store.close();
  }
});

it('lets the next batch commit and sync while an fsync is slow, and answers batches in commit order', async () => {
  let calls = 0;
  let releaseFirst = (): void => {};
  const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
  let holdFirst = false;
  const store = await openStore({
    dataDir: dir,
    beforeSync: async () => {
      calls += 1;
      if (holdFirst && calls === 1) await firstHeld;
    },
  });
  try {
    const answered: string[] = [];
    const heard: string[] = [];
    store.subscribe((entries) => heard.push(...entries.map((entry) => String(entry.resource_id))));
    holdFirst = true;
    calls = 0;
    const first = store
      .write(() => insidesOf(store).db.change_log.add({ account_id: 1, resource: 'return', resource_id: 1, action: 'created', data: null, created_at: 'x' }))
      .then(() => answered.push('first'));
    await turns(20);
    expect(calls).toBe(1);
    const second = store
      .write(() => insidesOf(store).db.change_log.add({ account_id: 1, resource: 'return', resource_id: 2, action: 'created', data: null, created_at: 'x' }))
      .then(() => answered.push('second'));
    await turns(40);
    // The second batch was committed and its fsync started (and finished) while the first's is held …
    expect(calls).toBe(2);
    // … yet nobody hears of it before the first.
    expect(answered).toEqual([]);
    releaseFirst();
    await Promise.all([first, second]);
    expect(answered).toEqual(['first', 'second']);
    expect(heard).toEqual(['1', '2']);
  } finally {
    releaseFirst();
    await store.close();
  }
});
