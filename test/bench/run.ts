// `npm run bench`: measures the real station beside baselines measured in the same run, prints a
// markdown table and prepends it to test/bench/RESULTS.md. Never part of `npm test`.
// BENCH_SECTIONS=http,store,hotset,api,ui,weight,sync,site,year picks sections (fastpaths, the private-internals
// fast paths beside their public paths, runs only when named); BENCH_SECONDS sets each load's length.
// The sync section's parts: BENCH_SYNC_PARTS=station,spec,fleet (a station as the upstream; the
// spec-only fake, one station; the fake and a fleet), each on by default.
// The bench process runs with the station's young generation, as `returns-station serve` does (the
// year section's station is in this process): RETURNS_STATION_SEMI_SPACE_MB=0 or a NODE_OPTIONS
// --max-semi-space-size compares (it reaches the stations the other sections start, too).
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { restartWithSemiSpace } from '../../electron/station/heap/young-generation.ts';
import { startStation } from '../support/station-process.ts';
import { runApiBench } from './api-bench.ts';
import { startHelloBaseline } from './hello-baseline.ts';
import { load, type LoadResult } from './load.ts';
import { buildDataset } from './dataset.ts';
import { type BenchRow, recordRun, toMarkdown } from './report.ts';
import { runStoreBench } from './store-bench.ts';
import { runHotSetBench } from './hot-set-bench.ts';
import { runFastPathsBench } from './fast-paths-bench.ts';
import { runSyncBench } from './sync-bench.ts';
import { runSyncFleetBench } from './sync-fleet-bench.ts';
import { runSyncSpecBench } from './sync-spec-bench.ts';
import { runSiteBench } from './site-bench.ts';
import { runYearBench } from './year-bench.ts';
import { runWeightBench } from './weight-bench.ts';

restartWithSemiSpace();

const RESULTS_FILE = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 5);
const HELLO = 'fastify hello-world (baseline)';
const wanted = new Set((process.env.BENCH_SECTIONS ?? 'http,store,hotset,api,ui,weight,sync,site,year').split(','));

/** A row of a load result, its server CPU per request beside it (less dependent on the machine's other work than the rate). */
function loadRow(name: string, result: LoadResult, extra: Partial<BenchRow> = {}): BenchRow {
  const failed = result.errors + result.non2xx;
  const cpu = result.cpu_us_per_request === undefined ? [] : [`server CPU ${result.cpu_us_per_request} µs/request`];
  const value = [...cpu, ...(failed ? [`${failed} failed`] : [])].join('; ');
  return { section: 'http', name, rate: result.rate, p50_ms: result.p50_ms, p99_ms: result.p99_ms, ...(value ? { value } : {}), ...extra };
}

/**
 * The per-request cost: a bare Fastify hello-world, then on one station (2,000 packages, account 1's
 * token) `/healthz` and a hot get-one of a package and of a return (records in the engine, their
 * views remembered after their first request), each beside the hello-world of this run.
 */
async function httpSection(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const hello = await startHelloBaseline();
  try {
    rows.push(loadRow(HELLO, await load({ url: `${hello.origin}/`, durationSeconds, serverPid: hello.pid })));
  } finally {
    await hello.stop();
  }
  const helloRate = rows[0]?.rate ?? 0;
  const dataset = await buildDataset(2_000);
  const station = await startStation({
    dataDir: dataset.dataDir,
    env: { RETURNS_STATION_ACCOUNT_RATE_LIMIT: '2000000000', RETURNS_STATION_LOG_LEVEL: 'warn' },
  });
  try {
    const serverPid = station.process.pid;
    rows.push(loadRow('station GET /healthz', await load({ url: `${station.origin}/healthz`, durationSeconds, serverPid }), { baseline: HELLO }));
    const headers = { authorization: `Bearer ${dataset.accountToken}` };
    // Account 1 holds every fourth record (ids 1, 5, 9, …): 500 packages and 500 returns.
    const accountOneId = () => 1 + 4 * Math.floor(Math.random() * 500);
    for (const [what, path] of [
      ['a package', '/api/v1/accounts/1/return_packages/'],
      ['a return', '/api/v1/accounts/1/returns/'],
    ] as const) {
      const requests = [{ method: 'GET' as const, setupRequest: (req: object) => ({ ...req, path: `${path}${accountOneId()}` }) }];
      const result = await load({ url: station.origin, durationSeconds, headers, requests, serverPid });
      const ok = result.errors + result.non2xx === 0 && result.rate >= 0.4 * helloRate;
      rows.push(loadRow(`station get-one (hot) of ${what}, 500 of 2,000`, result, { baseline: HELLO, target: '≥ 40% of hello-world', ok }));
    }
  } finally {
    await station.stop();
    await rm(dataset.dataDir, { recursive: true, force: true });
  }
  return rows;
}

async function uiSection(): Promise<BenchRow[]> {
  // Loaded only when wanted: it drives Chromium.
  const { runUiBench } = await import('./ui-bench.ts');
  return runUiBench();
}

const rows: BenchRow[] = [];
const scratch = await mkdtemp(join(tmpdir(), 'bench-'));
try {
  if (wanted.has('http')) rows.push(...(await httpSection()));
  if (wanted.has('store')) rows.push(...(await runStoreBench()));
  if (wanted.has('hotset')) rows.push(...(await runHotSetBench()));
  if (wanted.has('fastpaths')) rows.push(...(await runFastPathsBench()));
  if (wanted.has('api'))
    rows.push(
      ...(await runApiBench(
        rows.find((r) => r.name === HELLO),
        scratch,
      )),
    );
  if (wanted.has('ui')) rows.push(...(await uiSection()));
  if (wanted.has('weight')) rows.push(...(await runWeightBench()));
  if (wanted.has('sync')) {
    const parts = new Set((process.env.BENCH_SYNC_PARTS ?? 'station,spec,fleet').split(','));
    if (parts.has('station')) rows.push(...(await runSyncBench()));
    if (parts.has('spec')) rows.push(...(await runSyncSpecBench()));
    if (parts.has('fleet')) rows.push(...(await runSyncFleetBench()));
  }
  if (wanted.has('site')) rows.push(...(await runSiteBench()));
  if (wanted.has('year')) rows.push(...(await runYearBench()));
} finally {
  await rm(scratch, { recursive: true, force: true });
}
const table = toMarkdown(rows);
process.stdout.write(`${table}\n`);
const machine = `${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
recordRun(RESULTS_FILE, table, machine);
process.stdout.write(`\nRecorded in ${RESULTS_FILE}\n`);
