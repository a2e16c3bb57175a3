import { type BoundTables, type ListPass, type SyncIssue, type SyncKind, type UpstreamListState } from '../../store/index.ts';
import type { RoundReport, SyncContext } from '../sync-context.ts';
import { answerKind, pauseFrom, type UpstreamAnswer } from '../upstream/answers.ts';
import { accountState } from '../account-state.ts';
import { type ListName, listState, noteIssues, unstoredIds, updateListState } from './list-state.ts';
import { linkOfUpstream } from '../links/upstream-links.ts';
import type { RequestPriority } from '../upstream/rate-budget.ts';
import { UpstreamUnreachableError } from '../upstream/upstream-client.ts';
import { type PageMeta, type Read, readEach, readListAnswer, type UnreadableRecord } from '../upstream/upstream-records.ts';

/*
 * Reading an upstream list with page numbers alone (docs/decisions/sync.md, "Pull with page numbers"):
 * the only list parameters the spec shows are `page` and `per_page`, so nothing here needs a filter or
 * a sort. The page size is the one the upstream answered; the order (by id up or down) is what full
 * passes saw, and a page that contradicts it drops it. Three reads:
 *
 * - a full pass, page 1 to the last, resumable after a kill (each page and the pass's place commit in
 *   one store write): the first pull, and whenever the count says a record was missed;
 * - the newest end (the last pages when ids go up, the first when they go down), read until a page
 *   reaches records older than the newest the station had: new records arrive here, one request when
 *   nothing is new;
 * - a rolling refresh, a page at a time, the pages that held open packages first: edits.
 */

/** What the station asks for; the upstream may answer fewer (the page size is taken from the answer). */
export const PULL_PAGE_SIZE = 250;

export interface ListKind<T extends { id: number }> {
  list: ListName;
  syncKind: SyncKind;
  url(sc: SyncContext, accountId: number): string;
  read(raw: unknown): Read<T>;
  /** Runs before a page is stored, outside the write (a package's return is fetched first). */
  prepare?(sc: SyncContext, accountId: number, records: T[], report: RoundReport, priority: RequestPriority): Promise<void>;
  /** Stores one page's records inside the caller's write; returns what a person should see. */
  store(t: BoundTables, accountId: number, records: T[], now: string): Promise<Array<Omit<SyncIssue, 'at'>>>;
  /** Whether the record is still open work at the dock (a package not received or cancelled). */
  isOpen(record: T): boolean;
  updatedAt(record: T): string | null | undefined;
}

/** A pull that cannot go on: an answer of the wrong shape or an error status. */
export class PullError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PullError';
  }
}

export interface PageRead<T> {
  page: number;
  records: T[];
  unreadable: UnreadableRecord[];
  totalCount: number;
  totalPages: number;
  /** The page size the answer shows, or null when it cannot tell (a lone last page). */
  size: number | null;
}

/** The answer's body when it is a success; pauses on 401/403; null when the budget says not now. */
export function okBody(answer: UpstreamAnswer | null, what: string): unknown {
  if (!answer) return null;
  const kind = answerKind(answer.status);
  if (kind === 'auth') throw pauseFrom(answer);
  // A failing upstream ends the round (its gate holds every request: rate-budget.ts); anything else is this pull's failure.
  if (answer.status >= 500) throw new UpstreamUnreachableError(`The upstream answered ${answer.status} to ${what}.`);
  if (kind !== 'ok') throw new PullError(`The upstream answered ${answer.status} to ${what}.`);
  return answer.body;
}

/**
 * The page size an answer shows: the one that makes `total_pages = ceil(total_count / size)` hold,
 * of `meta.per_page` and the records on a page before the last; null when neither can be told.
 */
export function answeredSize(meta: PageMeta, items: number, page: number): number | null {
  const fits = (size: number | undefined): size is number =>
    size !== undefined && size > 0 && items <= size && Math.ceil(meta.total_count / size) === meta.total_pages;
  if (fits(meta.per_page)) return meta.per_page;
  if (page < meta.total_pages && fits(items)) return items;
  if (meta.total_pages <= 1 && meta.total_count === items && items > 0) return null;
  return meta.per_page !== undefined && items <= meta.per_page ? meta.per_page : null;
}

