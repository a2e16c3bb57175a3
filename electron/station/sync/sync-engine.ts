import type { Readable } from 'node:stream';
import type { SyncStatus } from '#shared/api/station.ts';
import type { Clock } from '../domain/clock.ts';
import { type OutboxEntry, type StationStore } from '../store/index.ts';
import { emptyReport, type RoundReport, type SyncContext } from './sync-context.ts';
import { SyncPausedError } from './upstream/answers.ts';
import { createFreshReads, type FreshResult, fillDetails } from './pull/fresh-reads.ts';
import { accountState, updateAccountState } from './account-state.ts';
import { PullError } from './lists/list-scan.ts';
import { DEFAULT_IDLE_EVERY_MS, pullAccount, type PullMode } from './pull/pull.ts';
import { pushAccount } from './push/push.ts';
import { createRateBudget, type RateBudget, type RateBudgetOptions } from './upstream/rate-budget.ts';
import { readUpstreamSettings } from './settings.ts';
import { oneAtATime } from './one-at-a-time.ts';
import { createOutboxLedger, type OutboxLedger } from './outbox/outbox-ledger.ts';
import { SYNC_DISABLED } from '../domain/sync-port.ts';
import { INSTANCE_KEY, stationInstanceId } from '../domain/station-instance.ts';
import { syncStatusOf } from './status.ts';
import { type HubInterface, newHubInterface, specFallbackClient } from './upstream/hub-interface.ts';
import { createUpstreamClient, type FetchLike, type UpstreamSettings, UpstreamUnreachableError } from './upstream/upstream-client.ts';
import { upstreamFetch } from './upstream/upstream-fetch.ts';
import { hubMediaBytes } from './upstream/hub-media.ts';
import { UpstreamBackingOffError, upstreamFailing } from './upstream/upstream-gate.ts';
import type { UpstreamEventsState } from './upstream/upstream-events.ts';

export interface RoundOptions {
  /** Pull too (the scheduler pulls on its interval; a round after a local change only pushes). */
  pull: boolean;
  /** `complete` (`sync --once`): read each list to the end and every open page; `idle` (default): only what is due. */
  pullMode?: PullMode;
  /** Send backed-off changes now (`sync --once`). */
  ignoreBackoff?: boolean;
  /** Accounts whose upstream told of a change (its event stream): their changes are read now (`prompt`), the others' when due. */
  pullNow?: readonly number[];
}

/** One sync engine per open store: rounds run one at a time. */
export interface SyncEngine {
  runRound(options: RoundOptions): Promise<RoundReport>;
  /** Runs `task` between rounds: none is under way while it runs (a change of upstream that must not race one). */
  between<T>(task: () => Promise<T>): Promise<T>;
  status(): SyncStatus;
  /** Called with the new status whenever it changes. */
  onStatus(listener: (status: SyncStatus) => void): () => void;
  /** Fresh status from the store (after settings or outbox changes). */
  refreshStatus(): Promise<SyncStatus>;
  /** The earliest instant (ms) a backed-off change that is not held is due; undefined: none is (or no upstream is set). */
  nextRetryAt(): Promise<number | undefined>;
  /** Outbox slots the engine keeps count of in memory: none while no upstream is set (for the bench and the tests). */
  outboxSlotsInMemory(): number;
  /** Reads a package the dock opened from the upstream (get-one), within the budget, capped in time (fresh-reads.ts); never rejects. */
  refreshPackage(accountId: number, localId: number): Promise<FreshResult>;
  /**
   * The upstream as its rate budget sees it (the budget of the upstream the last round used): until
   * when (ms) every request waits after a 5xx or a lost answer (null: open), and how many consumers
   * share its rate budget (≥ 1; for stretching the idle pull: scheduler.ts idleIntervalMs).
   */
  upstreamHealth(): UpstreamHealth;
  /** Asks the scheduler for a round now (settings changed, a person asked to retry). */
  nudge(): void;
  /** The bytes of a photo kept at the site's hub, read as it is shown (hub-media.ts). */
  hubMediaBytes(url: string): Promise<Readable | null>;
  /** How sync learns of the upstream's changes (upstream-events.ts), for the status; null: no upstream. */
  setUpstreamEvents(state: UpstreamEventsState | null): void;
  /** The request budget (and gate) of this upstream, shared with the rounds: the event streams' openings go through it too. */
  upstreamBudget(settings: UpstreamSettings): RateBudget;
  onNudge(listener: () => void): () => void;
}

