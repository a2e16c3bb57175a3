import { type PullCursor } from '../../store/index.ts';
import type { RoundReport, SyncContext } from '../sync-context.ts';
import { accountState } from '../account-state.ts';
import { type ListKind, PullError, readPage, setChanges } from './list-scan.ts';
import { listsOf, noteIssues } from './list-state.ts';
import type { RequestPriority } from '../upstream/rate-budget.ts';

/*
 * The change feed: `updated_since` (and `sort=updated_at` for packages), used only once the upstream
 * was seen to honour it (pull.ts, probeChanges) and dropped at the first answer that contradicts it —
 * a record older than asked, or out of order. Pages follow `meta.total_pages` at the size answered.
 * The cursor is the upstream's own `updated_at` (never the station's clock), with an overlap window
 * re-read behind it until a round re-read it after it closed; each page and the cursor's move commit
 * in one store write, so a kill resumes where it stopped.
 */

/** Re-read this far behind the cursor: records committed upstream out of `updated_at` order. */
export const PULL_OVERLAP_MS = 2 * 60_000;
const EPOCH = '1970-01-01T00:00:00.000Z';

function behind(at: string | null, overlapMs: number): string {
  if (at === null) return EPOCH;
  return new Date(Math.max(0, Date.parse(at) - overlapMs)).toISOString();
}

/** Where a round starts: `overlap` behind the cursor until a round re-read that window after it closed, then the cursor itself. */
function roundStart(cursor: PullCursor, overlapMs: number): string {
  return cursor.settled && cursor.updated_at !== null ? cursor.updated_at : behind(cursor.updated_at, overlapMs);
}

/**
 * The cursor's overlap state once a round is done. A new `updated_at` opens a new window (timed from
 * now, when the station first saw it); a round that began `overlap` after that, read the whole window
 * and found nothing newer closes it. The station's clock times a duration here only.
 */
function overlapAfter(
  before: PullCursor,
  updatedAt: string | null,
  round: { startedAt: string; fromStart: boolean; now: string },
  overlapMs: number,
): Pick<PullCursor, 'advanced_at' | 'settled'> {
  if (updatedAt !== before.updated_at || !before.advanced_at) return { advanced_at: round.now, settled: false };
  const closed = round.fromStart && Date.parse(round.startedAt) >= Date.parse(before.advanced_at) + overlapMs;
  return { advanced_at: before.advanced_at, settled: (before.settled ?? false) || closed };
}

/** The cursor a verified feed starts from: the newest `updated_at` a full pass saw, its window open. */
export function feedCursorAt(updatedAt: string | null, now: string): PullCursor {
  return { updated_at: updatedAt, page: 1, round_since: null, round_max: null, seen: 0, total: null, advanced_at: now, settled: false };
}

export type FeedOutcome = 'done' | 'budget' | 'contradicted';

/** Why a page contradicts the feed (a record older than asked, or out of `updated_at` order), or null. */
function contradiction<T extends { id: number }>(kind: ListKind<T>, records: T[], since: string, sorted: boolean): string | null {
  let previous: string | null = null;
  for (const record of records) {
    const at = kind.updatedAt(record);
    if (!at) return `${kind.list} record ${record.id} has no updated_at`;
    if (at < since) return `${kind.list} record ${record.id} (updated ${at}) was listed for updated_since=${since}`;
    if (sorted && previous !== null && at < previous) return `the ${kind.list} list asked to sort by updated_at was out of order at record ${record.id}`;
    previous = at;
  }
  return null;
}

/**
 * Reads what changed since the cursor. Packages: keyset on `updated_at` (a page that is all one
 * `updated_at` moves to the next page instead). Returns (the station asks no sort of them): the
 * round's query paged through, its page saved per page.
 */
