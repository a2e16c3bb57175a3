import type { PackageStatus } from '#shared/package-status.ts';
import { outboxKey, type StationStore } from '../../store/index.ts';
import { accountState, updateAccountState } from '../account-state.ts';
import { applyUpstreamPackage, applyUpstreamReturn, MissingReturnError } from '../links/apply-upstream.ts';
import type { SyncContext } from '../sync-context.ts';
import { answerKind, type UpstreamAnswer } from '../upstream/answers.ts';
import { linkOf, putLink } from '../links/upstream-links.ts';
import type { RequestPriority } from '../upstream/rate-budget.ts';
import { type UpstreamRequest, UpstreamUnreachableError } from '../upstream/upstream-client.ts';
import { readUpstreamPackage, readUpstreamReturn, type UpstreamReturn } from '../upstream/upstream-records.ts';

/*
 * Fresh where it matters (docs/decisions/sync.md): the package the dock opens is read one by one
 * (get-one, G) so the worker sees the upstream's current values and the fields a list item (L) never
 * carries (shipping method, label cost, actual arrival, processed_at) are filled; the open packages
 * no one opened get the same read in the background, a few an hour. Nothing here is awaited by a
 * screen: the dock's read starts after the API answered, is capped at DOCK_READ_TIMEOUT_MS, and what
 * it applies reaches the open screen as a `package.updated` event like any other change.
 */

/** A dock read gives up after this long: a slow upstream never holds anything. */
export const DOCK_READ_TIMEOUT_MS = 3_000;
/** Opens of one package within this long send one read. */
export const COALESCE_MS = 5_000;
/** After a dock read found the upstream unreachable, dock reads wait this long before trying again. */
const UNREACHABLE_HOLD_MS = 15_000;
/**
 * The background fill spends at most this many requests an hour an account (and at most this many in
 * one round): with the idle pull's ≤ 55 (pull.ts) the idle total stays ≤ 60 an hour an account.
 */
export const FILL_PER_HOUR = 5;
const FILL_WINDOW_MS = 60 * 60_000;
/** A package read this long ago is read again by the fill (after every one never read). */
export const DETAIL_STALE_MS = 24 * 60 * 60_000;
/** The fill runs only while at least this share of the upstream's window is left (not while the budget paces). */
const FILL_COMFORT = 0.5;
/** After a scan found nothing to read, the next scan waits this long (new links come with pulls; opens are read anyway). */
const FILL_RESCAN_MS = 15 * 60_000;
const SCAN_PAGE = 500;
const OPEN: readonly PackageStatus[] = ['pending', 'in_transit', 'delivered', 'exception'];

export type FreshOutcome =
  /** Read and applied (the link's `detail_at` says when). */
  | 'read'
  /** Read less than COALESCE_MS ago: not read again. */
  | 'recent'
  | 'no-upstream'
  /** No upstream twin yet (its create has not gone up): nothing to read. */
  | 'not-linked'
  | 'paused'
  | 'unreachable'
  /** The rate budget said no (a dock read gives way after a second). */
  | 'budget'
  /** 401/403: the round pauses the account; a read does not. */
  | 'refused'
  /** 404 on it: left to the pull and to a person (`detail_at` set so the fill moves on). */
  | 'gone'
  /** A push or pull wrote the link while the answer was on its way: it may be older, so it is dropped. */
  | 'raced'
  | 'failed';

export interface FreshResult {
  outcome: FreshOutcome;
  /** Why, for the log, when it failed. */
  message?: string;
}

export interface FreshReads {
  /** Reads a package the dock opened (and its return, where the upstream answers that): never rejects. */
  refreshPackage(accountId: number, localId: number): Promise<FreshResult>;
}

export interface FreshReadsOptions {
  store: StationStore;
  /** The round's context for the current upstream settings; null when none is set. */
  context: () => Promise<SyncContext | null>;
  /** The last round found the upstream unreachable. */
  offline: () => boolean;
  nowMs?: () => number;
}