export async function readPage<T extends { id: number }>(
  sc: SyncContext,
  kind: ListKind<T>,
  accountId: number,
  page: number,
  priority: RequestPriority,
  query: Record<string, string> = {},
): Promise<PageRead<T> | null> {
  const answer = await sc.client.send({ method: 'GET', url: kind.url(sc, accountId), query: { ...query, page, per_page: PULL_PAGE_SIZE }, priority });
  const body = okBody(answer, `the ${kind.list} list`);
  if (body === null) return null;
  const list = readListAnswer(body);
  if (!list) throw new PullError(`The upstream answered the ${kind.list} list with a shape the station cannot read (neither {data, meta} nor an array).`);
  const { records, unreadable } = readEach(list.items, kind.read);
  // A bare array is the whole list at once, whatever page was asked.
  if (!list.meta) return { page: 1, records, unreadable, totalCount: list.items.length, totalPages: 1, size: null };
  return {
    page,
    records,
    unreadable,
    totalCount: list.meta.total_count,
    totalPages: Math.max(1, list.meta.total_pages),
    size: answeredSize(list.meta, list.items.length, page),
  };
}

/** The order one page's ids show: up, down, or neither (one record shows nothing). */
function orderOf(ids: number[]): ListPass['order'] {
  if (ids.length < 2) return null;
  let up = true;
  let down = true;
  for (let i = 1; i < ids.length; i += 1) {
    const a = ids[i - 1] ?? 0;
    const b = ids[i] ?? 0;
    if (b <= a) up = false;
    if (b >= a) down = false;
  }
  return up ? 'id_asc' : down ? 'id_desc' : 'unknown';
}

/** Two observations of the order, joined: agreeing ones stay, disagreeing ones make it unknown. */
function joinOrder(a: ListPass['order'], b: ListPass['order']): ListPass['order'] {
  if (a === null) return b;
  if (b === null) return a;
  return a === b ? a : 'unknown';
}

const maxOf = (values: number[], start: number | null): number | null => values.reduce<number | null>((m, v) => (m === null || v > m ? v : m), start);
const latest = (values: Array<string | null | undefined>, start: string | null): string | null =>
  values.reduce<string | null>((m, v) => (v && (m === null || v > m) ? v : m), start);

/**
 * Stores one page (and the list state the caller derives from it) in one store write; returns the
 * ids that were new to the station (neither linked nor listed as not stored).
 */
async function storePage<T extends { id: number }>(
  sc: SyncContext,
  kind: ListKind<T>,
  accountId: number,
  read: PageRead<T>,
  report: RoundReport,
  priority: RequestPriority,
  nextState: (state: UpstreamListState) => UpstreamListState,
): Promise<Set<number>> {
  if (kind.prepare) await kind.prepare(sc, accountId, read.records, report, priority);
  let fresh = new Set<number>();
  await sc.store.write(async (t) => {
    const now = sc.clock.now();
    const unstored = unstoredIds(await accountState(t, accountId), kind.syncKind);
    fresh = new Set<number>();
    for (const record of read.records) if (!unstored.has(record.id) && !(await linkOfUpstream(t, accountId, kind.syncKind, record.id))) fresh.add(record.id);
    const issues = await kind.store(t, accountId, read.records, now);
    issues.push(...read.unreadable.map((u) => ({ kind: kind.syncKind, upstream_id: u.upstream_id, stored: false, message: u.message })));
    await noteIssues(t, accountId, issues, now);
    await updateListState(t, accountId, kind.list, nextState);
  });
  report.pulled += read.records.length;
  return fresh;
}

/** Open pages after reading `page`: added when it holds open records, dropped when not. */
function openPagesAfter<T extends { id: number }>(kind: ListKind<T>, pages: number[], page: number, records: T[]): number[] {
  const others = pages.filter((p) => p !== page);
  return records.some((r) => kind.isOpen(r)) ? [...others, page].sort((a, b) => a - b) : others;
}

export type ScanOutcome = 'done' | 'budget';

/**
 * Continues (or starts) a full pass; stops after `maxPages` pages or when the budget says not now.
 * Ends with the order the pages showed, the count, and every record stored.
 */
