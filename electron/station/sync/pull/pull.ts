import type { RoundReport, SyncContext } from '../sync-context.ts';
import { probeChanges, readChanges } from '../lists/change-feed.ts';
import { PACKAGES, RETURNS } from '../lists/list-kinds.ts';
import { continuePass, type ListKind, readNewest, refreshPage, requestPass } from '../lists/list-scan.ts';
import { listState, updateListState } from '../lists/list-state.ts';
import { pullSiteReceipts, withReceiptsDue } from './site-receipts.ts';
import { usesSiteInterface } from '../upstream/hub-interface.ts';

/*
 * Pull: what the upstream holds, onto the station, within the request budget (docs/decisions/sync.md,
 * "Pull with page numbers"). Returns first (a package needs its return), then packages. Against an
 * upstream that honours only `page` and `per_page`: a full pass first, then each round the newest
 * end of each list (new records) and a page of the rolling refresh (edits; the pages holding open
 * packages at least once an hour). Where the upstream was seen to honour `updated_since`, its change
 * feed replaces both. A round spends at most a few requests a list; `sync --once` reads to the end.
 */

/** An idle round reads at most this many pages of a full pass, so pushes never wait long behind one. */
const PASS_PAGES_PER_ROUND = 20;
/** The pages that held open packages are all re-read at least this often (within the idle budget: see `refreshEvery`). */
const OPEN_REFRESH_MS = 60 * 60_000;
/** A shared budget never makes a list's refresh read more often than this (the fleet's idle cost: docs/decisions/sync.md). */
const REFRESH_FLOOR_MS = 12 * 60_000;
/** The longest a shared budget stretches the reads of new returns (a package's return is read when the package needs it). */
const IDLE_RETURNS_MAX_MS = 30 * 60_000;
/** Changes verified absent are asked about again after this long. */
const PROBE_AGAIN_MS = 60 * 60_000;
/** The idle cadence when none is set: docs/decisions/sync.md, "Idle cost". */
export const DEFAULT_IDLE_EVERY_MS = 180_000;

/**
 * How often each idle read is due, in idle rounds (`SyncContext.idleEveryMs`, stretched by the share
 * of a fleet): new packages every round, new returns every second; a refresh page of packages every
 * round, of returns every fourth. At 3 minutes: ≤ 20 + 10 + 20 + 5 = 55 requests an hour an account.
 */
const ROUNDS = { packages: { newest: 1, refresh: 1 }, returns: { newest: 2, refresh: 4 } } as const;

/**
 * `idle`: only the reads that are due; `complete`: every list to its end and every open page;
 * `prompt`: the upstream told of a change (its event stream: upstream-events.ts), so what changed is
 * read now — the change feed, else the newest end of each list — and the rest only when due.
 */
export type PullMode = 'idle' | 'complete' | 'prompt';

/** What a pull left for later (the budget ran out, or a pass is under way), per list, for a person. */
export interface PullResult {
  complete: boolean;
  left: string[];
}

/** The packages list of a site's station: each package whose receipt is older than its hub version is due too. */
const SITE_PACKAGES = withReceiptsDue(PACKAGES);

// -- one round ------------------------------------------------------------------------------------

const since = (at: string | null | undefined, now: string): number => (at ? Date.parse(now) - Date.parse(at) : Number.POSITIVE_INFINITY);

/**
 * An idle read's interval when `share` consumers share the upstream's rate budget (the budget's
 * estimate, ≥ 1): `baseMs` stretched by the share, never beyond `maxMs` (new records must still reach
 * every station soon), nor below `baseMs`.
 */
export function idleIntervalMs(baseMs: number, share: number, { maxMs }: { maxMs: number }): number {
  const factor = Number.isFinite(share) && share > 1 ? share : 1;
  return Math.max(baseMs, Math.min(maxMs, Math.round(baseMs * factor)));
}

/** The longest a shared budget stretches the reads of new packages: one reaches every station of a fleet within 10 minutes. */
export const IDLE_PULL_MAX_MS = 9 * 60_000;

/** The idle wait before a read that is due every `rounds` idle rounds, stretched by the fleet's share. */
function every(sc: SyncContext, rounds: number, maxMs = Number.POSITIVE_INFINITY): number {
  // A little under the cadence, so a round that comes a moment early still reads.
  return idleIntervalMs((sc.idleEveryMs ?? DEFAULT_IDLE_EVERY_MS) * rounds, sc.pace?.() ?? 1, { maxMs }) * 0.9;
}

/** The idle wait before a list's new records are read: new packages reach every station of a fleet within 10 minutes. */
function newestEvery(sc: SyncContext, kind: ListKind<{ id: number }>): number {
  const rounds = ROUNDS[kind.list].newest;
  return every(sc, rounds, kind.list === 'packages' ? IDLE_PULL_MAX_MS * rounds : IDLE_RETURNS_MAX_MS);
}

/**
 * The idle wait before a refresh page. A shared budget stretches it, but while pages hold open
 * packages no further than lets each of them (and one rolling page) be read within the hour, nor below
 * `REFRESH_FLOOR_MS`: the budget wins when there are more open pages than that allows.
 */
function refreshEvery(sc: SyncContext, kind: ListKind<{ id: number }>, openPages: number): number {
  const maxMs = openPages === 0 ? Number.POSITIVE_INFINITY : Math.max(REFRESH_FLOOR_MS, OPEN_REFRESH_MS / (openPages + 1));
  return every(sc, ROUNDS[kind.list].refresh, maxMs);
}

