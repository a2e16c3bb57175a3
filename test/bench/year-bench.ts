// Issue 12: a station's memory after a simulated year of dock work through the API. Returns and
// packages are created, delivered, inspected and received day by day on a station clock that moves a
// day at a time, so the hot set's window (14 days) sheds what the year leaves behind; RSS is sampled
// every tenth of the year (after a full GC when node runs with --expose-gc, as `npm run bench` does)
// and must stay flat within ±15 % after the first window; the JS heap used is printed beside it.
// BENCH_YEAR_PACKAGES sets the year's size (default 100,000; the issue's figure is 1,000,000: ≈ 10× longer).
// Run alone: `node test/bench/year-bench.ts`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../shared/api/client.ts';
import { pruneExpired } from '../../electron/station/domain/retention.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { openStation } from '../../electron/station/station.ts';
import { manualReturnBody, returnLine } from '../support/manual-return.ts';
import type { BenchRow } from './report.ts';

const PACKAGES = Number(process.env.BENCH_YEAR_PACKAGES ?? 100_000);
const DAYS = 365;
const SAMPLES = 10;
const WORKERS = 16;
const ACCOUNTS = [1, 2, 3, 4];
const DAY_MS = 86_400_000;

/** The station's clock: a simulated day that only moves when the driver turns the page (and by real ms within it). */
function simulatedClock(startIso: string) {
  let dayStart = Date.parse(startIso);
  let realAtDayStart = Date.now();
  return {
    clock: { now: () => new Date(dayStart + Math.min(DAY_MS - 1, Date.now() - realAtDayStart)).toISOString() },
    nextDay() {
      dayStart += DAY_MS;
      realAtDayStart = Date.now();
    },
  };
}

/** RSS in MiB, after a full garbage collection when node runs with --expose-gc (what is kept, not what awaits collection). */
function rssMiB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / 2 ** 20;
}

/** One parcel's life at the dock: its return, the package delivered, one item inspected, received. */
async function workParcel(api: ApiClient, n: number): Promise<void> {
  const accountId = ACCOUNTS[n % ACCOUNTS.length] ?? 1;
  const sku = `YR-${n % 5000}`;
  const ret = await api.createReturn(manualReturnBody({ account_id: accountId, email: `year.${n}@example.com`, return_line_items: [returnLine(sku, 1)] }));
  const pkg = await api.createPackage(accountId, { return_id: ret.id, tracking_number: `YEAR${String(n).padStart(8, '0')}`, status: 'delivered' });
  await api.createLineItem(accountId, pkg.id, { return_line_item_id: ret.return_line_items[0]?.id ?? null, quantity: 1, condition: 'like_new' });
  await api.updatePackage(accountId, pkg.id, { status: 'received' });
}

export async function runYearBench(): Promise<BenchRow[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'returns-year-bench-'));
  const time = simulatedClock('2025-01-01T06:00:00.000Z');
  // The sweep runs once a simulated day, below, not on real time.
  const station = await openStation({ dataDir, rendererDir: join(dataDir, 'no-renderer'), logLevel: 'silent', clock: time.clock, hotSweepMs: 3_600_000 });
  try {
    const origin = await station.listen('127.0.0.1', 0);
    for (const id of ACCOUNTS) await createToken(station.ctx.store, time.clock, { scope: 'account', accountId: id, name: `year ${id}` });
    const token = (await createToken(station.ctx.store, time.clock, { scope: 'station', accountId: null, name: 'year bench' })).secret;
    const api = new ApiClient({ baseUrl: origin, token });
    const baseline = rssMiB();

    const perDay = PACKAGES / DAYS;
    const samples: Array<{ packages: number; day: number; rss: number; heap: number }> = [];
    let made = 0;
    const started = Date.now();
    for (let day = 1; day <= DAYS; day++) {
      const target = Math.round(perDay * day);
      let next = made;
      await Promise.all(
        Array.from({ length: WORKERS }, async () => {
          while (next < target) await workParcel(api, next++);
        }),
      );
      made = target;
      // The end of a day: the sweep sheds what left the window, housekeeping prunes what expired (both
      // run on real time in a station; a simulated day gets one round of each here).
      await station.ctx.store.shedCold();
      await pruneExpired(station.ctx.store, time.clock.now());
      if (made >= ((samples.length + 1) * PACKAGES) / SAMPLES) {
        samples.push({ packages: made, day, rss: rssMiB(), heap: process.memoryUsage().heapUsed / 2 ** 20 });
        process.stderr.write(`year bench: day ${day}, ${made.toLocaleString('en')} packages, RSS ${samples.at(-1)?.rss.toFixed(0)} MiB, JS heap used ${samples.at(-1)?.heap.toFixed(0)} MiB\n`);
      }
      time.nextDay();
    }
    const seconds = (Date.now() - started) / 1000;

    // "After the first window": the samples taken once 14 days had passed (all of them at this rate).
    const after = samples.filter((s) => s.day > 14);
    const reference = after[0]?.rss ?? Number.NaN;
    const worst = Math.max(...after.map((s) => Math.abs(s.rss - reference) / reference));
    const path = samples.map((s) => `${(s.packages / 1000).toFixed(0)}k: ${s.rss.toFixed(0)}`).join(', ');
    const heaps = samples.map((s) => s.heap.toFixed(0)).join(', ');
    return [
      { section: 'year', name: 'RSS of the station process, open and empty (baseline)', value: `${baseline.toFixed(0)} MiB` },
      {
        section: 'year',
        name: `RSS after a simulated year: ${PACKAGES.toLocaleString('en')} packages created, inspected and received through the API`,
        value: `RSS MiB at ${path}; largest drift ${(worst * 100).toFixed(1)} % from the first sample; JS heap used (after a full GC) ${heaps} MiB; ${(PACKAGES / seconds).toFixed(0)} parcels/s (4 requests each)`,
        baseline: 'RSS of the station process, open and empty (baseline)',
        target: `flat within ± 15 % after the first window${PACKAGES < 1_000_000 ? ` (issue: 1,000,000 packages; this run ${PACKAGES.toLocaleString('en')})` : ''}`,
        ok: worst <= 0.15,
      },
    ];
  } finally {
    await station.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runYearBench();
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
}
