import type { DatabaseSync } from 'node:sqlite';
import type { ChangeLogEntry } from './records.ts';
import { statementCache } from './sqlite/statement-cache.ts';

/*
 * The change log is read from SQLite, not from the engine (docs/decisions/store-hot-set.md, "The
 * change log"). Nothing at the dock reads it: it is there for a live-event client that resumes
 * (`Last-Event-ID`) and for housekeeping, while listeners hear of each entry from its commit. It
 * held ≈ 60 % of what a parcel's work left in the engine (a week of full records at every change),
 * so the engine only appends to it — the entry gets its seq in the same transaction as the change —
 * and the hot-set sweep sheds what is durable; the load at open leaves it on disk.
 *
 * SQLite holds the committed entries; one of a write still only in memory is not there yet.
 */
export interface ChangeLogReads {
  /** Up to `limit` entries after `seq`, in seq order. */
  after(seq: number, limit: number): ChangeLogEntry[];
  /**
   * The entries made before `cutoff` (the log is appended in time order, so they come first until
   * the first one made at or after it): how many, and the seq of the last of them (0: none).
   */
  madeBefore(cutoff: string): { count: number; lastSeq: number };
}

export function createChangeLogReads(db: DatabaseSync): ChangeLogReads {
  // Prepared at first use: a store opened with a schema that has no change log never asks.
  const prepared = statementCache(db);
  return {
    after(seq, limit) {
      const rows = prepared('SELECT v FROM change_log WHERE k > ? ORDER BY k LIMIT ?').all(seq, limit) as Array<{ v: string }>;
      return rows.map((row) => JSON.parse(row.v) as ChangeLogEntry);
    },
    madeBefore(cutoff) {
      // Walks from the oldest entry to the first one young enough to keep: only what expired is read.
      const kept = prepared(`SELECT k FROM change_log WHERE json_extract(v, '$.created_at') >= ? ORDER BY k LIMIT 1`).get(cutoff) as { k: number } | undefined;
      const before = kept
        ? (prepared('SELECT count(*) AS n, coalesce(max(k), 0) AS last FROM change_log WHERE k < ?').get(kept.k) as { n: number; last: number })
        : (prepared('SELECT count(*) AS n, coalesce(max(k), 0) AS last FROM change_log').get() as { n: number; last: number });
      return { count: before.n, lastSeq: before.last };
    },
  };
}
