import { randomBytes } from 'node:crypto';
import type { SyncStatus } from '#shared/api/station.ts';
import type { Clock } from '../domain/clock.ts';
import { boundTables, type StationStore } from '../store/index.ts';
import { emptyReport, type RoundReport, type SyncContext } from './context.ts';
import { SyncPausedError } from './errors.ts';
import { accountState } from './account-state.ts';
import { pullPackages, pullReturns, SWEEP_EVERY_MS, sweepOpenPackages } from './pull.ts';
import { pushAccount } from './push.ts';
import { createRateBudget, type RateBudget } from './rate-budget.ts';
import { readUpstreamSettings } from './settings.ts';
import { SYNC_DISABLED, syncStatusOf } from './status.ts';
import { createUpstreamClient, type FetchLike, UpstreamUnreachableError } from './upstream-client.ts';

export interface RoundOptions {
  /** Pull too (the scheduler pulls on its interval; a round after a local change only pushes). */
  pull: boolean;
  /** Send backed-off changes now (`sync --once`). */
  ignoreBackoff?: boolean;
}

/** One sync engine per open store: rounds run one at a time. */
export interface SyncEngine {
  runRound(options: RoundOptions): Promise<RoundReport>;
  status(): SyncStatus;
  /** Called with the new status whenever it changes. */
  onStatus(listener: (status: SyncStatus) => void): () => void;
  /** Fresh status from the store (after settings or outbox changes). */
  refreshStatus(): Promise<SyncStatus>;
  /** Asks the scheduler for a round now (settings changed, a person asked to retry). */
  nudge(): void;
  onNudge(listener: () => void): () => void;
}

export interface SyncEngineOptions {
  store: StationStore;
  clock: Clock;
  fetch?: FetchLike;
  random?: () => number;
  overlapMs?: number;
}

const INSTANCE_KEY = 'sync.instance';

async function instanceIdOf(store: StationStore): Promise<string> {
  const row = await store.db.station_meta.get(INSTANCE_KEY);
  if (typeof row?.value === 'string') return row.value;
  const id = randomBytes(9).toString('base64url');
  await store.write(async (tx) => boundTables(tx).station_meta.put({ key: INSTANCE_KEY, value: id }));
  return id;
}

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const { store, clock } = options;
  const budgets = new Map<string, RateBudget>();
  const listeners = new Set<(status: SyncStatus) => void>();
  const nudgeListeners = new Set<() => void>();
  let current: SyncStatus = SYNC_DISABLED;
  let lastRound: { offline: boolean; error: string | null } = { offline: false, error: null };
  let queue: Promise<unknown> = Promise.resolve();

  async function refreshStatus(): Promise<SyncStatus> {
    const next = await syncStatusOf(store, await readUpstreamSettings(store), lastRound);
    if (JSON.stringify(next) !== JSON.stringify(current)) {
      current = next;
      for (const listener of listeners) listener(next);
    }
    return current;
  }

  async function round(roundOptions: RoundOptions): Promise<RoundReport> {
    const report = emptyReport();
    const settings = await readUpstreamSettings(store);
    if (!settings) {
      lastRound = { offline: false, error: null };
      await refreshStatus();
      return report;
    }
    let budget = budgets.get(settings.url);
    if (!budget) budgets.set(settings.url, (budget = createRateBudget()));
    const client = createUpstreamClient(settings, budget, options.fetch);
    const sc: SyncContext = { store, clock, client, instanceId: await instanceIdOf(store), ...(options.random ? { random: options.random } : {}), ...(options.overlapMs !== undefined ? { overlapMs: options.overlapMs } : {}) };
    let error: string | null = null;
    if (roundOptions.ignoreBackoff) {
      await store.write(async (tx) => {
        const t = boundTables(tx);
        for (const entry of await t.outbox.toArray()) if (entry.next_attempt_at !== null) await t.outbox.put({ ...entry, next_attempt_at: null });
      });
    }
    for (const accountId of settings.accounts) {
      const state = await accountState(store.db, accountId);
      if (state.paused) {
        report.paused.push(`${accountId}: ${state.paused.message}`);
        continue;
      }
      try {
        await pushAccount(sc, accountId, report);
        let pulled = true;
        if (roundOptions.pull) {
          pulled = (await pullReturns(sc, accountId, report)) && (await pullPackages(sc, accountId, report));
          const sweptAt = (await accountState(store.db, accountId)).last_sweep_at;
          if (pulled && (sweptAt === null || Date.parse(clock.now()) - Date.parse(sweptAt) >= SWEEP_EVERY_MS)) pulled = await sweepOpenPackages(sc, accountId, report);
        }
        const now = clock.now();
        await store.write(async (tx) => {
          const t = boundTables(tx);
          await t.sync_state.put({ ...(await accountState(t, accountId)), last_success_at: now });
        });
      } catch (caught) {
        if (caught instanceof UpstreamUnreachableError) {
          report.offline = true;
          error = caught.message;
          break;
        }
        if (caught instanceof SyncPausedError) {
          const at = clock.now();
          await store.write(async (tx) => {
            const t = boundTables(tx);
            await t.sync_state.put({ ...(await accountState(t, accountId)), paused: { status: caught.status, message: caught.message, at } });
          });
          report.paused.push(`${accountId}: ${caught.message}`);
          continue;
        }
        error = caught instanceof Error ? caught.message : String(caught);
      }
    }
    report.requests = client.requests;
    report.conflicts = await store.db.sync_conflicts.count();
    lastRound = { offline: report.offline, error };
    await refreshStatus();
    return report;
  }

  return {
    runRound(roundOptions) {
      const run = queue.then(() => round(roundOptions));
      queue = run.catch(() => undefined);
      return run;
    },
    status: () => current,
    onStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refreshStatus,
    nudge() {
      for (const listener of nudgeListeners) listener();
    },
    onNudge(listener) {
      nudgeListeners.add(listener);
      return () => nudgeListeners.delete(listener);
    },
  };
}
