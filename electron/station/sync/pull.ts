import { boundTables, type BoundTables, type PullCursor } from '../store/index.ts';
import { applyUpstreamPackage, applyUpstreamReturn, MissingReturnError } from './apply-upstream.ts';
import type { RoundReport, SyncContext } from './context.ts';
import { answerKind, pauseFrom } from './errors.ts';
import { accountState } from './account-state.ts';
import type { UpstreamAnswer } from './upstream-client.ts';
import { UpstreamPackagePageSchema, UpstreamReturnPageSchema, UpstreamReturnSchema, type UpstreamPackage } from './upstream-records.ts';

/*
 * Pull: what the upstream changed since the cursor, on the upstream's own `updated_at` (never the
 * station clock), with an overlap window. Each page's upserts and the cursor move commit in one
 * store write, so a kill resumes at the page it stopped at.
 */

export const PULL_PAGE_SIZE = 250;
/** Re-read this far behind the cursor: records committed upstream out of `updated_at` order. */
export const PULL_OVERLAP_MS = 2 * 60_000;
export const SWEEP_EVERY_MS = 60 * 60_000;
const EPOCH = '1970-01-01T00:00:00.000Z';

function behind(at: string | null, overlapMs = PULL_OVERLAP_MS): string {
  if (at === null) return EPOCH;
  return new Date(Math.max(0, Date.parse(at) - overlapMs)).toISOString();
}

/**
 * Where a round starts: `overlap` behind the cursor, to catch records the upstream committed out of
 * `updated_at` order, until a round re-read that window after it closed; then the cursor itself, so
 * an idle round reads one short page rather than the last burst again and again.
 */
function roundStart(cursor: PullCursor, overlapMs: number): string {
  return cursor.settled && cursor.updated_at !== null ? cursor.updated_at : behind(cursor.updated_at, overlapMs);
}

/**
 * The cursor's overlap state once a round is done. A new `updated_at` opens a new window (timed from
 * now, when the station first saw it). A round that began `overlap` after that, read the whole
 * window and found nothing newer closes it: every record that could land in it late has landed.
 * The station's clock times a duration here; it is never compared with the upstream's timestamps.
 */
function overlapAfter(before: PullCursor, updatedAt: string | null, round: { startedAt: string; fromStart: boolean; now: string }, overlapMs: number): Pick<PullCursor, 'advanced_at' | 'settled'> {
  if (updatedAt !== before.updated_at || !before.advanced_at) return { advanced_at: round.now, settled: false };
  const closed = round.fromStart && Date.parse(round.startedAt) >= Date.parse(before.advanced_at) + overlapMs;
  return { advanced_at: before.advanced_at, settled: (before.settled ?? false) || closed };
}

/** The answer's body when it is a success; pauses on 401/403; null when the pull should stop for now. */
function okBody(answer: UpstreamAnswer | null): unknown {
  if (!answer) return null;
  const kind = answerKind(answer.status);
  if (kind === 'auth') throw pauseFrom(answer);
  if (kind !== 'ok') throw new Error(`The upstream answered ${answer.status} to a pull.`);
  return answer.body;
}

/** Pulls changed returns: `updated_since` and pages (the returns list has no sort); resumable by page. */
export async function pullReturns(sc: SyncContext, accountId: number, report: RoundReport): Promise<boolean> {
  const overlapMs = sc.overlapMs ?? PULL_OVERLAP_MS;
  const startedAt = sc.clock.now();
  // A round resumed after a kill began before this process: it does not close the window.
  const fromStart = (await accountState(sc.store.db, accountId)).returns.round_since === null;
  for (;;) {
    const state = await accountState(sc.store.db, accountId);
    const cursor = state.returns;
    const since = cursor.round_since ?? roundStart(cursor, overlapMs);
    const page = cursor.round_since === null ? 1 : cursor.page;
    const body = okBody(await sc.client.send({ method: 'GET', url: sc.client.accountReturnsUrl(accountId), query: { updated_since: since, page, per_page: PULL_PAGE_SIZE }, priority: 'pull' }));
    if (body === null) return false;
    const parsed = UpstreamReturnPageSchema.safeParse(body);
    if (!parsed.success) throw new Error('The upstream answered the returns list with an unexpected shape.');
    const { data, meta } = parsed.data;
    const done = page >= meta.total_pages || data.length === 0;
    await sc.store.write(async (tx) => {
      const t = boundTables(tx);
      const now = sc.clock.now();
      for (const u of data) await applyUpstreamReturn(t, accountId, u, now);
      const max = data.reduce<string | null>((m, u) => (m === null || u.updated_at > m ? u.updated_at : m), cursor.round_max);
      const updatedAt = max !== null && (cursor.updated_at === null || max > cursor.updated_at) ? max : cursor.updated_at;
      const next: PullCursor = done
        ? { updated_at: updatedAt, page: 1, round_since: null, round_max: null, seen: 0, total: null, ...overlapAfter(cursor, updatedAt, { startedAt, fromStart, now }, overlapMs) }
        : { ...cursor, round_since: since, page: page + 1, round_max: max, seen: (cursor.round_since === null ? 0 : cursor.seen) + data.length, total: meta.total_count };
      const fresh = await accountState(t, accountId);
      await t.sync_state.put({ ...fresh, returns: next });
    });
    report.pulled += data.length;
    if (done) return true;
  }
}

