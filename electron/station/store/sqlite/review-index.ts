import type { DatabaseSync } from 'node:sqlite';

/*
 * Packages by their review's state (the supervisor's review list): an index on the packages' JSON,
 * like the disposition index (disposition-index.ts) — no column or trigger, filled at once on a
 * data directory of an earlier version, and only packages ever held have a state to index.
 */

const STATE = `json_extract(v, '$.review.state')`;
const HELD_AT = `json_extract(v, '$.review.held_at')`;
const DECIDED_AT = `json_extract(v, '$.review.decided_at')`;

export function ensureReviewIndex(sqlite: DatabaseSync): void {
  const has = sqlite.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'return_packages'`).get() !== undefined;
  if (has) sqlite.exec(`CREATE INDEX IF NOT EXISTS _rp_review ON return_packages (${STATE}, ${DECIDED_AT}, ${HELD_AT})`);
}

/**
 * The packages (ids) whose review is in `state`, at most `limit`: held ones oldest hold first (the
 * longest waiting at the top), decided ones the last decided first.
 */
export function packageIdsInReview(sqlite: DatabaseSync): (state: string, limit: number) => number[] {
  const held = sqlite.prepare(`SELECT k FROM return_packages WHERE ${STATE} = ? ORDER BY ${DECIDED_AT}, ${HELD_AT}, k LIMIT ?`);
  const decided = sqlite.prepare(`SELECT k FROM return_packages WHERE ${STATE} = ? ORDER BY ${DECIDED_AT} DESC, k DESC LIMIT ?`);
  return (state, limit) => ((state === 'held' ? held : decided).all(state, limit) as Array<{ k: number }>).map((row) => Number(row.k));
}