/** Pulls an account: returns, then packages. */
export async function pullAccount(sc: SyncContext, accountId: number, report: RoundReport, mode: PullMode): Promise<PullResult> {
  const left: string[] = [];
  // A site's station also reads the whole receipt of each package that changed at the hub (site-receipts.ts).
  const site = usesSiteInterface(sc);
  for (const kind of [RETURNS, site ? SITE_PACKAGES : PACKAGES] as const) {
    const outcome = await pullList(sc, kind as ListKind<{ id: number }>, accountId, report, mode);
    if (outcome !== null) left.push(outcome);
  }
  if (site && !(await pullSiteReceipts(sc, accountId, report))) left.push('packages: receipts left for the next round');
  return { complete: left.length === 0, left };
}

/** One list's share of a round; returns what it left for later, or null. */
async function pullList<T extends { id: number }>(
  sc: SyncContext,
  kind: ListKind<T>,
  accountId: number,
  report: RoundReport,
  mode: PullMode,
): Promise<string | null> {
  const complete = mode === 'complete';
  const now = complete || mode === 'prompt';
  let state = await listState(sc.store.tables, accountId, kind.list);
  if (state.changes === 'honoured' && state.pass === null && state.passed_at !== null) {
    if (!now && since(state.settled_at, sc.clock.now()) < newestEvery(sc, kind)) return null;
    const feed = await readChanges(sc, kind, accountId, report, 'pull');
    if (feed === 'budget') return `${kind.list}: changes left for the next round (rate budget)`;
    if (feed === 'done') return null;
    // Contradicted: the feed may have hidden records, so read the whole list once more.
    await requestPass(sc, accountId, kind.list, null);
  }
  state = await listState(sc.store.tables, accountId, kind.list);
  if (state.pass !== null || state.passed_at === null) return fullPass(sc, kind, accountId, report, complete);
  if (now || since(state.settled_at, sc.clock.now()) >= newestEvery(sc, kind)) {
    const newest = await readNewest(sc, kind, accountId, report, 'pull');
    if (newest === 'budget') return `${kind.list}: new records left for the next round (rate budget)`;
    if (newest === 'unknown-order') return fullPass(sc, kind, accountId, report, complete);
  }
  const refreshed = await refresh(sc, kind, accountId, report, complete);
  if (refreshed !== null) return refreshed;
  await probe(sc, kind, accountId, report);
  return null;
}

async function fullPass<T extends { id: number }>(
  sc: SyncContext,
  kind: ListKind<T>,
  accountId: number,
  report: RoundReport,
  complete: boolean,
): Promise<string | null> {
  const outcome = await continuePass(sc, kind, accountId, report, { maxPages: complete ? Number.POSITIVE_INFINITY : PASS_PAGES_PER_ROUND, priority: 'pull' });
  if (outcome === 'budget') {
    const pass = (await listState(sc.store.tables, accountId, kind.list)).pass;
    report.more = true;
    return `${kind.list}: full read at ${pass?.seen ?? 0} of ${pass?.total ?? '?'} records, the rest in the next rounds`;
  }
  await probe(sc, kind, accountId, report);
  return null;
}

/**
 * Edits: a cycle of the pages that held open packages, each read once, then one page of the rolling
 * refresh (the rest of the list), then the next cycle; a cycle begins at least once an hour. An idle
 * round reads one page when one is due; `sync --once` reads every open page.
 */
async function refresh<T extends { id: number }>(
  sc: SyncContext,
  kind: ListKind<T>,
  accountId: number,
  report: RoundReport,
  complete: boolean,
): Promise<string | null> {
  const state = await listState(sc.store.tables, accountId, kind.list);
  const now = sc.clock.now();
  if (!complete && since(state.refreshed_at, now) < refreshEvery(sc, kind as ListKind<{ id: number }>, state.open_pages.length)) return null;
  const cycleDone = (state.open_queue ?? []).length === 0 && (state.rolled_since_queue ?? true);
  if (complete || cycleDone || since(state.open_queued_at, now) >= OPEN_REFRESH_MS) {
    const queue = [...state.open_pages];
    await sc.store.write((t) => updateListState(t, accountId, kind.list, (s) => ({ ...s, open_queue: queue, open_queued_at: now, rolled_since_queue: false })));
  }
  for (;;) {
    const queue = (await listState(sc.store.tables, accountId, kind.list)).open_queue ?? [];
    const { outcome, page } = await refreshPage(sc, kind, accountId, report, 'pull', queue);
    if (outcome === 'budget') return `${kind.list}: refresh of open records left for the next round (rate budget)`;
    await sc.store.write((t) =>
      updateListState(t, accountId, kind.list, (s) => ({
        ...s,
        refreshed_at: sc.clock.now(),
        open_queue: (s.open_queue ?? []).filter((p) => p !== page),
      })),
    );
    if (!complete || queue.length <= 1) return null;
  }
}

/** Asks once (again after an hour when it could not tell) whether the upstream honours `updated_since`. */
async function probe<T extends { id: number }>(sc: SyncContext, kind: ListKind<T>, accountId: number, report: RoundReport): Promise<void> {
  const state = await listState(sc.store.tables, accountId, kind.list);
  if (state.changes !== 'unknown' || since(state.changes_checked_at, sc.clock.now()) < PROBE_AGAIN_MS) return;
  await probeChanges(sc, kind, accountId, report, 'pull');
}