export async function continuePass<T extends { id: number }>(
  sc: SyncContext,
  kind: ListKind<T>,
  accountId: number,
  report: RoundReport,
  options: { maxPages: number; priority: RequestPriority },
): Promise<ScanOutcome> {
  for (let pages = 0; pages < options.maxPages; pages += 1) {
    const state = await listState(sc.store.tables, accountId, kind.list);
    const pass: ListPass = state.pass ?? {
      next_page: 1,
      page_size: null,
      seen: 0,
      total: null,
      started_at: sc.clock.now(),
      order: null,
      last_id: null,
      open_pages: [],
      max_id: null,
      max_updated_at: null,
    };
    const read = await readPage(sc, kind, accountId, pass.next_page, options.priority);
    if (!read) return 'budget';
    const size = read.size ?? pass.page_size ?? state.page_size;
    if (pass.page_size !== null && size !== null && size !== pass.page_size) {
      // The upstream changed its page size mid-pass: pages no longer line up, begin again at the new one.
      await sc.store.write((t) => updateListState(t, accountId, kind.list, (s) => ({ ...s, page_size: size, pass: null })));
      continue;
    }
    const ids = read.records.map((r) => r.id);
    const order = joinOrder(joinOrder(pass.order, orderOf(ids)), pass.last_id !== null && ids.length > 0 ? orderOf([pass.last_id, ids[0] ?? 0]) : null);
    const last = read.page >= read.totalPages || read.records.length + read.unreadable.length === 0;
    const next: ListPass = {
      ...pass,
      next_page: read.page + 1,
      page_size: size,
      seen: pass.seen + read.records.length,
      total: read.totalCount,
      order,
      last_id: ids.at(-1) ?? pass.last_id,
      open_pages: read.records.some((r) => kind.isOpen(r)) ? [...pass.open_pages, read.page] : pass.open_pages,
      max_id: maxOf(ids, pass.max_id),
      max_updated_at: latest(read.records.map(kind.updatedAt), pass.max_updated_at),
    };
    await storePage(sc, kind, accountId, read, report, options.priority, (s) =>
      last
        ? {
            ...s,
            page_size: size,
            // A list too short to show an order keeps the one seen before, else none: it is read whole until it shows one.
            order: next.order ?? s.order,
            total: read.totalCount,
            max_id: maxOf(s.max_id === null ? [] : [s.max_id], next.max_id),
            pass: null,
            passed_at: sc.clock.now(),
            settled_at: pass.started_at,
            open_pages: next.open_pages,
            max_updated_at: latest([next.max_updated_at], s.max_updated_at ?? null),
          }
        : { ...s, page_size: size, pass: next },
    );
    if (last) return 'done';
  }
  return 'budget';
}

/** Starts a new full pass at the next chance (the count says a record was missed, or the order changed). */
export async function requestPass(sc: SyncContext, accountId: number, list: ListName, why: string | null): Promise<void> {
  await sc.store.write((t) => updateListState(t, accountId, list, (s) => (s.pass ? s : { ...s, passed_at: null, ...(why ? { contradiction: why } : {}) })));
}

/**
 * Reads the newest end of the list until a page reaches records no newer than the newest the station
 * had (`floorId`, default the list's `max_id`). 'done' means every record made upstream before the read
 * began is now on the station or listed as not stored; 'unknown-order' that this list cannot be read
 * that way (a full pass is needed).
 */