/** One per engine: coalesces dock reads per package and holds off while the upstream is unreachable. */
export function createFreshReads(options: FreshReadsOptions): FreshReads {
  const nowMs = options.nowMs ?? Date.now;
  const inFlight = new Map<string, Promise<FreshResult>>();
  /** When each package's last read ended (ms), kept for COALESCE_MS. */
  const recent = new Map<string, number>();
  let unreachableUntil = 0;

  async function read(accountId: number, localId: number): Promise<FreshResult> {
    try {
      const sc = await options.context();
      if (!sc || !sc.client.settings.accounts.includes(accountId)) return { outcome: 'no-upstream' };
      if ((await accountState(options.store.tables, accountId)).paused) return { outcome: 'paused' };
      return { outcome: await readDetail(sc, accountId, localId, { priority: 'dock', timeoutMs: DOCK_READ_TIMEOUT_MS, withReturn: true }) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!(error instanceof UpstreamUnreachableError)) return { outcome: 'failed', message };
      unreachableUntil = nowMs() + UNREACHABLE_HOLD_MS;
      return { outcome: 'unreachable', message };
    }
  }

  return {
    refreshPackage(accountId, localId) {
      const key = `${accountId}:${localId}`;
      const running = inFlight.get(key);
      if (running) return running;
      const at = nowMs();
      const last = recent.get(key);
      if (last !== undefined && at - last < COALESCE_MS) return Promise.resolve({ outcome: 'recent' });
      if (at < unreachableUntil || options.offline()) return Promise.resolve({ outcome: 'unreachable' });
      const run = read(accountId, localId).finally(() => {
        inFlight.delete(key);
        const ended = nowMs();
        for (const [other, when] of recent) if (ended - when >= COALESCE_MS) recent.delete(other);
        recent.set(key, ended);
      });
      inFlight.set(key, run);
      return run;
    },
  };
}

/**
 * Reads one linked package with get-one (and, with `withReturn`, its return where the upstream was
 * seen to answer that) and applies the answer in one store write: the sync rules merge the fields
 * and keep the dock's own (apply-upstream.ts). Throws UpstreamUnreachableError when the package's
 * read could not be made.
 */