export interface UpstreamHealth {
  backoffUntil: number | null;
  share: number;
}

export interface SyncEngineOptions {
  store: StationStore;
  clock: Clock;
  fetch?: FetchLike;
  random?: () => number;
  overlapMs?: number;
  /** The idle cadence of the scheduler's pull rounds: the pull times its reads by it. */
  idleEveryMs?: number;
  /** Passed to every rate budget the engine makes (the bench runs them on simulated time). */
  budget?: RateBudgetOptions;
  /** Where the engine says what a person running the station should know (a hub of an older version). */
  log?: (message: string) => void;
}

/** The station's instance id (domain/station-instance.ts), made in a write when the station has none: unit ids use it too. */
async function instanceIdOf(store: StationStore): Promise<string> {
  const row = await store.tables.station_meta.get(INSTANCE_KEY);
  if (typeof row?.value === 'string') return row.value;
  return store.write(async (t) => stationInstanceId(t));
}

/**
 * Keeps the last status and tells listeners when a fresh one differs. At most one refresh reads the
 * store at a time (oneAtATime): the scheduler asks for one after commits that change a return or a
 * package, and under a stream of creates those reads had piled up, one per commit; the waiting
 * changes are counted by the outbox's ledger (outbox-ledger.ts, docs/decisions/create-path.md).
 */