/** Applies a page of packages; a package whose return the station lacks brings that return first. */
async function applyPackages(sc: SyncContext, accountId: number, packages: UpstreamPackage[], after: (t: BoundTables) => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await sc.store.write(async (tx) => {
        const t = boundTables(tx);
        const now = sc.clock.now();
        for (const u of packages) await applyUpstreamPackage(t, accountId, u, now);
        await after(t);
      });
      return;
    } catch (error) {
      if (!(error instanceof MissingReturnError) || attempt > packages.length) throw error;
      const answer = await sc.client.send({ method: 'GET', url: sc.client.accountReturnsUrl(accountId, error.upstreamReturnId), priority: 'pull' });
      const body = okBody(answer);
      if (body === null) throw error;
      const parsed = UpstreamReturnSchema.safeParse(body);
      if (!parsed.success) throw new Error(`The upstream return ${error.upstreamReturnId} could not be read.`, { cause: error });
      await sc.store.write((tx) => applyUpstreamReturn(boundTables(tx), accountId, parsed.data, sc.clock.now()));
    }
  }
}

/**
 * Pulls changed packages: keyset on `updated_at` (`sort=updated_at`, `updated_since` = the last
 * stored `updated_at`); a page that is all one `updated_at` moves to the next page instead.
 */
export async function pullPackages(sc: SyncContext, accountId: number, report: RoundReport): Promise<boolean> {
  const overlapMs = sc.overlapMs ?? PULL_OVERLAP_MS;
  const startedAt = sc.clock.now();
  const before = (await accountState(sc.store.db, accountId)).packages;
  // A round resumed after a kill (on a later page of one `updated_at`) does not close the window.
  const fromStart = before.page === 1;
  let since: string | null = null;
  for (;;) {
    const state = await accountState(sc.store.db, accountId);
    const cursor = state.packages;
    since ??= roundStart(cursor, overlapMs);
    const page = cursor.page;
    const body = okBody(await sc.client.send({ method: 'GET', url: sc.client.packagesUrl(accountId), query: { updated_since: since, sort: 'updated_at', page, per_page: PULL_PAGE_SIZE }, priority: 'pull' }));
    if (body === null) return false;
    const parsed = UpstreamPackagePageSchema.safeParse(body);
    if (!parsed.success) throw new Error('The upstream answered the packages list with an unexpected shape.');
    const { data, meta } = parsed.data;
    const last = data.at(-1)?.updated_at ?? null;
    const done = data.length < PULL_PAGE_SIZE;
    const samePage = !done && last === since;
    const updatedAt = last !== null && (cursor.updated_at === null || last > cursor.updated_at) ? last : cursor.updated_at;
    const next: PullCursor = {
      updated_at: updatedAt,
      page: samePage ? page + 1 : 1,
      round_since: null,
      round_max: null,
      seen: cursor.seen + data.length,
      total: cursor.total ?? meta.total_count,
    };
    if (done) Object.assign(next, { seen: 0, total: null }, overlapAfter(before, updatedAt, { startedAt, fromStart, now: sc.clock.now() }, overlapMs));
    await applyPackages(sc, accountId, data, async (t) => {
      const fresh = await accountState(t, accountId);
      await t.sync_state.put({ ...fresh, packages: next });
    });
    report.pulled += data.length;
    if (done) return true;
    if (!samePage) since = last;
  }
}

/** Re-reads the account's open packages (a cursor can miss a record the upstream backdated). */
export async function sweepOpenPackages(sc: SyncContext, accountId: number, report: RoundReport): Promise<boolean> {
  for (let page = 1; ; page += 1) {
    const body = okBody(await sc.client.send({ method: 'GET', url: sc.client.packagesUrl(accountId), query: { status: 'pending,in_transit,delivered,exception', sort: 'id', page, per_page: PULL_PAGE_SIZE }, priority: 'pull' }));
    if (body === null) return false;
    const parsed = UpstreamPackagePageSchema.safeParse(body);
    if (!parsed.success) throw new Error('The upstream answered the packages list with an unexpected shape.');
    const last = page >= parsed.data.meta.total_pages || parsed.data.data.length === 0;
    await applyPackages(sc, accountId, parsed.data.data, async (t) => {
      if (!last) return;
      const fresh = await accountState(t, accountId);
      await t.sync_state.put({ ...fresh, last_sweep_at: sc.clock.now() });
    });
    report.pulled += parsed.data.data.length;
    if (last) return true;
  }
}
