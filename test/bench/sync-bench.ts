import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../shared/api/client.ts';
import type { ManualReturnCreateInput } from '../../shared/api/returns.ts';
import { stationAddresses } from '../../shared/api/sync.ts';
import { type Clock, systemClock } from '../../electron/station/domain/clock.ts';
import { seedCatalog } from '../../electron/station/domain/catalog.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { runScript } from '../../electron/station/domain/context.ts';
import { loadConfigCache } from '../../electron/station/domain/config-cache.ts';
import { updatePackage } from '../../electron/station/domain/packages.ts';
import { openStore, type StationStore } from '../../electron/station/store/index.ts';
import { createSyncEngine, type SyncEngine } from '../../electron/station/sync/sync-engine.ts';
import { DEFAULT_PULL_INTERVAL_MS } from '../../electron/station/sync/scheduler.ts';
import { writeUpstreamSettings } from '../../electron/station/sync/settings.ts';
import { startStation, type RunningStation } from '../support/station-process.ts';
import { buildDataset } from './dataset.ts';
import type { BenchRow } from './report.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * `sync`: the sync engine against a real upstream station over loopback, each figure beside a
 * baseline from the same run. BENCH_SYNC_CHANGES (default 1,000) packages received offline per
 * outage, BENCH_SYNC_REPEATS outages (default 5) for p50/p95, BENCH_SYNC_FIRST_PULL packages
 * (default 100,000) for the first pull.
 */

const CHANGES = Number(process.env.BENCH_SYNC_CHANGES ?? 1_000);
const REPEATS = Number(process.env.BENCH_SYNC_REPEATS ?? 5);
const FIRST_PULL = Number(process.env.BENCH_SYNC_FIRST_PULL ?? 100_000);

const RETURN: Omit<ManualReturnCreateInput, 'account_id'> = {
  email: 'bench@example.com',
  receive_by: '2030-01-31',
  total_price: 10,
  currency: 'EUR',
  weight: 1,
  weight_unit: 'kg',
  reason_of_return: 'bench',
  length: 1,
  width: 1,
  height: 1,
  dimension_unit: 'cm',
  return_line_items: [{ quantity: 1, unreceived_quantity: 1, name: 'Item', price: 10, currency: 'EUR', merchant_sku: 'BENCH-1' }],
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function localStation(
  upstream: RunningStation,
  accounts: number[],
  clock: Clock = systemClock,
): Promise<{ store: StationStore; engine: SyncEngine; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-sync-local-'));
  const store = await openStore({ dataDir: dir });
  await seedCatalog(store);
  await writeUpstreamSettings(store, { ...stationAddresses(upstream.origin), token: upstream.stationToken, accounts }, clock.now());
  return { store, engine: createSyncEngine({ store, clock }), dir };
}

async function untilConverged(engine: SyncEngine): Promise<{ ms: number; requests: number }> {
  const started = performance.now();
  let requests = 0;
  for (let round = 0; round < 100; round += 1) {
    const report = await engine.runRound({ pull: false, ignoreBackoff: true });
    requests += report.requests;
    if (engine.status().pending_changes === 0) break;
  }
  return { ms: performance.now() - started, requests };
}

/** Convergence after an outage: per repeat, its own account; the dock received every package (two edits each) offline. */
async function convergence(upstream: RunningStation, api: ApiClient): Promise<BenchRow[]> {
  const times: number[] = [];
  const baselineTimes: number[] = [];
  let requests = 0;
  let changes = 0;
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    const account = 100 + repeat;
    const baselineAccount = 200 + repeat;
    const ids: number[] = [];
    for (const target of [account, baselineAccount]) {
      const ret = await api.createReturn({ ...RETURN, account_id: target });
      for (let i = 0; i < CHANGES; i += 1) {
        const pkg = await api.createPackage(target, { return_id: ret.id, tracking_number: `BENCH-${target}-${i}` });
        if (target === baselineAccount) ids.push(pkg.id);
      }
    }
    const local = await localStation(upstream, [account]);
    try {
      await local.engine.runRound({ pull: true });
      const ctx = { store: local.store, clock: systemClock, config: await loadConfigCache(local.store) };
      const packages = (await insidesOf(local.store).db.return_packages.toArray()).filter((p) => p.account_id === account);
      for (const pkg of packages) {
        await runScript(ctx, (t, now) => updatePackage(t, now, account, pkg.id, { status: 'received' }));
        await runScript(ctx, (t, now) => updatePackage(t, now, account, pkg.id, { notes: 'checked' }));
        changes += 2;
      }
      const converged = await untilConverged(local.engine);
      times.push(converged.ms);
      requests += converged.requests;
    } finally {
      await local.store.close();
      await rm(local.dir, { recursive: true, force: true });
    }
    // Baseline: the same number of PATCHes sent straight to the upstream, one after another.
    const started = performance.now();
    for (const id of ids) await api.updatePackage(baselineAccount, id, { status: 'received', notes: 'checked' });
    baselineTimes.push(performance.now() - started);
  }
  const perChange = requests / changes;
  return [
    {
      section: 'sync',
      name: `${CHANGES} direct PATCHes to the upstream (baseline)`,
      value: `p50 ${percentile(baselineTimes, 50).toFixed(0)} ms, p95 ${percentile(baselineTimes, 95).toFixed(0)} ms`,
    },
    {
      section: 'sync',
      name: `convergence after an outage, ${CHANGES} packages received (${2 * CHANGES} local changes)`,
      p50_ms: percentile(times, 50),
      value: `p95 ${percentile(times, 95).toFixed(0)} ms, ${(percentile(times, 50) / percentile(baselineTimes, 50)).toFixed(2)}× the baseline`,
      baseline: `${CHANGES} direct PATCHes to the upstream (baseline)`,
    },
    {
      section: 'sync',
      name: 'upstream requests per local change (coalescing)',
      value: `${perChange.toFixed(2)} (baseline: ${(CHANGES / (2 * CHANGES)).toFixed(2)}, the direct PATCHes above, both edits in one request; uncoalesced would be 1.00)`,
      baseline: `${CHANGES} direct PATCHes to the upstream (baseline)`,
      target: '≤ 1.2',
      ok: perChange <= 1.2,
    },
  ];
}

