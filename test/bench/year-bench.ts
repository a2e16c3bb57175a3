// A station's memory after a simulated year of dock work through the API. Returns and
// packages are created, delivered, inspected and received day by day on a station clock that moves a
// day at a time, so the hot set's window (14 days) sheds what the year leaves behind. The dock is a
// child process (year-driver.ts, 16 clients): this process holds the station alone, so its RSS is the
// station's. RSS is sampled every tenth of the year (N = total / 10 packages), after a full GC when
// node runs with --expose-gc (as `npm run bench` does), and must stay flat within ±15 % after the
// first window; the JS heap used is printed beside it.
// BENCH_YEAR_PACKAGES sets the year's size (default 100,000; the issue's figure is 1,000,000: ≈ 10× longer).
// BENCH_YEAR_DAYS shortens the year to that many days at the same parcels a day (with BENCH_YEAR_PACKAGES
// scaled down alike), for a quicker diagnosis; BENCH_YEAR_HEAP_GROWTH overrides the station's bound on
// V8's heap growth (0: V8's own rule, as before docs/decisions/memory-over-a-year.md), to compare.
// BENCH_YEAR_DIAG=1 prints V8's heap spaces, the resident memory by kind of mapping and the engine's
// table sizes at each sample; BENCH_YEAR_DIAG=days also prints, every day, what the day's work, sweep
// and housekeeping each moved in resident memory (native-memory.ts);
// BENCH_YEAR_DIAG=snapshots also writes a heap snapshot at the second and the last sample (into the
// OS temp folder), to compare by constructor in Chrome DevTools.
// Run alone: `node --expose-gc --max-semi-space-size=8 test/bench/year-bench.ts` (the station's young
// generation, which `returns-station serve` and `npm run bench` give it; heap/young-generation.ts).
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { pruneExpired } from '../../electron/station/domain/retention.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { semiSpaceGivenToNode } from '../../electron/station/heap/young-generation.ts';
import { openStation, type Station } from '../../electron/station/station.ts';
import { type ResidentByMapping, residentByMapping } from './native-memory.ts';
import type { BenchRow } from './report.ts';
import type { DriverMessage, DriverReply } from './year-driver.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

const PACKAGES = Number(process.env.BENCH_YEAR_PACKAGES ?? 100_000);
const DIAG = process.env.BENCH_YEAR_DIAG;
const DAYS = Number(process.env.BENCH_YEAR_DAYS ?? 365);
const SAMPLES = 10;
const WORKERS = 16;
const ACCOUNTS = [1, 2, 3, 4];
const DAY_MS = 86_400_000;
const HEAP_GROWTH = process.env.BENCH_YEAR_HEAP_GROWTH ? { heapGrowthPercent: Number(process.env.BENCH_YEAR_HEAP_GROWTH) || null } : {};
const DRIVER = fileURLToPath(new URL('./year-driver.ts', import.meta.url));

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

const MiB = 2 ** 20;

/** RSS in MiB, after a full garbage collection when node runs with --expose-gc (what is kept, not what awaits collection). */
function rssMiB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / MiB;
}