function createStatusFeed(store: StationStore, outbox: OutboxLedger, pullIntervalMs: number) {
  const listeners = new Set<(status: SyncStatus) => void>();
  let current: SyncStatus = SYNC_DISABLED;
  let latestRound: LastRound = { offline: false, error: null, backoffUntil: null };
  let events: UpstreamEventsState | null = null;
  const read = oneAtATime(async (): Promise<SyncStatus> => {
    const fresh = await syncStatusOf(store, outbox, await readUpstreamSettings(store), latestRound, events, pullIntervalMs);
    if (JSON.stringify(fresh) !== JSON.stringify(current)) {
      current = fresh;
      for (const listener of listeners) listener(fresh);
    }
    return current;
  });
  return {
    current: () => current,
    listen(listener: (status: SyncStatus) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh(lastRound: LastRound): Promise<SyncStatus> {
      latestRound = lastRound;
      return read();
    },
    setEvents(state: UpstreamEventsState | null) {
      events = state;
    },
  };
}

type LastRound = { offline: boolean; error: string | null; backoffUntil: number | null };

/** Until when the budget's gate holds every request; null when a request may go now (open, or the probe's turn). */
function closedUntil(budget: RateBudget): number | null {
  const { opensAt } = budget.gate();
  return opensAt !== null && opensAt > Date.now() ? opensAt : null;
}

/** Backed-off changes (all of them, or those `which` picks) are due now: `sync --once`, the end of an outage. */
async function clearBackoff(store: StationStore, which: (entry: OutboxEntry) => boolean = () => true): Promise<void> {
  await store.write(async (t) => {
    for (const entry of await t.outbox.all()) if (entry.next_attempt_at !== null && which(entry)) await t.outbox.put({ ...entry, next_attempt_at: null });
  });
}

/** A change that backed off only because the upstream failed (a 5xx or no answer), not refused for itself. */
const waitedForUpstream = (entry: OutboxEntry): boolean =>
  entry.hold === null && entry.error !== null && (entry.error.status === null || upstreamFailing(entry.error.status));

/** After an outage the idle reads go at one station's pace for this long: what the others pushed on recovery reaches this one soon. */
export const AFTER_OUTAGE_MS = 10 * 60_000;

/** One account's turn in a round: push, then (on the scheduler's rounds) pull. */
async function syncAccount(sc: SyncContext, accountId: number, options: RoundOptions, report: RoundReport): Promise<void> {
  await pushAccount(sc, accountId, report);
  const mode = options.pullMode ?? (options.pullNow?.includes(accountId) ? 'prompt' : 'idle');
  if (options.pull) {
    try {
      const pulled = await pullAccount(sc, accountId, report, mode);
      report.pull_left.push(...pulled.left.map((left) => `account ${accountId}: ${left}`));
    } catch (error) {
      // An answer the station cannot read stops this account's pull, not the round.
      if (!(error instanceof PullError)) throw error;
      report.pull_failed.push(`account ${accountId}: ${error.message}`);
    }
  }
  // Idle rounds fill the get-only fields of open packages, a few an hour (fresh-reads.ts).
  if (options.pull && mode !== 'complete') await fillDetails(sc, accountId);
  await updateAccountState(sc.store, accountId, { last_success_at: sc.clock.now() });
}

/**
 * Runs each account in turn. An unreachable or failing upstream ends the round (offline; the rate
 * budget's gate then holds every request until its backoff is over); a refusal that pauses sync
 * pauses that account only; any other error is the round's error and the next account runs.
 */
async function syncAccounts(sc: SyncContext, budget: RateBudget, accounts: number[], options: RoundOptions, report: RoundReport): Promise<LastRound> {
  let error: string | null = null;
  const backingOff = (message: string): LastRound => {
    report.offline = true;
    return { offline: true, error: message, backoffUntil: budget.gate().opensAt };
  };
  for (const accountId of accounts) {
    const state = await accountState(sc.store.tables, accountId);
    if (state.paused) {
      report.paused.push(`${accountId}: ${state.paused.message}`);
      continue;
    }
    try {
      await syncAccount(sc, accountId, options, report);
    } catch (caught) {
      if (caught instanceof UpstreamUnreachableError || caught instanceof UpstreamBackingOffError) return backingOff(caught.message);
      if (caught instanceof SyncPausedError) {
        await updateAccountState(sc.store, accountId, { paused: { status: caught.status, message: caught.message, at: sc.clock.now() } });
        report.paused.push(`${accountId}: ${caught.message}`);
        continue;
      }
      error = caught instanceof Error ? caught.message : String(caught);
      // A pull that got a 5xx: the gate is closed, the round stops (pulls too, for every account).
      if (closedUntil(budget) !== null) return backingOff(error);
    }
  }
  return { offline: false, error, backoffUntil: null };
}

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const { store, clock } = options;
  const log = options.log ?? (() => undefined);
  // One request budget per upstream, kept across rounds: keyed by its base_url (where nearly all its requests go).
  const budgets = new Map<string, RateBudget>();
  const outbox = createOutboxLedger(store);
  const feed = createStatusFeed(store, outbox, options.idleEveryMs ?? DEFAULT_IDLE_EVERY_MS);
  const nudgeListeners = new Set<() => void>();
  let lastRound: LastRound = { offline: false, error: null, backoffUntil: null };
  /** The budget of the upstream the last round used. */
  let lastBudget: RateBudget | undefined;
  /** Per budget, the outages whose end this engine acted on (their waits released). */
  const recoveriesSeen = new WeakMap<RateBudget, number>();
  /**
   * The waits for the upstream that were in the outbox when this engine started are released in its
   * first round: its gate is new and cannot see the end of an outage that began before the restart.
   */
  let startWaitsReleased = false;
  let queue: Promise<unknown> = Promise.resolve();

  const refreshStatus = () => feed.refresh(lastRound);
  // Dock reads run beside the rounds, not in their queue: an open never waits for a round.
  const fresh = createFreshReads({
    store,
    context: async () => {
      const settings = await readUpstreamSettings(store);
      return settings ? contextFor(settings) : null;
    },
    offline: () => lastRound.offline,
  });

  /** One request budget per upstream, kept across rounds (rate-budget.ts). */
  function budgetFor(settings: UpstreamSettings): RateBudget {
    let budget = budgets.get(settings.base_url);
    if (!budget) budgets.set(settings.base_url, (budget = createRateBudget({ ...options.budget, ...(options.random ? { random: options.random } : {}) })));
    return budget;
  }

  /** What sync knows of each hub's interface, kept across rounds: per address and token (a new join asks afresh). */
  const hubs = new Map<string, HubInterface>();
  function hubFor(settings: UpstreamSettings): HubInterface {
    const key = JSON.stringify([settings.base_url, settings.token]);
    let hub = hubs.get(key);
    if (!hub) hubs.set(key, (hub = newHubInterface(log)));
    return hub;
  }

  async function contextFor(settings: UpstreamSettings, budget: RateBudget = budgetFor(settings)): Promise<SyncContext> {
    const hub = hubFor(settings);
    const client = specFallbackClient(
      createUpstreamClient(
        settings,
        budget,
        upstreamFetch(settings, options.fetch),
        settings.site ? () => ({ 'Returns-Station-Pending': String(feed.current().pending_changes) }) : undefined,
      ),
      hub,
    );
    return {
      store,
      clock,
      client,
      hub,
      outbox,
      instanceId: await instanceIdOf(store),
      pace: () => (afterOutage(budget) ? 1 : budget.share()),
      ...(options.random ? { random: options.random } : {}),
      ...(options.overlapMs !== undefined ? { overlapMs: options.overlapMs } : {}),
      ...(options.idleEveryMs !== undefined ? { idleEveryMs: options.idleEveryMs } : {}),
    };
  }

  function afterOutage(budget: RateBudget): boolean {
    const { recoveredAt } = budget.gate();
    return recoveredAt !== null && Date.parse(clock.now()) - recoveredAt < AFTER_OUTAGE_MS;
  }

  /** Whether an outage ended since the last look; its waits are then released. */
  async function outageEnded(budget: RateBudget): Promise<boolean> {
    const { recoveries } = budget.gate();
    if (recoveries === (recoveriesSeen.get(budget) ?? 0)) return false;
    recoveriesSeen.set(budget, recoveries);
    // What waited only for the upstream goes now, not at the end of its own backoff.
    await clearBackoff(store, waitedForUpstream);
    return true;
  }

  async function round(roundOptions: RoundOptions): Promise<RoundReport> {
    const report = emptyReport();
    const settings = await readUpstreamSettings(store);
    if (!settings) {
      // Nothing is sent: the outbox is a backlog for a later upstream, not counted in memory.
      outbox.forget();
      lastRound = { offline: false, error: null, backoffUntil: null };
      lastBudget = undefined;
      await refreshStatus();
      return report;
    }
    const budget = budgetFor(settings);
    lastBudget = budget;
    const waitUntil = closedUntil(budget);
    if (waitUntil !== null) {
      // The upstream backs off: nothing is sent, not even by `sync --once` (it waits for the gate).
      report.offline = true;
      report.backoff_until = new Date(waitUntil).toISOString();
      lastRound = { offline: true, error: lastRound.error ?? budget.gate().reason, backoffUntil: waitUntil };
      await refreshStatus();
      return report;
    }
    const sc = await contextFor(settings, budget);
    if (roundOptions.ignoreBackoff) await clearBackoff(store);
    else if (!startWaitsReleased) await clearBackoff(store, waitedForUpstream);
    startWaitsReleased = true;
    await outageEnded(budget);
    const outcome = await syncAccounts(sc, budget, settings.accounts, roundOptions, report);
    // The probe of this round ended an outage: what waited for it goes in a round right after.
    if (await outageEnded(budget)) report.more = true;
    // Whenever the gate is not open (its backoff may just be over: then the probe goes next).
    const { opensAt } = budget.gate();
    report.backoff_until = opensAt === null ? null : new Date(opensAt).toISOString();
    report.requests = sc.client.requests;
    report.conflicts = await store.tables.sync_conflicts.count();
    lastRound = outcome;
    await refreshStatus();
    return report;
  }

  return {
    runRound(roundOptions) {
      const run = queue.then(() => round(roundOptions));
      queue = run.catch(() => undefined);
      return run;
    },
    between(task) {
      const run = queue.then(task);
      queue = run.catch(() => undefined);
      return run;
    },
    status: feed.current,
    onStatus: feed.listen,
    refreshStatus,
    async nextRetryAt() {
      return (await readUpstreamSettings(store)) ? outbox.nextRetryAt() : undefined;
    },
    outboxSlotsInMemory: () => outbox.size(),
    refreshPackage: fresh.refreshPackage,
    hubMediaBytes: async (url) => hubMediaBytes(await readUpstreamSettings(store), url, options.fetch),
    upstreamHealth: () => ({ backoffUntil: lastBudget ? closedUntil(lastBudget) : null, share: lastBudget?.share() ?? 1 }),
    nudge() {
      for (const listener of nudgeListeners) listener();
    },
    setUpstreamEvents(state) {
      feed.setEvents(state);
      // Told as the streams stop too, while the store may be closing: a failed read changes nothing.
      void refreshStatus().catch(() => undefined);
    },
    upstreamBudget: budgetFor,
    onNudge(listener) {
      nudgeListeners.add(listener);
      return () => nudgeListeners.delete(listener);
    },
  };
}
