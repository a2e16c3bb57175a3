// Store figures: durable write rate with 1 and 32 writers, open time and RSS, list pages.
// Run alone: `node test/bench/store-bench.ts`.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { killRounds } from '../store/kill-harness.ts';
import { cpuPerOperation, ownCpuMs } from './process-cpu.ts';
import { type BenchRow, toMarkdown } from './report.ts';
import {
  openStore,
  type PackageLineItem,
  type PackageStatus,
  type ReturnPackage,
  type ReturnRecord,
  type StationStore,
  storeStatsOf,
  trackingKey,
} from '../../electron/station/store/index.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/** The suite kills the writers 4 times; the bench many more. */
const KILL_ROUNDS = 25;
const OPEN_CHILD = fileURLToPath(new URL('./store-bench-open.ts', import.meta.url));
const STATUSES: PackageStatus[] = ['pending', 'in_transit', 'in_transit', 'in_transit', 'delivered', 'received', 'received', 'exception', 'cancelled'];
const DAY0 = Date.UTC(2026, 9, 1);
const iso = (ms: number): string => new Date(ms).toISOString();

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

function newPackage(n: number, returnId: number, now = DAY0 + n * 20_000): Omit<ReturnPackage, 'id'> {
  const status = STATUSES[n % STATUSES.length] ?? 'in_transit';
  const tracking = `1Z${(n * 7919).toString(36).toUpperCase().padStart(10, '0')}${n}`;
  return {
    account_id: 1 + (n % 4),
    return_id: returnId,
    tracking_number: tracking,
    tracking_key: status === 'cancelled' ? null : trackingKey(tracking),
    status,
    estimated_arrival: iso(now + 3 * 86_400_000),
    actual_arrival: status === 'received' ? iso(now + 2 * 86_400_000) : null,
    shipping_method: 'ground',
    weight: 1.25,
    weight_unit: 'kg',
    length: 40,
    width: 30,
    height: 20,
    dimension_unit: 'cm',
    shipping_label_cost: 6.9,
    shipping_label_cost_currency: 'EUR',
    carrier_id: 1 + (n % 5),
    location_id: 1 + (n % 3),
    processed_at: status === 'received' ? iso(now + 2 * 86_400_000) : null,
    processor_id: status === 'received' ? 1 + (n % 8) : null,
    notes: n % 10 === 0 ? 'Box slightly damaged on arrival' : null,
    created_at: iso(now),
    updated_at: iso(now + (n % 17) * 3_600_000),
  };
}

function newReturn(n: number, lineIdStart: number, lines: number): Omit<ReturnRecord, 'id'> {
  const now = DAY0 + n * 20_000;
  return {
    account_id: 1 + (n % 4),
    status: 'awaiting',
    email: `customer.${n}@example.com`,
    receive_by: '2026-12-31',
    total_price: 49.9,
    currency: 'EUR',
    weight: 1250,
    weight_unit: 'g',
    reason_of_return: 'Wrong size, ordered a larger one instead',
    length: 40,
    width: 30,
    height: 20,
    dimension_unit: 'cm',
    sku_keys: Array.from({ length: lines }, (_unused, index) => `sw-mer-${n}-${index}`),
    return_line_items: Array.from({ length: lines }, (_unused, index) => ({
      id: lineIdStart + index,
      quantity: 1 + index,
      unreceived_quantity_at_create: 1 + index,
      unreceived_quantity: 1 + index,
      name: `Merino wool sweater, size ${['S', 'M', 'L'][index] ?? 'XL'}`,
      price: 24.95,
      currency: 'EUR',
      merchant_sku: `SW-MER-${n}-${index}`,
    })),
    created_at: iso(now),
    updated_at: iso(now),
  };
}