/** The dock: a child process that works the parcels of a range through the API and says when it is done. */
function startDock(origin: string, token: string): { work(from: number, to: number): Promise<void>; stop(): void } {
  const child: ChildProcess = fork(DRIVER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.send({ origin, token, accounts: ACCOUNTS, workers: WORKERS } satisfies DriverMessage);
  let waiting: { resolve: () => void; reject: (error: Error) => void } | undefined;
  child.on('message', (reply: DriverReply) => {
    const current = waiting;
    waiting = undefined;
    if ('error' in reply) current?.reject(new Error(`year bench dock: ${reply.error}`));
    else current?.resolve();
  });
  child.on('exit', (code) => waiting?.reject(new Error(`year bench dock exited (${code})`)));
  return {
    work: (from, to) =>
      new Promise<void>((resolve, reject) => {
        waiting = { resolve, reject };
        child.send({ from, to } satisfies DriverMessage);
      }),
    stop: () => child.disconnect(),
  };
}

/** What the diagnosis prints at a sample: V8's spaces (used / committed) and the engine's table sizes. */
async function diagnose(station: Station, made: number, snapshot: boolean): Promise<void> {
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((space) => [
      space.space_name.replace(/_space$/, ''),
      `${(space.space_used_size / MiB).toFixed(0)}/${(space.space_size / MiB).toFixed(0)}`,
    ]),
  );
  // Memory is read before anything awaits, so it is the sample's own: a GC finishing in between (a
  // release under way) would otherwise change it.
  const { external, arrayBuffers, rss, heapTotal } = process.memoryUsage();
  const resident = residentByMapping();
  const tables: Record<string, number> = {};
  for (const table of insidesOf(station.ctx.store).db.tables) tables[table.name] = await table.count();
  // What RSS holds besides V8's heap: the node binary, SQLite, buffers, and what malloc keeps; and
  // V8's pages resident beyond its spaces' committed size: the page pool (freed pages it keeps).
  const outsideHeap = `RSS outside V8's heap ${((rss - heapTotal) / MiB).toFixed(0)} MiB`;
  const pooled = `V8 pages resident ${resident.v8Pages.toFixed(0)} MiB (beyond the committed spaces ${(resident.v8Pages - heapTotal / MiB).toFixed(0)}), malloc heap ${resident.brk.toFixed(0)}, other anonymous ${resident.otherAnon.toFixed(0)}, files ${resident.file.toFixed(0)} MiB`;
  process.stderr.write(
    `year bench diag at ${made}: heap spaces MiB used/committed ${JSON.stringify(spaces)}; ${outsideHeap}; ${pooled}; external ${(external / MiB).toFixed(0)} MiB (array buffers ${(arrayBuffers / MiB).toFixed(0)}); engine rows ${JSON.stringify(tables)}\n`,
  );
  if (DIAG === 'snapshots' && snapshot) process.stderr.write(`year bench: heap snapshot ${writeHeapSnapshot(join(tmpdir(), `year-${made}.heapsnapshot`))}\n`);
}

/** BENCH_YEAR_DIAG=days: what each part of a simulated day moved in resident memory (MiB). */
function dayLine(day: number, made: number, marks: ResidentByMapping[], shed: number, pruned: number): string {
  const moved = (a: ResidentByMapping | undefined, b: ResidentByMapping | undefined) =>
    a && b ? `V8 pages ${(b.v8Pages - a.v8Pages).toFixed(1)}, malloc heap ${(b.brk - a.brk).toFixed(1)}, other ${(b.otherAnon - a.otherAnon).toFixed(1)}` : '';
  const end = marks.at(-1);
  const total = end ? `V8 pages ${end.v8Pages.toFixed(0)}, malloc heap ${end.brk.toFixed(0)}, other ${end.otherAnon.toFixed(0)} MiB` : '';
  return `year bench day ${day} (${made}): ${total}; heapTotal ${(process.memoryUsage().heapTotal / MiB).toFixed(0)} MiB | work ${moved(marks[0], marks[1])} | sweep (${shed} shed) ${moved(marks[1], marks[2])} | housekeeping (${pruned} pruned) ${moved(marks[2], marks[3])}\n`;
}

