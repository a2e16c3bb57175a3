import { type StationStore } from '../store/index.ts';

/** An Idempotency-Key is remembered for 24 h (docs/api-decisions.md, "Idempotency"). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** How far back live-event clients can resume (`Last-Event-ID`): the change log is bounded. */
export const CHANGE_LOG_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export interface PruneReport {
  idempotencyKeys: number;
  changeLogEntries: number;
}

/**
 * Drops idempotency keys older than 24 h and change-log entries older than the retention.
 * Each is one delete by a key range, the store's (store/station-tables.ts).
 */
export async function pruneExpired(store: StationStore, now: string): Promise<PruneReport> {
  const at = Date.parse(now);
  const keyCutoff = new Date(at - IDEMPOTENCY_TTL_MS).toISOString();
  const logCutoff = new Date(at - CHANGE_LOG_RETENTION_MS).toISOString();
  return store.write(['idempotency_keys', 'change_log'], async (t) => {
    const idempotencyKeys = await t.idempotency_keys.deleteCreatedBefore(keyCutoff);
    // The log is appended in time order and read from SQLite (the engine sheds it): everything up to
    // the last entry made before the cutoff goes, as one key range written through to SQLite. An
    // entry of a write not yet committed is newer, so it is past the range and stays.
    const expired = store.changeLog.madeBefore(logCutoff);
    if (expired.count > 0) await t.change_log.deleteUpTo(expired.lastSeq);
    return { idempotencyKeys, changeLogEntries: expired.count };
  });
}
