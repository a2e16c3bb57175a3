/**
 * Why the store refuses to open or to acknowledge a write. The CLI prints `message` and exits
 * non-zero; the API maps CommitFailedError / StoreClosedError to 503.
 */

export class StoreLockedError extends Error {
  constructor(file: string) {
    super(`The station database ${file} is in use by another process. Stop it first, or choose another --data-dir.`);
    this.name = 'StoreLockedError';
  }
}

export class StoreVersionTooNewError extends Error {
  readonly found: number;
  readonly known: number;
  constructor(file: string, found: number, known: number) {
    super(
      `The station database ${file} was written by a newer version of Returns Station (schema ${found}; this version knows up to ${known}). Update the app; the data was left untouched.`,
    );
    this.name = 'StoreVersionTooNewError';
    this.found = found;
    this.known = known;
  }
}

export class NotAStationDatabaseError extends Error {
  constructor(file: string, reason: string) {
    super(`${file} is not a Returns Station database (${reason}); it was left untouched. Choose another --data-dir.`);
    this.name = 'NotAStationDatabaseError';
  }
}

/** A write that could not be made durable; memory was brought back to what is on disk. */
export class CommitFailedError extends Error {
  constructor(cause: unknown) {
    super(`The change could not be saved to disk: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'CommitFailedError';
  }
}

/**
 * A write changed records, yet the durability layer holds no record of its transaction: it cannot
 * be waited for on disk, so it is refused rather than acknowledged (a bug, never a user's error:
 * the API answers 500). The recording middleware files each transaction's mutations under the
 * engine transaction in its DBCore requests, and `store.write` looks them up under Dexie's
 * `tx.idbtrans`; this says the two no longer meet (docs/decisions/store-fast-paths.md).
 */
export class UnrecordedWriteError extends Error {
  constructor() {
    super(
      'Store invariant broken: a write changed records but its transaction has no durability record, so it cannot be made durable before it is acknowledged (the recording middleware no longer files mutations under the transaction store.write looks up: tx.idbtrans). Nothing was acknowledged; the change may be in memory but not on disk.',
    );
    this.name = 'UnrecordedWriteError';
  }
}

/**
 * A write script broke the rule of docs/decisions/dexie-transactions.md: its transaction ended
 * while the script was still running. An `await` inside a write on anything that is not the store's
 * own promise (a timer, a file, `fetch`, another write) lets the engine commit the transaction at
 * that point; what the script did after it fails or leaves the transaction. Named so the bug shows
 * in tests instead of Dexie's PrematureCommitError or TransactionInactiveError (a bug: the API
 * answers 500). `committedChanges`: mutations the engine had already committed, which go to disk
 * like any write's although the write is refused.
 */
export class ForeignAwaitInWriteError extends Error {
  readonly committedChanges: number;
  constructor(cause: unknown, committedChanges: number) {
    super(
      `Write rule broken: the transaction ended while its script was still running. The script awaited something that is not the store's own (a timer, a file, fetch, another write), and the engine committed the transaction at that await, or it used the tables of a write that had ended. Wait for such things before or after store.write, never inside (docs/decisions/dexie-transactions.md). ${
        committedChanges > 0
          ? `The ${committedChanges} change(s) made before that await were committed and go to disk; the rest of the script's work was not done.`
          : 'Nothing of it was written.'
      }`,
      { cause },
    );
    this.name = 'ForeignAwaitInWriteError';
    this.committedChanges = committedChanges;
  }
}

export class StoreClosedError extends Error {
  constructor() {
    super('The station store is closed.');
    this.name = 'StoreClosedError';
  }
}

/** A stored row that is not a record (bad JSON): named so the damaged database can be reported with it. */
export class DamagedRowError extends Error {
  constructor(table: string, key: unknown) {
    super(`table ${table}, row with key ${JSON.stringify(key)} is not valid JSON`);
    this.name = 'DamagedRowError';
  }
}

/** The database file is damaged (a corrupt row, a truncated or malformed file). Nothing was written. */
export class DamagedDatabaseError extends Error {
  constructor(file: string, detail: string) {
    super(
      `The station database ${file} is damaged (${detail}); nothing was changed. Restore it from a backup (made with \`returns-station backup\`), or move it aside and start with --new-store to begin an empty station. \`returns-station check\` reports what is damaged.`,
    );
    this.name = 'DamagedDatabaseError';
  }
}

/** The database is missing or empty although the data directory shows a station has run in it. */
export class MissingDatabaseError extends Error {
  constructor(file: string, evidence: string) {
    super(
      `The station database ${file} is missing or empty, but ${evidence}. Starting would begin a new, empty station beside that data. Restore ${file} from a backup, or start with --new-store to begin anew on purpose.`,
    );
    this.name = 'MissingDatabaseError';
  }
}

/** SQLite's "the file is damaged" failures: SQLITE_CORRUPT (11) and friends. */
export function isCorruption(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { errcode?: unknown }).errcode;
  return code === 11 || /database disk image is malformed|SQLITE_CORRUPT|file is not a database/i.test(error.message);
}