export async function runYearBench(): Promise<BenchRow[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'returns-year-bench-'));
  const time = simulatedClock('2025-01-01T06:00:00.000Z');
  // The sweep runs once a simulated day, below, not on real time.
  const station = await openStation({
    dataDir,
    rendererDir: join(dataDir, 'no-renderer'),
    logLevel: 'silent',
    clock: time.clock,
    hotSweepMs: 3_600_000,
    ...HEAP_GROWTH,
  });
  let dock: ReturnType<typeof startDock> | undefined;
  try {
    const origin = await station.listen('127.0.0.1', 0);
    for (const id of ACCOUNTS) await createToken(station.ctx.store, time.clock, { scope: 'account', accountId: id, name: `year ${id}` });
    const token = (await createToken(station.ctx.store, time.clock, { scope: 'station', accountId: null, name: 'year bench' })).secret;
    dock = startDock(origin, token);
    const baseline = rssMiB();

    const perDay = PACKAGES / DAYS;
    const every = PACKAGES / SAMPLES;
    const samples: Array<{ packages: number; day: number; rss: number; heap: number; peak: number }> = [];
    // The highest RSS read at the end of a day (no GC first) since the last sample: what the station
    // held at its most, where the samples after a full GC show what it keeps.
    let peak = 0;
    let made = 0;
    const started = Date.now();
    const cpuAtStart = process.cpuUsage();
    const marks: ResidentByMapping[] = [];
    const mark = () => void (DIAG === 'days' && marks.push(residentByMapping()));
    for (let day = 1; day <= DAYS; day++) {
      const target = Math.round(perDay * day);
      marks.length = 0;
      mark();
      if (target > made) await dock.work(made, target);
      made = target;
      mark();
      // The end of a day: the sweep sheds what left the window, housekeeping prunes what expired (both
      // run on real time in a station; a simulated day gets one round of each here).
      const shed = await station.ctx.store.shedCold();
      mark();
      const pruned = await pruneExpired(station.ctx.store, time.clock.now());
      mark();
      if (DIAG === 'days') process.stderr.write(dayLine(day, made, marks, shed, pruned.changeLogEntries + pruned.idempotencyKeys));
      peak = Math.max(peak, process.memoryUsage().rss / MiB);
      if (made >= (samples.length + 1) * every) {
        samples.push({ packages: made, day, rss: rssMiB(), heap: process.memoryUsage().heapUsed / MiB, peak });
        peak = 0;
        const at = samples.at(-1);
        const rate = made / ((Date.now() - started) / 1000);
        process.stderr.write(
          `year bench: day ${day}, ${made.toLocaleString('en')} packages, RSS ${at?.rss.toFixed(0)} MiB, JS heap used ${at?.heap.toFixed(0)} MiB, ${rate.toFixed(0)} parcels/s\n`,
        );
        if (DIAG) await diagnose(station, made, samples.length === 2 || samples.length === SAMPLES);
      }
      time.nextDay();
    }
    const seconds = (Date.now() - started) / 1000;
    // The station's CPU per parcel depends less on the machine's other work than the rate does.
    const cpu = process.cpuUsage(cpuAtStart);
    const cpuPerParcel = (cpu.user + cpu.system) / 1000 / PACKAGES;

    // "After the first window": the samples taken once 14 days had passed (all of them at this rate).
    const after = samples.filter((s) => s.day > 14);
    const reference = after[0]?.rss ?? Number.NaN;
    const worst = Math.max(...after.map((s) => Math.abs(s.rss - reference) / reference));
    const path = samples.map((s) => `${(s.packages / 1000).toFixed(0)}k: ${s.rss.toFixed(0)}`).join(', ');
    const heaps = samples.map((s) => s.heap.toFixed(0)).join(', ');
    const peaks = samples.map((s) => s.peak.toFixed(0)).join(', ');
    return [
      { section: 'year', name: 'RSS of the station process, open and empty (baseline)', value: `${baseline.toFixed(0)} MiB` },
      {
        section: 'year',
        name: `RSS after a simulated year: ${PACKAGES.toLocaleString('en')} packages created, inspected and received through the API`,
        value: `RSS MiB at ${path}; largest drift ${(worst * 100).toFixed(1)} % from the first sample; JS heap used (after a full GC) ${heaps} MiB; highest RSS at a day's end within each tenth ${peaks} MiB; ${(PACKAGES / seconds).toFixed(0)} parcels/s (6 requests each), station CPU ${cpuPerParcel.toFixed(1)} ms a parcel${HEAP_GROWTH.heapGrowthPercent === undefined ? '' : `; heap growth ${HEAP_GROWTH.heapGrowthPercent ?? "V8's own"}`}; semi-space ${semiSpaceGivenToNode() === null ? "V8's own (64 MiB)" : `${semiSpaceGivenToNode()} MiB`}`,
        baseline: 'RSS of the station process, open and empty (baseline)',
        target: `flat within ± 15 % after the first window${PACKAGES < 1_000_000 ? ` (issue: 1,000,000 packages; this run ${PACKAGES.toLocaleString('en')})` : ''}`,
        ok: worst <= 0.15,
      },
    ];
  } finally {
    dock?.stop();
    await station.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runYearBench();
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
}