export async function readChanges<T extends { id: number }>(
  sc: SyncContext,
  kind: ListKind<T>,
  accountId: number,
  report: RoundReport,
  priority: RequestPriority,
): Promise<FeedOutcome> {
  const sorted = kind.list === 'packages';
  const overlapMs = sc.overlapMs ?? PULL_OVERLAP_MS;
  const startedAt = sc.clock.now();
  const before = (await accountState(sc.store.tables, accountId))[kind.list];
  // A round resumed after a kill (on a later page) does not close the window.
  const fromStart = before.page === 1 && before.round_since === null;
  let since: string = before.round_since ?? roundStart(before, overlapMs);
  for (;;) {
    const cursor = (await accountState(sc.store.tables, accountId))[kind.list];
    const page = cursor.page;
    const read = await readPage(sc, kind, accountId, page, priority, { updated_since: since, ...(sorted ? { sort: 'updated_at' } : {}) });
    if (!read) return 'budget';
    const wrong = contradiction(kind, read.records, since, sorted);
    const done = read.page >= read.totalPages || read.records.length + read.unreadable.length === 0;
    const last = read.records.map((r) => kind.updatedAt(r) ?? '').reduce<string | null>((m, v) => (v && (m === null || v > m) ? v : m), null);
    const samePage = sorted && !done && read.records.length > 0 && kind.updatedAt(read.records.at(-1) as T) === since;
    const max = last !== null && (cursor.round_max === null || last > cursor.round_max) ? last : cursor.round_max;
    const updatedAt = !wrong && max !== null && (cursor.updated_at === null || max > cursor.updated_at) ? max : cursor.updated_at;
    // A new package's return is read before the package is stored (as for any page: list-scan.ts).
    if (!wrong && kind.prepare) await kind.prepare(sc, accountId, read.records, report, priority);
    let next: PullCursor;
    if (wrong) next = { ...cursor, page: 1, round_since: null, round_max: null };
    else if (done)
      next = {
        updated_at: updatedAt,
        page: 1,
        round_since: null,
        round_max: null,
        seen: 0,
        total: null,
        ...overlapAfter(before, updatedAt, { startedAt, fromStart, now: sc.clock.now() }, overlapMs),
      };
    else if (sorted)
      next = {
        ...cursor,
        updated_at: updatedAt,
        page: samePage ? page + 1 : 1,
        round_since: null,
        round_max: null,
        seen: cursor.seen + read.records.length,
        total: cursor.total ?? read.totalCount,
      };
    else
      next = {
        ...cursor,
        round_since: since,
        page: page + 1,
        round_max: max,
        seen: (cursor.round_since === null ? 0 : cursor.seen) + read.records.length,
        total: read.totalCount,
      };
    await sc.store.write(async (t) => {
      const now = sc.clock.now();
      const issues = await kind.store(t, accountId, read.records, now);
      issues.push(...read.unreadable.map((u) => ({ kind: kind.syncKind, upstream_id: u.upstream_id, stored: false, message: u.message })));
      await noteIssues(t, accountId, issues, now);
      const state = await accountState(t, accountId);
      const lists = listsOf(state);
      const ids = read.records.map((r) => r.id);
      const list = { ...lists[kind.list], max_id: Math.max(lists[kind.list].max_id ?? 0, ...ids), ...(done && !wrong ? { settled_at: startedAt } : {}) };
      await t.sync_state.put({ ...state, [kind.list]: next, lists: { ...lists, [kind.list]: list } });
    });
    report.pulled += read.records.length;
    if (wrong) {
      await setChanges(sc, accountId, kind.list, 'ignored', wrong);
      return 'contradicted';
    }
    if (done) return 'done';
    if (sorted && !samePage && last !== null) since = last;
  }
}

/**
 * Asks the list for what changed since the newest `updated_at` a full pass saw, and judges the
 * answer: honoured when every record is as new as asked (in order, for packages) and the count is
 * smaller than the whole list's; ignored when a record contradicts it; unknown otherwise (asked
 * again in an hour). What the answer holds is stored like any page.
 */
export async function probeChanges<T extends { id: number }>(
  sc: SyncContext,
  kind: ListKind<T>,
  accountId: number,
  report: RoundReport,
  priority: RequestPriority,
): Promise<void> {
  const lists = listsOf(await accountState(sc.store.tables, accountId));
  const state = lists[kind.list];
  const since = state.max_updated_at ?? null;
  if (since === null || state.total === null) return;
  const sorted = kind.list === 'packages';
  const read = await readPage(sc, kind, accountId, 1, priority, { updated_since: since, ...(sorted ? { sort: 'updated_at' } : {}) }).catch((error: unknown) => {
    // A filter the upstream rejects (400/422) is simply not there.
    if (error instanceof PullError) return 'refused' as const;
    throw error;
  });
  if (read === null) return;
  if (read === 'refused') {
    await setChanges(sc, accountId, kind.list, 'ignored', `the ${kind.list} list refused updated_since`);
    return;
  }
  const wrong = contradiction(kind, read.records, since, sorted);
  const verdict = wrong ? 'ignored' : read.totalCount < state.total ? 'honoured' : 'unknown';
  if (kind.prepare) await kind.prepare(sc, accountId, read.records, report, priority);
  await sc.store.write(async (t) => {
    const now = sc.clock.now();
    await noteIssues(t, accountId, await kind.store(t, accountId, read.records, now), now);
    const fresh = await accountState(t, accountId);
    const freshLists = listsOf(fresh);
    const list = { ...freshLists[kind.list], changes: verdict, changes_checked_at: now, ...(wrong ? { contradiction: wrong } : {}) } as const;
    await t.sync_state.put({
      ...fresh,
      ...(verdict === 'honoured' ? { [kind.list]: feedCursorAt(since, now) } : {}),
      lists: { ...freshLists, [kind.list]: list },
    });
  });
  report.pulled += read.records.length;
}
