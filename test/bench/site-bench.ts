import { type FaultProxy, startFaultProxy } from '../sync/fault-proxy.ts';
import { receiveAndTime, type Site, startSite } from '../sync/site-support.ts';
import type { BenchRow } from './report.ts';
import { fleetCase, fleetLabel } from './sync-fleet-bench.ts';

/*
 * `site`: a hub (`serve` on the spec-only fake) and BENCH_SITE_STATIONS stations (8) on it, all real
 * processes. A receipt made at one station → on every other station (each station's API polled every
 * 100 ms): p50/p95/max over BENCH_SITE_ROUNDS rounds (3) in which every station receives a package at
 * once. Beside it, the same site without following: the stations reach the hub through a proxy that
 * answers 404 to the event stream (as a returns service would), so they poll by their pull interval
 * (the real one unless BENCH_SITE_BASELINE_INTERVAL_MS shortens it), one round.
 *
 * Its simulated part (BENCH_SITE_PARTS=real,sim): for each of BENCH_SITE_SIM_STATIONS (8,50), the
 * sync bench's fleet case on virtual time (sync-fleet-bench.ts) twice in one run — every station on
 * the returns service (the site without a hub), then every station on a hub (sim-hub.ts) — each
 * figure beside the other: first pull, convergence after a 30-minute outage (BENCH_SITE_SIM_RECEIPTS
 * receipts across the site during it, 200 by default), 429s, idle requests an
 * hour to the returns service, new packages, receipts on the other stations, and the stations'
 * requests to the hub and CPU at idle. The fake answers as BENCH_SITE_SIM_FILTERS says (page numbers
 * alone by default: the spec shows no filter).
 */

const SECTION = 'site';
const STATIONS = Number(process.env.BENCH_SITE_STATIONS ?? 8);
const ROUNDS = Number(process.env.BENCH_SITE_ROUNDS ?? 3);
const BASELINE_INTERVAL_MS = process.env.BENCH_SITE_BASELINE_INTERVAL_MS;
/** Receipts made across the simulated site during its outage (each followed by every other station's pull: the simulation's cost grows with stations × receipts). */
const OUTAGE_RECEIPTS = Number(process.env.BENCH_SITE_SIM_RECEIPTS ?? 200);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
}

/** Rounds in which every station receives one package at the same time; every other station's delay (ms). */
async function measure(site: Site, rounds: number, timeoutMs: number): Promise<number[]> {
  const apis = site.stations.map((s) => s.api);
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const times = await Promise.all(
      apis.map((api, i) =>
        receiveAndTime(
          api,
          apis.filter((_, j) => j !== i),
          site.trackings[round * apis.length + i] ?? '',
          timeoutMs,
        ),
      ),
    );
    samples.push(...times.flat());
  }
  return samples.sort((x, y) => x - y);
}

function row(name: string, samples: number[], extra: Partial<BenchRow>): BenchRow {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return {
    section: SECTION,
    name,
    p50_ms: percentile(samples, 0.5),
    p99_ms: percentile(samples, 0.99),
    value: `p95 ${s(percentile(samples, 0.95))}, max ${s(samples.at(-1) ?? 0)} (${samples.length} arrivals)`,
    ...extra,
  };
}

export async function runSiteBench(): Promise<BenchRow[]> {
  const parts = new Set((process.env.BENCH_SITE_PARTS ?? 'real,sim').split(','));
  return [...(parts.has('real') ? await realSite() : []), ...(parts.has('sim') ? await simulatedSites() : [])];
}

async function simulatedSites(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const filters = (process.env.BENCH_SITE_SIM_FILTERS ?? 'ignored') === 'honoured' ? 'honoured' : 'ignored';
  for (const stations of (process.env.BENCH_SITE_SIM_STATIONS ?? '8,50').split(',').map(Number)) {
    // About OUTAGE_RECEIPTS receipts during the outage whatever the size: each is followed by every station's pull of the hub.
    const direct = {
      filters,
      topology: 'direct',
      stations,
      section: SECTION,
      receiptsPerStation: Math.max(1, Math.floor(OUTAGE_RECEIPTS / stations)),
    } as const;
    rows.push(...(await fleetCase({ ...direct, asBaseline: true })));
    rows.push(...(await fleetCase({ ...direct, topology: 'hub', baselineLabel: fleetLabel(direct) })));
  }
  return rows;
}

async function realSite(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const baselineName = `receipt on every other station, ${STATIONS} stations polling the hub${BASELINE_INTERVAL_MS ? ` (pull interval ${BASELINE_INTERVAL_MS} ms)` : ' (default pull interval)'}`;
  let proxy: FaultProxy | undefined;
  const baseline = await startSite({
    stations: STATIONS,
    packages: STATIONS,
    following: false,
    upstreamOf: async (hub) => {
      proxy = await startFaultProxy(hub);
      proxy.fault = (req) => (req.path.endsWith('/events') ? { status: 404, body: { error: 'Not Found' } } : null);
      return proxy.url;
    },
    ...(BASELINE_INTERVAL_MS ? { env: { RETURNS_STATION_SYNC_INTERVAL_MS: BASELINE_INTERVAL_MS } } : {}),
  });
  try {
    rows.push(row(baselineName, await measure(baseline, 1, 15 * 60_000), {}));
  } finally {
    await baseline.stop();
    await proxy?.close();
  }
  const site = await startSite({ stations: STATIONS, packages: STATIONS * ROUNDS });
  try {
    const samples = await measure(site, ROUNDS, 60_000);
    const p95 = percentile(samples, 0.95);
    const max = samples.at(-1) ?? Infinity;
    rows.push(
      row(`receipt on every other station, ${STATIONS} stations following the hub's events`, samples, {
        baseline: baselineName,
        target: 'p95 < 5 s, max < 15 s',
        ok: p95 < 5_000 && max < 15_000,
      }),
    );
  } finally {
    await site.stop();
  }
  return rows;
}
