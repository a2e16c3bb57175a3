import { boundTables, type StationStore } from '../store/index.ts';

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
 *
 * Only index ranges and value-reading filters here. Dexie's `until()` must not be used before
 * `delete()`, `modify()`, `keys()` or `primaryKeys()`: those walk a key-only cursor (`until` does not
 * mark the collection as needing values, unlike `filter`), so the callback is handed `undefined`.
 * That is what stopped every restart of a station whose change log held anything; lint bans `until`.
 */
export async function pruneExpired(store: StationStore, now: string): Promise<PruneReport> {
  const at = Date.parse(now);
  const keyCutoff = new Date(at - IDEMPOTENCY_TTL_MS).toISOString();
  const logCutoff = new Date(at - CHANGE_LOG_RETENTION_MS).toISOString();
  return store.write(['idempotency_keys', 'change_log'], async (tx) => {
    const t = boundTables(tx);
    const idempotencyKeys = await t.idempotency_keys.where('created_at').below(keyCutoff).delete();
    // The log is appended in time order and read from SQLite (the engine sheds it): everything up to
    // the last entry made before the cutoff goes, as one key range written through to SQLite. An
    // entry of a write not yet committed is newer, so it is past the range and stays.
    const expired = store.changeLog.madeBefore(logCutoff);
    if (expired.count > 0) await t.change_log.where('seq').belowOrEqual(expired.lastSeq).delete();
    return { idempotencyKeys, changeLogEntries: expired.count };
  });
}
