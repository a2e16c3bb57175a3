// `npm run bench`: measures the real station beside baselines measured in the same run, prints a
// markdown table and prepends it to test/bench/RESULTS.md. Never part of `npm test`.
// BENCH_SECTIONS=http,store,hotset,api,ui,sync,year picks sections; BENCH_SECONDS sets each load's length.
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStation } from '../support/station-process.ts';
import { runApiBench } from './api-bench.ts';
import { startHelloBaseline } from './hello-baseline.ts';
import { load } from './load.ts';
import { type BenchRow, recordRun, toMarkdown } from './report.ts';
import { runStoreBench } from './store-bench.ts';
import { runHotSetBench } from './hot-set-bench.ts';
import { runSyncBench } from './sync-bench.ts';
import { runYearBench } from './year-bench.ts';

const RESULTS_FILE = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 5);
const HELLO = 'fastify hello-world (baseline)';
const wanted = new Set((process.env.BENCH_SECTIONS ?? 'http,store,hotset,api,ui,sync,year').split(','));

async function httpSection(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const hello = await startHelloBaseline();
  try {
    rows.push({ section: 'http', name: HELLO, ...(await load({ url: `${hello.origin}/`, durationSeconds })) });
  } finally {
    await hello.stop();
  }
  const station = await startStation();
  try {
    rows.push({ section: 'http', name: 'station GET /healthz', ...(await load({ url: `${station.origin}/healthz`, durationSeconds })), baseline: HELLO });
  } finally {
    await station.stop();
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
  if (wanted.has('api')) rows.push(...(await runApiBench(rows.find((r) => r.name === HELLO), scratch)));
  if (wanted.has('ui')) rows.push(...(await uiSection()));
  if (wanted.has('sync')) rows.push(...(await runSyncBench()));
  if (wanted.has('year')) rows.push(...(await runYearBench()));
} finally {
  await rm(scratch, { recursive: true, force: true });
}
const table = toMarkdown(rows);
process.stdout.write(`${table}\n`);
const machine = `${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
recordRun(RESULTS_FILE, table, machine);
process.stdout.write(`\nRecorded in ${RESULTS_FILE}\n`);