export async function readNewest<T extends { id: number }>(
  sc: SyncContext,
  kind: ListKind<T>,
  accountId: number,
  report: RoundReport,
  priority: RequestPriority,
): Promise<ScanOutcome | 'unknown-order'> {
  const startedAt = sc.clock.now();
  const state = await listState(sc.store.tables, accountId, kind.list);
  if (state.pass !== null || state.passed_at === null || state.order === null || state.order === 'unknown' || state.page_size === null) return 'unknown-order';
  const floor = state.max_id ?? 0;
  const up = state.order === 'id_asc';
  const newIds = new Set<number>();
  let page = up ? Math.max(1, Math.ceil((state.total ?? 0) / state.page_size)) : 1;
  let jumped = false;
  let totalCount = state.total ?? 0;
  const visited = new Set<number>();
  for (;;) {
    visited.add(page);
    const read = await readPage(sc, kind, accountId, page, priority);
    if (!read) return 'budget';
    totalCount = read.totalCount;
    const ids = read.records.map((r) => r.id);
    const pageOrder = orderOf(ids);
    if ((pageOrder !== null && pageOrder !== state.order) || (read.size !== null && read.size !== state.page_size)) {
      const why =
        pageOrder !== state.order
          ? `page ${page} of the ${kind.list} list is not in ${state.order === 'id_asc' ? 'ascending' : 'descending'} id order`
          : `the ${kind.list} list answered ${read.size} a page, not ${state.page_size}`;
      await storePage(sc, kind, accountId, read, report, priority, (s) => ({
        ...s,
        order: pageOrder === state.order ? s.order : null,
        page_size: read.size ?? s.page_size,
        passed_at: null,
        contradiction: why,
      }));
      return 'unknown-order';
    }
    for (const id of ids) if (id > floor) newIds.add(id);
    // A page read here counts as refreshed: it leaves the open pages' queue.
    await storePage(sc, kind, accountId, read, report, priority, (s) => ({
      ...s,
      open_pages: openPagesAfter(kind, s.open_pages, page, read.records),
      ...(s.open_queue ? { open_queue: s.open_queue.filter((p) => p !== page) } : {}),
    }));
    // The count grew past the page read first: the newest end is further on.
    if (up && !jumped && read.totalPages > page) {
      jumped = true;
      page = read.totalPages;
      continue;
    }
    const reachedOld = ids.length === 0 || Math.min(...ids) <= floor;
    const atEdge = up ? page <= 1 : page >= read.totalPages;
    // Walking back from the end after a jump stops at the page read first.
    if (reachedOld || atEdge || visited.has(page + (up ? -1 : 1))) break;
    page += up ? -1 : 1;
  }
  // Every new record has an id above the floor; more of them than the count grew by is fine (some
  // were deleted), fewer means a record came in elsewhere in the order: read everything again.
  const expected = (state.total ?? 0) + newIds.size;
  const missed = totalCount > expected;
  await sc.store.write((t) =>
    updateListState(t, accountId, kind.list, (s) => ({
      ...s,
      total: totalCount,
      max_id: maxOf([...newIds], s.max_id),
      settled_at: missed ? s.settled_at : startedAt,
      ...(missed
        ? {
            passed_at: null,
            contradiction: `the ${kind.list} count grew by ${totalCount - (state.total ?? 0)} but ${newIds.size} new records were at the newest end`,
          }
        : {}),
    })),
  );
  return missed ? 'unknown-order' : 'done';
}

/**
 * Re-reads one page for edits: the first of `openDue` (the open pages' queue), else the next page of
 * the rolling cycle.
 */
export async function refreshPage<T extends { id: number }>(
  sc: SyncContext,
  kind: ListKind<T>,
  accountId: number,
  report: RoundReport,
  priority: RequestPriority,
  openDue: number[],
): Promise<{ outcome: ScanOutcome; page: number | null }> {
  const state = await listState(sc.store.tables, accountId, kind.list);
  if (state.passed_at === null || state.page_size === null) return { outcome: 'done', page: null };
  const lastPage = Math.max(1, Math.ceil((state.total ?? 0) / state.page_size));
  const page = openDue[0] ?? (state.rolling_page > lastPage ? 1 : state.rolling_page);
  const read = await readPage(sc, kind, accountId, page, priority);
  if (!read) return { outcome: 'budget', page: null };
  const rolled = openDue.length === 0;
  const rolling = rolled ? (page >= read.totalPages ? 1 : page + 1) : state.rolling_page;
  await storePage(sc, kind, accountId, read, report, priority, (s) => ({
    ...s,
    rolling_page: rolling,
    open_pages: openPagesAfter(kind, s.open_pages, page, read.records),
    ...(rolled ? { rolled_since_queue: true } : {}),
  }));
  return { outcome: 'done', page };
}

/** Records the verdict on the `updated_since` extension. */
export async function setChanges(
  sc: SyncContext,
  accountId: number,
  list: ListName,
  changes: UpstreamListState['changes'],
  contradiction: string | null,
): Promise<void> {
  await sc.store.write((t) =>
    updateListState(t, accountId, list, (s) => ({
      ...s,
      changes,
      changes_checked_at: sc.clock.now(),
      ...(contradiction ? { contradiction } : {}),
    })),
  );
}
