// `npm run bench`: measures the real station process over loopback beside baselines measured in the
// same run, prints a markdown table and prepends it to test/bench/RESULTS.md. Never part of `npm test`.
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startStation } from '../support/station-process.ts';
import { startHelloBaseline } from './hello-baseline.ts';
import { load } from './load.ts';
import { type BenchRow, recordRun, toMarkdown } from './report.ts';

const RESULTS_FILE = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 5);

async function httpSection(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const hello = await startHelloBaseline();
  try {
    const result = await load({ url: `${hello.origin}/`, durationSeconds });
    rows.push({ section: 'http', name: 'fastify hello-world (baseline)', ...result });
  } finally {
    await hello.stop();
  }
  const station = await startStation();
  try {
    const result = await load({ url: `${station.origin}/healthz`, durationSeconds });
    rows.push({ section: 'http', name: 'station GET /healthz', ...result, baseline: 'fastify hello-world (baseline)' });
  } finally {
    await station.stop();
  }
  return rows;
}

const sections: Array<() => Promise<BenchRow[]>> = [httpSection];

const rows: BenchRow[] = [];
for (const section of sections) rows.push(...(await section()));
const table = toMarkdown(rows);
process.stdout.write(`${table}\n`);
const machine = `${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
recordRun(RESULTS_FILE, table, machine);
process.stdout.write(`\nRecorded in ${RESULTS_FILE}\n`);
