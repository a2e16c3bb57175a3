import { existsSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { NotAStationDatabaseError, StoreLockedError, StoreVersionTooNewError } from '../errors.ts';

/** `PRAGMA application_id` of a station database: "RSTN". */
export const STATION_APPLICATION_ID = 0x5253544e;

export interface OpenedDatabase {
  db: DatabaseSync;
  /** The schema version on disk (`PRAGMA user_version`); 0 for a new database. */
  version: number;
}

/**
 * Opens `file` for this process alone, or refuses: held by another process, written by a newer
 * app, or not a station database. Nothing is written to a file that is refused.
 *
 * Exclusive locking mode keeps the write lock from the first write until close, so a second
 * process (or a second store in this one) gets SQLITE_BUSY at once; in WAL mode it also keeps the
 * WAL index in heap memory (no -shm file). `synchronous=FULL` fsyncs the WAL on every commit while
 * the store opens; once open, the commit loop syncs the WAL itself, off the event loop
 * (docs/decisions/wal-sync-off-loop.md).
 */
export function openStationDatabase(file: string, knownVersion: number): OpenedDatabase {
  const isNew = !existsSync(file) || statSync(file).size === 0;
  const db = new DatabaseSync(file, { timeout: 0 });
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    // A write that fires triggers (the SKU index, the status counts) keeps a statement journal; in a
    // temporary file it cost ≈ 35–45 µs of CPU per write, in memory ≈ 0 (docs/decisions/lists-from-sqlite.md).
    // The other temporary data, the hot set's key tables at open, is small.
    db.exec('PRAGMA temp_store = MEMORY');
    const applicationId = pragmaNumber(db, file, 'application_id');
    const version = pragmaNumber(db, file, 'user_version');
    if (!isNew && applicationId !== STATION_APPLICATION_ID) {
      const tables = db.prepare(`SELECT count(*) AS n FROM sqlite_schema`).get() as { n: number };
      if (applicationId !== 0 || tables.n > 0) {
        throw new NotAStationDatabaseError(file, `SQLite application id ${applicationId}, expected ${STATION_APPLICATION_ID}`);
      }
    }
    if (version > knownVersion) throw new StoreVersionTooNewError(file, version, knownVersion);
    // Take the write lock now, so a second process is refused at open rather than at its first write.
    guarded(file, () => {
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('PRAGMA synchronous = FULL');
      db.exec('BEGIN EXCLUSIVE; COMMIT');
    });
    return { db, version: isNew ? 0 : version };
  } catch (error) {
    db.close();
    throw error;
  }
}

function pragmaNumber(db: DatabaseSync, file: string, name: string): number {
  return guarded(file, () => {
    const row = db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown> | undefined;
    return Number(row?.[name] ?? 0);
  });
}

/** Maps SQLite's "busy" and "not a database" failures to the store's refusals. */
function guarded<T>(file: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    const text = error instanceof Error ? `${error.message} ${String((error as { errcode?: unknown }).errcode)}` : String(error);
    if (/database is locked|SQLITE_BUSY|\b5\b$/.test(text)) throw new StoreLockedError(file);
    if (/file is not a database|SQLITE_NOTADB|\b26\b$/.test(text)) throw new NotAStationDatabaseError(file, 'not an SQLite database');
    throw error;
  }
}