/** Seeds `count` returns, each with 1–3 lines, one package, and 1–3 inspected line items when received. */
export async function seed(store: StationStore, count: number): Promise<void> {
  const CHUNK = 5_000;
  let lineId = 1;
  for (let start = 0; start < count; start += CHUNK) {
    await store.write(async () => {
      const returns = [];
      for (let n = start; n < Math.min(count, start + CHUNK); n++) {
        const lines = 1 + (n % 3);
        returns.push(newReturn(n, lineId, lines));
        lineId += lines;
      }
      const returnIds = await insidesOf(store).db.returns.bulkAdd(returns, { allKeys: true });
      const packages = returnIds.map((returnId, index) => newPackage(start + index, returnId));
      const packageIds = await insidesOf(store).db.return_packages.bulkAdd(packages, { allKeys: true });
      const items: Array<Omit<PackageLineItem, 'id'>> = [];
      packages.forEach((pkg, index) => {
        if (pkg.status !== 'received') return;
        for (let i = 0; i < 1 + ((start + index) % 3); i++) {
          items.push({
            account_id: pkg.account_id,
            return_package_id: packageIds[index] ?? 0,
            return_line_item_id: null,
            quantity: 1,
            merchant_sku: `SW-MER-${start + index}-${i}`,
            name: 'Merino wool sweater',
            condition: 'like_new',
            defective: false,
            notes: null,
            barcode: `400${start + index}${i}`,
            tags: ['restock'],
            created_at: pkg.created_at,
            updated_at: pkg.updated_at,
          });
        }
      });
      await insidesOf(store).db.package_line_items.bulkAdd(items);
    });
  }
}

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'store-bench-'));
}

