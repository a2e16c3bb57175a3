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

export class StoreClosedError extends Error {
  constructor() {
    super('The station store is closed.');
    this.name = 'StoreClosedError';
  }
}
