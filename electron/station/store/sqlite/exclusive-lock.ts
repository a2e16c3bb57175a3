import { DatabaseSync } from 'node:sqlite';

/** A file held exclusively by this process until `release()`, or until the process ends. */
export interface ExclusiveLock {
  release(): void;
}

/**
 * Holds `file` exclusively (a SQLite database of its own, in an exclusive transaction kept open),
 * or answers null when another process holds it. The operating system drops the lock when the
 * process dies, even by SIGKILL, so a crash never leaves a stale lock behind
 * (docs/decisions/data-dir-lock.md).
 */
export function holdExclusively(file: string): ExclusiveLock | null {
  const lockDb = new DatabaseSync(file);
  try {
    lockDb.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;');
  } catch (error) {
    lockDb.close();
    if (isBusy(error)) return null;
    throw error;
  }
  return { release: () => lockDb.close() };
}

function isBusy(error: unknown): boolean {
  return error instanceof Error && /database is locked|SQLITE_BUSY/i.test(`${error.message} ${String((error as { code?: unknown }).code)}`);
}
