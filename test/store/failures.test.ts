import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CommitFailedError,
  NotAStationDatabaseError,
  openStore,
  STORE_FILE,
  StoreClosedError,
  StoreLockedError,
  StoreVersionTooNewError,
} from '../../electron/station/store/index.ts';
import { dumpEngine, samplePackage, sampleReturn, tempDataDir } from './fixtures.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDataDir());
});
afterEach(() => cleanup());

describe('a write that cannot be made durable', () => {
  it('rejects its caller and brings memory back to what is on disk', async () => {
    let failNext = false;
    const store = await openStore({
      dataDir: dir,
      beforeCommit: () => {
        if (failNext) throw new Error('disk I/O error (injected)');
      },
    });
    try {
      const returnId = await store.write(() => insidesOf(store).db.returns.add(sampleReturn(1, 1)));
      await store.write(() => insidesOf(store).db.return_packages.bulkAdd([1, 2, 3].map((n) => samplePackage(1, returnId, n))));
      await store.write(() =>
        insidesOf(store).db.operators.bulkAdd([
          {
            uid: '00000000-0000-4000-8000-00000000000a',
            name: 'A',
            badge_code: 'A',
            active: true,
            created_at: '2026-11-21T08:00:00.000Z',
            updated_at: '2026-11-21T08:00:00.000Z',
          },
          {
            uid: '00000000-0000-4000-8000-00000000000b',
            name: 'B',
            badge_code: 'B',
            active: true,
            created_at: '2026-11-21T08:00:00.000Z',
            updated_at: '2026-11-21T08:00:00.000Z',
          },
        ]),
      );
      const onDisk = await dumpEngine(store);

      failNext = true;
      const failing = store.write(async () => {
        await insidesOf(store).db.return_packages.add(samplePackage(1, returnId, 4)); // new key
        await insidesOf(store).db.return_packages.update(1, { status: 'received', notes: 'lost' }); // changed key
        await insidesOf(store).db.return_packages.delete(2); // deleted key
        await insidesOf(store).db.operators.clear(); // deleted range
      });
      await expect(failing).rejects.toBeInstanceOf(CommitFailedError);
      failNext = false;

      // The next write runs on the disk state, and so does every read after the repair.
      await store.write(() => insidesOf(store).db.accounts.add({ name: 'next', created_at: 'x' }));
      const after = await dumpEngine(store);
      expect({ ...after, accounts: [] }).toEqual({ ...onDisk, accounts: [] });
      expect(store.count('return_packages', {})).toBe(3);
      await store.close();

      const reopened = await openStore({ dataDir: dir });
      expect(await dumpEngine(reopened)).toEqual(after);
      await reopened.close();
    } finally {
      await store.close();
    }
  });

  it('also rejects writes that completed on top of the failed state before the repair', async () => {
    let fail = true;
    const store = await openStore({
      dataDir: dir,
      beforeCommit: () => {
        if (fail) throw new Error('ENOSPC (injected)');
      },
    });
    const writes = Array.from({ length: 8 }, (_unused, n) => store.write(() => insidesOf(store).db.accounts.add({ name: `a${n}`, created_at: 'x' })));
    const results = await Promise.allSettled(writes);
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    fail = false;
    await store.write(() => insidesOf(store).db.accounts.add({ name: 'ok', created_at: 'x' }));
    expect((await insidesOf(store).db.accounts.toArray()).map((account) => account.name)).toEqual(['ok']);
    await store.close();
  });
});

describe('refusing to open', () => {
  it('refuses a database written by a newer app version, and leaves it untouched', async () => {
    const store = await openStore({ dataDir: dir });
    await store.write(() => insidesOf(store).db.accounts.add({ name: 'keep', created_at: 'x' }));
    await store.close();
    const raw = new DatabaseSync(join(dir, STORE_FILE));
    raw.exec('PRAGMA user_version = 99');
    raw.close();
    await expect(openStore({ dataDir: dir })).rejects.toBeInstanceOf(StoreVersionTooNewError);
    await expect(openStore({ dataDir: dir })).rejects.toThrow(/newer version.*schema 99/);
    const check = new DatabaseSync(join(dir, STORE_FILE));
    expect(check.prepare('SELECT count(*) AS n FROM accounts').get()).toEqual({ n: 1 });
    check.close();
  });

  it('refuses a file that is not a database at all', async () => {
    const junk = 'this is not a database, but somebody cares about it'.repeat(100);
    writeFileSync(join(dir, STORE_FILE), junk);
    await expect(openStore({ dataDir: dir })).rejects.toBeInstanceOf(NotAStationDatabaseError);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(dir, STORE_FILE), 'utf8')).toBe(junk);
  });

  it('refuses an SQLite database of another application', async () => {
    const other = new DatabaseSync(join(dir, STORE_FILE));
    other.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY); INSERT INTO invoices VALUES (1)');
    other.close();
    await expect(openStore({ dataDir: dir })).rejects.toThrow(/not a Returns Station database/);
  });

  it('refuses a database held by another process', async () => {
    const child: ChildProcess = spawn(process.execPath, [fileURLToPath(new URL('./child-hold-store.ts', import.meta.url)), dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
        child.on('exit', (code) => reject(new Error(`holder exited early (${code})`)));
      });
      await expect(openStore({ dataDir: dir })).rejects.toBeInstanceOf(StoreLockedError);
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    // Once the holder is gone, the store opens.
    const store = await openStore({ dataDir: dir });
    await store.close();
  });

  it('refuses a second store on the same directory in this process', async () => {
    const store = await openStore({ dataDir: dir });
    await expect(openStore({ dataDir: dir })).rejects.toBeInstanceOf(StoreLockedError);
    await store.close();
  });
});

describe('shutdown', () => {
  it('close waits for in-flight commits, then refuses writes', async () => {
    const store = await openStore({ dataDir: dir });
    const writes = Array.from({ length: 50 }, (_unused, n) => store.write(() => insidesOf(store).db.accounts.add({ name: `a${n}`, created_at: 'x' })));
    await store.close();
    const ids = await Promise.all(writes);
    expect(ids).toHaveLength(50);
    await expect(store.write(() => insidesOf(store).db.accounts.add({ name: 'late', created_at: 'x' }))).rejects.toBeInstanceOf(StoreClosedError);
    const reopened = await openStore({ dataDir: dir });
    expect(await insidesOf(reopened).db.accounts.count()).toBe(50);
    await reopened.close();
  });
});