/**
 * Idle: an hour of the station's rounds (one every pull interval, on a clock moved forward by the
 * interval each round, so the overlap window and the hourly sweep fall due as they would), counted
 * request by request, just after the last outage's burst; beside a poller without cursors that
 * re-reads every page of the same account's lists each interval (counted in the same run).
 */
async function idle(upstream: RunningStation, api: ApiClient): Promise<BenchRow[]> {
  let offsetMs = 0;
  const clock: Clock = { now: () => new Date(Date.now() + offsetMs).toISOString() };
  const local = await localStation(upstream, [100], clock);
  try {
    await local.engine.runRound({ pull: true });
    const rounds = 3_600_000 / DEFAULT_PULL_INTERVAL_MS;
    let perHour = 0;
    for (let round = 0; round < rounds; round += 1) {
      offsetMs += DEFAULT_PULL_INTERVAL_MS;
      perHour += (await local.engine.runRound({ pull: true })).requests;
    }
    let pages = 0;
    for (const list of [
      (page: number) => api.listPackages(100, { page, per_page: 250 }),
      (page: number) => api.listAccountReturns(100, { page, per_page: 250 }),
    ]) {
      for (let page = 1; ; page += 1) {
        pages += 1;
        if (page >= (await list(page)).meta.total_pages) break;
      }
    }
    const baselineName = 'idle requests per hour, re-reading every page of the lists each interval (baseline)';
    return [
      { section: 'sync', name: baselineName, value: `${pages * rounds} (${pages} per round)` },
      {
        section: 'sync',
        name: 'idle upstream requests per hour per account',
        value: `${perHour} (${rounds} rounds, one every ${DEFAULT_PULL_INTERVAL_MS / 1000} s, the hourly sweep included)`,
        baseline: baselineName,
        target: '≤ 60',
        ok: perHour <= 60,
      },
    ];
  } finally {
    await local.store.close();
    await rm(local.dir, { recursive: true, force: true });
  }
}

/** First pull of a large upstream (accounts 1–4 of the bench dataset), beside paging through the same lists without storing. */
async function firstPull(): Promise<BenchRow[]> {
  const dataset = await buildDataset(FIRST_PULL);
  const upstream = await startStation({ dataDir: dataset.dataDir, env: { RETURNS_STATION_LOG_LEVEL: 'warn' } });
  try {
    const api = new ApiClient({ baseUrl: upstream.origin, token: dataset.stationToken });
    const started = performance.now();
    for (const account of [1, 2, 3, 4]) {
      for (let page = 1; ; page += 1) {
        const answer = await api.listPackages(account, { page, per_page: 250, sort: 'updated_at' });
        if (page >= answer.meta.total_pages) break;
      }
      for (let page = 1; ; page += 1) {
        const answer = await api.listAccountReturns(account, { page, per_page: 250 });
        if (page >= answer.meta.total_pages) break;
      }
    }
    const baselineMs = performance.now() - started;
    const local = await localStation({ ...upstream, stationToken: dataset.stationToken }, [1, 2, 3, 4]);
    try {
      const pullStarted = performance.now();
      // `sync --once`: an idle round reads at most 20 pages of a full pass since the page-number pull.
      const report = await local.engine.runRound({ pull: true, pullMode: 'complete' });
      const pullMs = performance.now() - pullStarted;
      const stored = await insidesOf(local.store).db.return_packages.count();
      return [
        {
          section: 'sync',
          name: `paging through ${FIRST_PULL} packages and their returns, nothing stored (baseline)`,
          value: `${(baselineMs / 1000).toFixed(1)} s`,
        },
        {
          section: 'sync',
          name: `first pull of ${FIRST_PULL} packages`,
          value: `${(pullMs / 1000).toFixed(1)} s, ${stored} stored, ${report.requests} requests, ${(pullMs / baselineMs).toFixed(2)}× the baseline`,
          ok: stored === FIRST_PULL,
        },
      ];
    } finally {
      await local.store.close();
      await rm(local.dir, { recursive: true, force: true });
    }
  } finally {
    await upstream.stop();
    await rm(dataset.dataDir, { recursive: true, force: true });
  }
}

export async function runSyncBench(): Promise<BenchRow[]> {
  const upDir = await mkdtemp(join(tmpdir(), 'bench-sync-upstream-'));
  // Accounts come into being with a token: the bench's accounts on the upstream, before it starts.
  const setup = await openStore({ dataDir: upDir });
  try {
    for (let repeat = 0; repeat < REPEATS; repeat += 1) {
      for (const account of [100 + repeat, 200 + repeat]) await createToken(setup, systemClock, { scope: 'account', accountId: account, name: 'bench' });
    }
  } finally {
    await setup.close();
  }
  const upstream = await startStation({ dataDir: upDir, env: { RETURNS_STATION_LOG_LEVEL: 'warn' } });
  const rows: BenchRow[] = [];
  try {
    const api = new ApiClient({ baseUrl: upstream.origin, token: upstream.stationToken });
    rows.push(...(await convergence(upstream, api)));
    rows.push(...(await idle(upstream, api)));
  } finally {
    await upstream.stop();
    await rm(upDir, { recursive: true, force: true });
  }
  rows.push(...(await firstPull()));
  return rows;
}