/** Baseline: raw SQLite, one single-row INSERT per transaction, WAL, synchronous=FULL. */
async function baselineInsertRate(durationMs: number): Promise<{ rate: number; p50: number; p99: number }> {
  const dir = await tempDir();
  try {
    const db = new DatabaseSync(join(dir, 'baseline.db'));
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const value = JSON.stringify(newPackage(1, 1));
    const latencies: number[] = [];
    const started = performance.now();
    while (performance.now() - started < durationMs) {
      const t0 = performance.now();
      db.exec('BEGIN');
      insert.run(value);
      db.exec('COMMIT');
      latencies.push(performance.now() - t0);
    }
    const elapsed = performance.now() - started;
    db.close();
    latencies.sort((a, b) => a - b);
    return { rate: latencies.length / (elapsed / 1000), p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Durable single-record write transactions through the store: `writers` concurrent logical writers,
 * each doing one single-record write transaction after the other (awaiting each).
 */
async function storeWriteRate(writers: number, durationMs: number): Promise<{ rate: number; p50: number; p99: number; perCommit: number; cpu: string }> {
  const dir = await tempDir();
  const store = await openStore({ dataDir: dir });
  try {
    const before = { ...storeStatsOf(store).commits };
    const latencies: number[] = [];
    let n = 0;
    const cpuBefore = ownCpuMs();
    const started = performance.now();
    const loop = async (): Promise<void> => {
      while (performance.now() - started < durationMs) {
        const t0 = performance.now();
        const i = n++;
        await store.write(['return_packages'], () => insidesOf(store).db.return_packages.add(newPackage(i, 1)));
        latencies.push(performance.now() - t0);
      }
    };
    await Promise.all(Array.from({ length: writers }, loop));
    const elapsed = performance.now() - started;
    const cpu = cpuPerOperation(ownCpuMs() - cpuBefore, latencies.length, 'write');
    const after = storeStatsOf(store).commits;
    latencies.sort((a, b) => a - b);
    return {
      cpu,
      rate: latencies.length / (elapsed / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      perCommit: (after.transactions - before.transactions) / Math.max(1, after.commits - before.commits),
    };
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export interface OpenFigures {
  open_ms: number;
  rss_mb: number;
  packages: number;
  /** Reading + parsing the SQLite rows, and filling the engine (see LoadReport). */
  read_ms: number;
  fill_ms: number;
}

export async function openInChild(dir: string, hotDays?: number): Promise<OpenFigures> {
  const args = hotDays === undefined ? [OPEN_CHILD, dir] : [OPEN_CHILD, dir, String(hotDays)];
  const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as OpenFigures;
}

/**
 * A list page with its count, timed cold: counts are remembered between commits, so before each
 * timed call a commit rewrites a package unchanged, which makes the count be computed again.
 */
export async function timeList(store: StationStore, page: number): Promise<{ p50: number; p99: number; total: number }> {
  const query = { account_id: 2, status: ['in_transit', 'delivered'] as PackageStatus[], sort: '-updated_at' as const, per_page: 25, page };
  const unchanged = await insidesOf(store).db.return_packages.get(1);
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < 200; i++) {
    if (unchanged) await store.write(() => insidesOf(store).db.return_packages.put(unchanged));
    const t0 = performance.now();
    total = store.listIds('return_packages', query).total;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), total };
}

export async function runStoreBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const base = await baselineInsertRate(2_000);
  const SQLITE = 'baseline: raw SQLite single-row insert txn (synchronous=FULL)';
  const ONE_WRITER = 'store write txn, 1 writer';
  rows.push({ section: 'store', name: SQLITE, rate: round(base.rate, 0), p50_ms: round(base.p50), p99_ms: round(base.p99) });
  const one = await storeWriteRate(1, 3_000);
  rows.push({
    section: 'store',
    name: ONE_WRITER,
    rate: round(one.rate, 0),
    p50_ms: round(one.p50),
    p99_ms: round(one.p99),
    value: `${round(one.perCommit, 1)} txn/commit; ${one.cpu}`,
    baseline: SQLITE,
  });
  const many = await storeWriteRate(32, 3_000);
  rows.push({
    section: 'store',
    name: 'store write txn, 32 writers (group commit)',
    rate: round(many.rate, 0),
    p50_ms: round(many.p50),
    p99_ms: round(many.p99),
    value: `${round(many.perCommit, 1)} txn/commit; ${many.cpu}`,
    baseline: ONE_WRITER,
    target: '≥ 3× 1 writer',
    ok: many.rate >= 3 * one.rate,
  });

  const killDir = await tempDir();
  try {
    const kill = await killRounds(killDir, KILL_ROUNDS);
    rows.push({
      section: 'store',
      name: `SIGKILL at random moments, ${kill.rounds} rounds of 16 writers`,
      value: `${kill.lost} of ${kill.acknowledged} acknowledged writes lost${kill.violations.length ? `; ${kill.violations.join('; ')}` : ''}`,
      target: 'none lost, every invariant holds',
      ok: kill.lost === 0 && kill.violations.length === 0,
    });
  } finally {
    await rm(killDir, { recursive: true, force: true });
  }

  for (const size of [10_000, 100_000]) {
    const dir = await tempDir();
    try {
      const seeding = await openStore({ dataDir: dir });
      await seed(seeding, size);
      await seeding.close();
      const opened = await openInChild(dir);
      const big = size === 100_000;
      rows.push({
        section: 'store',
        name: `open ${size.toLocaleString('en')} packages (+returns, line items)`,
        value: `${round(opened.open_ms, 0)} ms (read+parse ${round(opened.read_ms, 0)}, fill ${round(opened.fill_ms, 0)}), ${round(opened.rss_mb, 0)} MB RSS`,
        target: big ? '< 1500 ms, < 400 MB' : undefined,
        ok: big ? opened.open_ms < 1500 && opened.rss_mb < 400 : undefined,
      });
      const store = await openStore({ dataDir: dir });
      try {
        const first = await timeList(store, 1);
        const lastPage = Math.max(1, Math.ceil(first.total / 25));
        // The middle page is the slowest one: later pages are read from the other end (list-queries.ts).
        const middlePage = Math.max(1, Math.ceil(lastPage / 2));
        const pages = [
          ['first page', 1],
          [`middle page ${middlePage}`, middlePage],
          [`deep page ${lastPage}`, lastPage],
        ] as const;
        for (const [label, page] of pages) {
          const timed = label === 'first page' ? first : await timeList(store, page);
          rows.push({
            section: 'store',
            name: `list page + count at ${size.toLocaleString('en')} (${label}, ${timed.total} matches)`,
            p50_ms: round(timed.p50, 3),
            p99_ms: round(timed.p99, 3),
            target: big ? '< 5 ms' : undefined,
            ok: big ? timed.p99 < 5 : undefined,
          });
        }
      } finally {
        await store.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await runStoreBench();
  process.stdout.write(`${toMarkdown(rows)}\n`);
}
