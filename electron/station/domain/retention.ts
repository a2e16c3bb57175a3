import { boundTables, type StationStore } from '../store/index.ts';

/** An Idempotency-Key is remembered for 24 h (contract section 4). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** How far back live-event clients can resume (`Last-Event-ID`): the change log is bounded. */
export const CHANGE_LOG_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** Drops idempotency keys older than 24 h and change-log entries older than the retention. */
export async function pruneExpired(store: StationStore, now: string): Promise<void> {
  const at = Date.parse(now);
  const keyCutoff = new Date(at - IDEMPOTENCY_TTL_MS).toISOString();
  const logCutoff = new Date(at - CHANGE_LOG_RETENTION_MS).toISOString();
  await store.write(async (tx) => {
    const t = boundTables(tx);
    await t.idempotency_keys.where('created_at').below(keyCutoff).delete();
    // The log is in time order by sequence: stop at the first entry young enough to keep.
    await t.change_log.orderBy('seq').until((entry) => entry.created_at >= logCutoff).delete();
  });
}
