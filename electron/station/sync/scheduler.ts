import type { StationStore } from '../store/index.ts';
import type { SyncEngine } from './sync-engine.ts';
import { DEFAULT_IDLE_EVERY_MS } from './pull/pull.ts';
import { startUpstreamEvents } from './upstream/upstream-events.ts';
import { readUpstreamSettings } from './settings.ts';
import type { FetchLike } from './upstream/upstream-client.ts';

/** Pull interval when idle: what each round reads is timed in pull.ts (≤ 60 requests an hour an account). */
export const DEFAULT_PULL_INTERVAL_MS = DEFAULT_IDLE_EVERY_MS;
/** A round that left a full pass under way comes back this soon (the budget still paces it). */
const MORE_DELAY_MS = 1_000;
/** A local change is pushed this soon after it is durable (changes of a burst go together). */
const PUSH_DELAY_MS = 300;
/** An upstream's change event is pulled this soon (the events of a burst go in one round). */
const EVENT_DELAY_MS = 100;
/**
 * Commits refresh the sync status (what the UI shows, sent as `sync.status` events) at most this
 * often: under a stream of creates there is a commit every few milliseconds
 * (docs/decisions/create-path.md). A `GET …/sync` still refreshes at once.
 */
const STATUS_REFRESH_MS = 250;

export interface SyncScheduler {
  /** Stops the timers and waits for a running round. */
  stop(): Promise<void>;
}

export interface SyncSchedulerOptions {
  pullIntervalMs?: number;
  log?: (message: string) => void;
  fetch?: FetchLike;
  /**
   * A site's member checks its hub's configuration (docs/decisions/site-config.md): told when the
   * hub's stream says it changed or (re)opens, and after each interval's pull round.
   */
  checkSiteConfig?: () => void;
}

/**
 * Runs the engine while the station runs: a pull round at start and every interval, a push round
 * soon after every local change, a pull of an account soon after its upstream tells of a change
 * (its event stream, when it has one: upstream-events.ts), and a retry when the earliest backed-off
 * change is due. Rounds run one at a time; what comes during one is gathered into the next.
 */
export function startSyncScheduler(store: StationStore, engine: SyncEngine, options: SyncSchedulerOptions = {}): SyncScheduler {
  const pullInterval = options.pullIntervalMs ?? DEFAULT_PULL_INTERVAL_MS;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  /** The first round's end: the event streams open after it, so that they never knock beside it on an upstream not yet heard. */
  let firstRoundEnded = () => {};
  const firstRound = new Promise<void>((resolve) => (firstRoundEnded = resolve));
  let nextPullAt = 0;
  let timer: NodeJS.Timeout | undefined;
  /** A local change arrived while a round ran: push again right after it. */
  let dirty = false;
  /** Accounts whose upstream told of a change since the last round began: read in the next one. */
  const told = new Set<number>();
  let statusTimer: NodeJS.Timeout | undefined;
  let statusRefreshedAt = 0;

  /** Refreshes the status now, or once STATUS_REFRESH_MS after the last refresh (one timer for all the commits in between). */
  const refreshStatusSoon = () => {
    if (statusTimer || stopped) return;
    statusTimer = setTimeout(
      () => {
        statusTimer = undefined;
        statusRefreshedAt = Date.now();
        void engine.refreshStatus();
      },
      Math.max(0, statusRefreshedAt + STATUS_REFRESH_MS - Date.now()),
    );
    statusTimer.unref();
  };

  /** Not before the upstream's gate opens (a 5xx or a lost answer backs it off: upstream-gate.ts); a nudge goes at once (its round then sees the gate). */
  const schedule = (delay: number, { gate = true } = {}) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    const opensAt = gate ? engine.upstreamHealth().backoffUntil : null;
    timer = setTimeout(tick, Math.max(0, delay, opensAt === null ? 0 : opensAt - Date.now()));
    timer.unref();
  };

  const tick = () => {
    timer = undefined;
    dirty = false;
    const pullNow = [...told];
    told.clear();
    const due = Date.now() >= nextPullAt;
    if (due) nextPullAt = Date.now() + pullInterval;
    running = engine
      .runRound({ pull: due || pullNow.length > 0, pullNow })
      .then(async (report) => {
        firstRoundEnded();
        if (due && !report.offline) options.checkSiteConfig?.();
        if (report.offline)
          options.log?.(
            `sync: the upstream cannot be reached or is failing; ${report.backoff_until ? `backing off until ${report.backoff_until}` : 'retrying later'}`,
          );
        // A round the gate cut short did not pull: the pull stays due for when it opens.
        if (due && report.backoff_until !== null) nextPullAt = 0;
        // Told of a change the gate kept this round from reading: read it when the gate opens.
        if (report.backoff_until !== null) for (const accountId of pullNow) told.add(accountId);
        // Wake for the earliest backed-off change, else for the next pull.
        const retryAt = await engine.nextRetryAt();
        const nextRetry = retryAt === undefined ? Infinity : retryAt - Date.now();
        if (report.more && !report.offline) nextPullAt = Math.min(nextPullAt, Date.now() + MORE_DELAY_MS);
        // While the upstream backs off, schedule() waits for its gate (the probe goes as it opens).
        schedule(
          dirty
            ? PUSH_DELAY_MS
            : told.size > 0
              ? EVENT_DELAY_MS
              : Math.min(nextPullAt - Date.now(), Math.max(nextRetry, report.offline && report.backoff_until === null ? 5_000 : 0)),
        );
      })
      .catch((error: unknown) => {
        firstRoundEnded();
        options.log?.(`sync round failed: ${error instanceof Error ? error.message : String(error)}`);
        schedule(pullInterval);
      });
  };

  const unsubscribe = store.subscribe((entries) => {
    // Only local changes have outbox marks; the pull's own writes also land here but push nothing.
    if (entries.some((e) => e.resource === 'return' || e.resource === 'return_package')) {
      refreshStatusSoon();
      dirty = true;
      if (timer) schedule(PUSH_DELAY_MS);
    }
  });
  const events = startUpstreamEvents({
    readSettings: () => readUpstreamSettings(store),
    changed(accountId) {
      told.add(accountId);
      // While a round runs, the next one is scheduled when it ends (see tick).
      if (timer && !stopped) schedule(EVENT_DELAY_MS);
    },
    ...(options.checkSiteConfig ? { siteConfigChanged: options.checkSiteConfig } : {}),
    budget: (settings) => engine.upstreamBudget(settings),
    ready: firstRound,
    onState: (state) => engine.setUpstreamEvents(state),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  // Settings changed or a person asked: a full round (pull too) as soon as possible.
  const unsubscribeNudge = engine.onNudge(() => {
    nextPullAt = 0;
    dirty = true;
    void events.settingsChanged();
    if (timer) schedule(0, { gate: false });
  });
  schedule(0);
  return {
    async stop() {
      stopped = true;
      unsubscribe();
      unsubscribeNudge();
      if (timer) clearTimeout(timer);
      if (statusTimer) clearTimeout(statusTimer);
      await events.stop();
      await running.catch(() => undefined);
    },
  };
}
