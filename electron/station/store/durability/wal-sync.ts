import { closeSync, fdatasync, fsync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';

const fsyncAsync = promisify(fsync);
const fdatasyncAsync = promisify(fdatasync);

/**
 * Makes the commits written to SQLite's write-ahead log durable, off the event loop.
 *
 * The store's connection runs with `synchronous=NORMAL` once open: a COMMIT appends its frames to
 * `station.db-wal` without an fsync (SQLite still syncs around checkpoints, and NORMAL keeps a WAL
 * database consistent). `sync()` then fsyncs that file on a libuv thread, so the event loop keeps
 * running engine work while the disk flushes; everything committed before the call is durable when
 * it resolves (docs/decisions/wal-sync-off-loop.md).
 *
 * The WAL is opened at the first sync (SQLite creates it at its first commit) and stays the same
 * file while the connection is open: in exclusive locking mode SQLite resets it after a checkpoint
 * instead of deleting it, and deletes it only when the connection closes, after `close()` here.
 * The first sync also fsyncs the directory (POSIX), so a new WAL file's entry is durable too.
 * `fdatasync` suffices for the WAL: it flushes the data and the file's size, not its times.
 */
export interface WalSync {
  sync(): Promise<void>;
  /** Closes the WAL handle; call before the SQLite connection closes. */
  close(): void;
}

export function createWalSync(databaseFile: string): WalSync {
  let fd: number | undefined;
  let directorySynced = process.platform === 'win32'; // Windows cannot fsync a directory (NTFS journals entries).
  return {
    async sync() {
      fd ??= openWal(`${databaseFile}-wal`);
      if (fd === undefined) return; // no WAL yet: no commit wrote a frame, nothing to make durable
      await fdatasyncAsync(fd);
      if (!directorySynced) {
        const dir = openSync(dirname(databaseFile), 'r');
        try {
          await fsyncAsync(dir);
        } finally {
          closeSync(dir);
        }
        directorySynced = true;
      }
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

function openWal(file: string): number | undefined {
  try {
    return openSync(file, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
