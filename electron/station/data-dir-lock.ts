import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDir, ensurePrivateFile } from './private-files.ts';
import { holdExclusively } from './store/index.ts';

/** Who holds a data directory, as written next to the lock for the message a second process prints. */
export interface LockHolder {
  pid: number;
  host: string;
  command: string;
  started_at: string;
}

export class DataDirLockedError extends Error {
  readonly holder: LockHolder | null;
  constructor(dataDir: string, holder: LockHolder | null) {
    const who = holder ? `process ${holder.pid} on ${holder.host} (${holder.command}, since ${holder.started_at})` : 'another process';
    super(`The data directory ${dataDir} is in use by ${who}. Stop it first, or choose another --data-dir.`);
    this.name = 'DataDirLockedError';
    this.holder = holder;
  }
}

export interface DataDirLock {
  /** Who held the directory last and did not release it (a crash or kill): its holder file was still there. */
  readonly previousHolder: LockHolder | null;
  release(): void;
}

const LOCK_FILE = 'station.lock';
const HOLDER_FILE = 'station.lock.holder.json';

/**
 * Takes the data directory for this process, or throws DataDirLockedError.
 *
 * The lock is the store's exclusive hold of the lock file (an exclusive SQLite transaction, held
 * open for the process's lifetime: store/sqlite/exclusive-lock.ts): the operating system drops it
 * when the process dies, even by SIGKILL, so a crash never leaves a stale lock behind and no PID
 * guessing is needed. The holder file only exists to name the holder in the refusal.
 */
export function lockDataDir(dataDir: string, command: string): DataDirLock {
  ensurePrivateDir(dataDir);
  ensurePrivateFile(join(dataDir, LOCK_FILE));
  const lock = holdExclusively(join(dataDir, LOCK_FILE));
  if (!lock) throw new DataDirLockedError(dataDir, readHolder(dataDir));
  const previousHolder = readHolder(dataDir);
  const holder: LockHolder = { pid: process.pid, host: hostname(), command, started_at: new Date().toISOString() };
  writeFileSync(join(dataDir, HOLDER_FILE), JSON.stringify(holder), { mode: 0o600 });
  let released = false;
  return {
    previousHolder,
    release() {
      if (released) return;
      released = true;
      rmSync(join(dataDir, HOLDER_FILE), { force: true });
      lock.release();
    },
  };
}

function readHolder(dataDir: string): LockHolder | null {
  try {
    return JSON.parse(readFileSync(join(dataDir, HOLDER_FILE), 'utf8')) as LockHolder;
  } catch {
    return null;
  }
}