export async function readDetail(
  sc: SyncContext,
  accountId: number,
  localId: number,
  options: { priority: RequestPriority; timeoutMs?: number; withReturn: boolean },
): Promise<FreshOutcome> {
  const link = await linkOf(sc.store.tables, 'return_package', localId);
  const pkg = link && link.account_id === accountId ? await sc.store.tables.return_packages.get(localId) : undefined;
  if (!link || !pkg) return 'not-linked';
  // What the link said before the answer: a push or pull that writes it meanwhile knows newer things.
  const before = JSON.stringify(link.synced);
  const returnLink = options.withReturn && (await askReturn(sc, accountId)) ? await linkOf(sc.store.tables, 'return', pkg.return_id) : undefined;
  const get = (url: string): UpstreamRequest => ({
    method: 'GET',
    url,
    priority: options.priority,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  const [pkgAnswer, retAnswer] = await Promise.allSettled([
    sc.client.send(get(sc.client.packagesUrl(accountId, link.upstream_id))),
    returnLink ? sc.client.send(get(sc.client.accountReturnsUrl(accountId, returnLink.upstream_id))) : Promise.resolve(null),
  ]);
  if (pkgAnswer.status === 'rejected') throw pkgAnswer.reason;
  const answer = pkgAnswer.value;
  const ret = returnLink && retAnswer.status === 'fulfilled' && retAnswer.value ? await returnOf(sc, accountId, returnLink.upstream_id, retAnswer.value) : null;
  if (!answer) return 'budget';
  const kind = answerKind(answer.status);
  if (kind === 'auth') return 'refused';
  if (kind !== 'ok' && kind !== 'gone') return 'failed';
  const parsed = kind === 'ok' ? readUpstreamPackage(answer.body) : null;
  const record = parsed?.ok && parsed.record.id === link.upstream_id ? parsed.record : null;
  const now = sc.clock.now();
  return sc.store.write(async (t) => {
    const current = await linkOf(t, 'return_package', localId);
    if (!current || current.upstream_id !== link.upstream_id) return 'not-linked';
    // Gone, or an answer the station cannot read: marked read, so the fill does not ask every round.
    if (!record) {
      await putLink(t, { ...current, detail_at: now }, now);
      return kind === 'gone' ? 'gone' : 'failed';
    }
    if (JSON.stringify(current.synced) !== before) return 'raced';
    if (ret) await applyUpstreamReturn(t, accountId, ret, now);
    try {
      await applyUpstreamPackage(t, accountId, record, now, { sameVersion: true });
    } catch (error) {
      // It moved to a return the station has not pulled yet: the pull brings both.
      if (error instanceof MissingReturnError) return 'raced';
      throw error;
    }
    const after = (await linkOf(t, 'return_package', localId)) ?? current;
    await putLink(t, { ...after, detail_at: now }, now);
    return 'read';
  });
}

/** Whether to ask the upstream for a return by id: not when it was seen not to answer that (not in the spec). */
async function askReturn(sc: SyncContext, accountId: number): Promise<boolean> {
  return (await accountState(sc.store.tables, accountId)).return_get_one?.answers !== false;
}

/**
 * The return a get-one answered, and the verdict on whether the upstream answers a return by id:
 * yes when it gave that return; no on 404/405/501 or an answer that is not that return (the spec
 * shows no such route); no verdict on anything else (5xx, 429, 401).
 */
async function returnOf(sc: SyncContext, accountId: number, upstreamId: number, answer: UpstreamAnswer): Promise<UpstreamReturn | null> {
  const parsed = answerKind(answer.status) === 'ok' ? readUpstreamReturn(answer.body) : null;
  const record = parsed?.ok && parsed.record.id === upstreamId ? parsed.record : null;
  const answers = record !== null ? true : parsed !== null || [404, 405, 501].includes(answer.status) ? false : null;
  if (answers === null) return null;
  const known = (await accountState(sc.store.tables, accountId)).return_get_one;
  if (known?.answers !== answers) await updateAccountState(sc.store, accountId, { return_get_one: { answers, status: answer.status, at: sc.clock.now() } });
  return record;
}

// -- the background fill --------------------------------------------------------------------------

/** Per store and account: no scan before this instant (ms), after one found nothing to read. */
const nothingDueUntil = new WeakMap<StationStore, Map<number, number>>();

/** Whether the upstream's budget is far from its end: the fill never makes the budget pace. */
function comfortable(sc: SyncContext): boolean {
  const { limit, remaining, resetAt, blockedUntil } = sc.client.budget.snapshot();
  const at = Date.now();
  if (blockedUntil > at) return false;
  if (limit === null || remaining === null || resetAt === null || resetAt <= at) return true;
  return remaining >= limit * FILL_COMFORT;
}

/**
 * An idle round's share: open, linked packages of the account whose get-only fields were never read
 * (then those read longest ago, past DETAIL_STALE_MS) get a get-one, within FILL_PER_HOUR requests an
 * hour — an hour times the share of a fleet (counted durably in the account's sync state) — and only
 * while the budget is comfortable.
 * Returns the requests it sent.
 */
export async function fillDetails(sc: SyncContext, accountId: number): Promise<number> {
  const state = await accountState(sc.store.tables, accountId);
  const now = sc.clock.now();
  const at = Date.parse(now);
  // Stations that share the upstream's budget share the fill too: each spends its FILL_PER_HOUR over
  // `share` hours, so a fleet spends about what one station does.
  const windowMs = FILL_WINDOW_MS * Math.max(1, sc.pace?.() ?? 1);
  const window =
    state.detail_fill && at - Date.parse(state.detail_fill.window_start) < windowMs && at >= Date.parse(state.detail_fill.window_start)
      ? state.detail_fill
      : { window_start: now, spent: 0 };
  const allowance = FILL_PER_HOUR - window.spent;
  const skips = nothingDueUntil.get(sc.store) ?? new Map<number, number>();
  nothingDueUntil.set(sc.store, skips);
  if (allowance <= 0 || !comfortable(sc) || at < (skips.get(accountId) ?? 0)) return 0;
  const due = await dueForDetail(sc, accountId, allowance, at);
  if (due.length === 0) {
    skips.set(accountId, at + FILL_RESCAN_MS);
    return 0;
  }
  const sentBefore = sc.client.requests;
  try {
    for (const localId of due) {
      const outcome = await readDetail(sc, accountId, localId, { priority: 'pull', withReturn: false });
      if (outcome === 'budget' || outcome === 'refused') break;
    }
  } finally {
    // Counted even when the upstream went away mid-way: a request whose answer was lost was spent.
    const spent = sc.client.requests - sentBefore;
    if (spent > 0) await updateAccountState(sc.store, accountId, { detail_fill: { window_start: window.window_start, spent: window.spent + spent } });
  }
  return sc.client.requests - sentBefore;
}

/** Up to `count` open, linked packages to read: never read first (by id), then the stalest. */
async function dueForDetail(sc: SyncContext, accountId: number, count: number, at: number): Promise<number[]> {
  const never: number[] = [];
  let stale: Array<{ id: number; readAt: number }> = [];
  for (let page = 1; ; page += 1) {
    const { ids, total } = sc.store.listIds('return_packages', { account_id: accountId, status: OPEN, sort: 'id', page, per_page: SCAN_PAGE });
    const links = await sc.store.tables.upstream_links.bulkGet(ids.map((id) => outboxKey('return_package', id)));
    for (const link of links) {
      if (!link) continue;
      if (link.detail_at === undefined) {
        never.push(link.local_id);
        if (never.length >= count) return never;
        continue;
      }
      const readAt = Date.parse(link.detail_at);
      if (at - readAt >= DETAIL_STALE_MS) stale.push({ id: link.local_id, readAt });
    }
    if (stale.length > count * 4) stale = stale.sort((a, b) => a.readAt - b.readAt).slice(0, count);
    if (ids.length === 0 || page * SCAN_PAGE >= total) break;
  }
  stale.sort((a, b) => a.readAt - b.readAt);
  return [...never, ...stale.slice(0, count - never.length).map((s) => s.id)];
}
