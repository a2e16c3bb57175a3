// Every fast path through fake-indexeddb's and Dexie's internals (store/fast-paths.ts)
// beside the public path on the hot-set workload (hot-set-dataset.ts: BENCH_HOT_HISTORY packages in
// history, default 1,000,000, BENCH_HOT_HOT of them hot, default 20,000), each pair in the same run:
//
// - direct-fill: open time and RSS (a fresh process per open, the two alternating, median of 3);
// - tree-reads: get-one of a hot package in-process (engine trees against Dexie's three reads), and
//   over HTTP (get-one and durable create, 32 clients) on stations started with and without it;
// - tree-compaction: the sweep sheds a day of clusters that left the window: the engine's tree
//   nodes and the JS heap after a full GC, with and without compaction;
// - trimmed-dexie-stack: the same HTTP rows with Dexie's Cache and Observability middlewares kept.
// Run alone: BENCH_SECTIONS=fastpaths npm run bench (or node --expose-gc test/bench/fast-paths-bench.ts).
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../../electron/station/domain/clock.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { FAST_PATHS, FAST_PATHS_ENV, type FastPath, openStore, type StationStore, storeStatsOf } from '../../electron/station/store/index.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';
import { startStation } from '../support/station-process.ts';
import { startHelloBaseline } from './hello-baseline.ts';
import { buildHotSetDataset, type HotSetDataset } from './hot-set-dataset.ts';
import { load, type LoadResult } from './load.ts';
import { type BenchRow, toMarkdown } from './report.ts';
import { percentile } from './store-bench.ts';

const round = (value: number, digits = 2): number => Number(value.toFixed(digits));
const OPEN_CHILD = fileURLToPath(new URL('./store-bench-open.ts', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 5);

/** Every fast path but `off` (or none), as RETURNS_STATION_FAST_PATHS spells it. */
const without = (off: FastPath | 'all'): string => (off === 'all' ? 'none' : FAST_PATHS.filter((path) => path !== off).join(','));

interface OpenFigures {
  open_ms: number;
  rss_mb: number;
  packages: number;
}

async function openInChild(dir: string, paths: string | undefined): Promise<OpenFigures> {
  // Empty: the default (every fast path).
  const env = { ...process.env, [FAST_PATHS_ENV]: paths ?? '' };
  const { stdout } = await promisify(execFile)(process.execPath, [OPEN_CHILD, dir], { maxBuffer: 1 << 20, env });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as OpenFigures;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Open with and without direct fill, alternately, `pairs` times each: the medians. */
async function openRows(dataset: HotSetDataset, label: string, target: { ms: number; mb: number }): Promise<BenchRow[]> {
  const runs: Record<'fast' | 'public', OpenFigures[]> = { fast: [], public: [] };
  for (let i = 0; i < 3; i++) {
    runs.fast.push(await openInChild(dataset.dataDir, undefined));
    runs.public.push(await openInChild(dataset.dataDir, without('direct-fill')));
  }
  const PUBLIC = `open ${label}: public path (records added through the engine's DBCore)`;
  return (['public', 'fast'] as const).map((kind) => {
    const ms = median(runs[kind].map((run) => run.open_ms));
    const mb = median(runs[kind].map((run) => run.rss_mb));
    return {
      section: 'fastpaths',
      name: kind === 'public' ? PUBLIC : `open ${label}: direct fill (trees built in one pass)`,
      value: `${round(ms, 0)} ms, ${round(mb, 0)} MB RSS (median of 3; runs ${runs[kind].map((run) => round(run.open_ms, 0)).join(', ')} ms)`,
      ...(kind === 'fast' ? { baseline: PUBLIC } : {}),
      target: `< ${target.ms / 1000} s, < ${target.mb} MB`,
      ok: ms < target.ms && mb < target.mb,
    };
  });
}

/** What GET one package reads: the package, its line items and media records, `read` one way. */
async function timeGetOne(ids: readonly number[], read: (id: number) => Promise<unknown> | unknown): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < 2_000; i++) {
    const id = ids[(i * 7919) % ids.length] ?? 1;
    const t0 = performance.now();
    if ((await read(id)) === undefined) throw new Error(`package ${id}: no answer`);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function treeReadRows(store: StationStore, dataset: HotSetDataset): Promise<BenchRow[]> {
  const viaDexie = async (id: number) => {
    const pkg = await insidesOf(store).db.return_packages.get(id);
    await insidesOf(store).db.package_line_items.where('return_package_id').equals(id).toArray();
    await insidesOf(store).db.media_files.where('return_package_id').equals(id).toArray();
    return pkg;
  };
  const viaTrees = (id: number) => {
    const pkg = insidesOf(store).inMemory.peek('return_packages', id);
    if (!pkg) return undefined;
    const items = insidesOf(store).inMemory.peekWhere('package_line_items', 'return_package_id', id, pkg.return_id);
    const media = insidesOf(store).inMemory.peekWhere('media_files', 'return_package_id', id, pkg.return_id);
    return items && media ? pkg : undefined;
  };
  // Warm both paths' code first.
  await timeGetOne(dataset.hotIds, viaDexie);
  await timeGetOne(dataset.hotIds, viaTrees);
  const dexie = await timeGetOne(dataset.hotIds, viaDexie);
  const trees = await timeGetOne(dataset.hotIds, viaTrees);
  const PUBLIC = 'get-one of a hot package in-process: public path (3 reads through Dexie)';
  return [
    { section: 'fastpaths', name: PUBLIC, p50_ms: round(dexie.p50, 4), p99_ms: round(dexie.p99, 4) },
    {
      section: 'fastpaths',
      name: 'get-one of a hot package in-process: tree reads (peek, peekWhere ×2)',
      p50_ms: round(trees.p50, 4),
      p99_ms: round(trees.p99, 4),
      baseline: PUBLIC,
    },
  ];
}

/** Sizes of the engine's trees of the cluster tables: nodes and tombstones (fake-indexeddb internals, read here only to report). */
function treeSizes(store: StationStore): { nodes: number; tombstones: number } {
  const raw = (
    insidesOf(store).db.backendDB() as unknown as {
      _rawDatabase: {
        rawObjectStores: Map<
          string,
          {
            records: { records: { _numNodes: number; _numTombstones: number } };
            rawIndexes: Map<string, { records: { records: { _numNodes: number; _numTombstones: number } } }>;
          }
        >;
      };
    }
  )._rawDatabase;
  let nodes = 0;
  let tombstones = 0;
  for (const table of ['returns', 'return_packages', 'package_line_items', 'media_files', 'change_log']) {
    const store = raw.rawObjectStores.get(table);
    if (!store) continue;
    for (const tree of [store.records.records, ...[...store.rawIndexes.values()].map((index) => index.records.records)]) {
      nodes += tree._numNodes;
      tombstones += tree._numTombstones;
    }
  }
  return { nodes, tombstones };
}

const heapAfterGc = (): number => {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

/**
 * The hot set's daily cycle: `day` cold clusters (received packages) are written to (a note), which
 * brings them into memory for the window; the clock then moves past the window and the sweep sheds
 * them again. Run on a store opened with and without compaction.
 */
async function compactionRow(
  dataDir: string,
  dataset: HotSetDataset,
  paths: string | undefined,
  day: number,
): Promise<{ nodes: number; tombstones: number; heap: number; sweepMs: number; shed: number }> {
  const previous = process.env[FAST_PATHS_ENV] ?? '';
  process.env[FAST_PATHS_ENV] = paths ?? '';
  let now = Date.now();
  const store = await openStore({ dataDir, hotSet: { sweepMs: 0, now: () => new Date(now).toISOString() } });
  process.env[FAST_PATHS_ENV] = previous;
  try {
    const ids = dataset.coldIds.slice(0, day);
    for (let start = 0; start < ids.length; start += 500) {
      const chunk = ids.slice(start, start + 500);
      await store.write(['return_packages', 'returns', 'package_line_items', 'media_files', 'upstream_links', 'outbox', 'change_log'], async () => {
        for (const id of chunk) {
          const pkg = await insidesOf(store).db.table('return_packages').get(id);
          await insidesOf(store)
            .db.table('return_packages')
            .put({ ...pkg, notes: 'bench: looked at again', updated_at: new Date(now).toISOString() });
        }
      });
    }
    await store.flush();
    now += 15 * 86_400_000;
    const t0 = performance.now();
    const shed = await store.shedCold();
    const sweepMs = performance.now() - t0;
    return { ...treeSizes(store), heap: heapAfterGc(), sweepMs, shed };
  } finally {
    await store.close();
  }
}

async function stationRows(dataset: HotSetDataset, token: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const HELLO = 'fastify hello-world (baseline)';
  const hello = await startHelloBaseline();
  try {
    const result = await load({ url: `${hello.origin}/`, durationSeconds: seconds, serverPid: hello.pid });
    rows.push({ section: 'fastpaths', name: HELLO, rate: result.rate, p50_ms: result.p50_ms, p99_ms: result.p99_ms });
  } finally {
    await hello.stop();
  }
  const helloRate = rows[0]?.rate ?? 0;
  // Account 1 holds the packages whose id is a multiple of 4; its hot ones are open (in transit).
  const accountOne = dataset.hotIds.filter((id) => id % 4 === 0);
  const pick = () => accountOne[Math.floor(Math.random() * accountOne.length)] ?? 4;
  let counter = 0;
  // BENCH_FAST_STATIONS picks the stations (today, each path's name for its public path, none);
  // BENCH_FAST_ROUNDS runs them that many times in turn, so a shared machine's drift hits each alike.
  const all: Array<[string, string, string | undefined]> = [
    ['today', 'every fast path (today)', undefined],
    ['tree-reads', 'public path for tree reads', without('tree-reads')],
    ['trimmed-dexie-stack', "Dexie's whole stack (Cache and Observability kept)", without('trimmed-dexie-stack')],
    ['none', 'no fast path', 'none'],
  ];
  const picked = new Set((process.env.BENCH_FAST_STATIONS ?? all.map(([key]) => key).join(',')).split(','));
  const rounds = Number(process.env.BENCH_FAST_ROUNDS ?? 1);
  const configs: Array<[string, string | undefined]> = [];
  for (let round = 1; round <= rounds; round++) {
    for (const [key, label, paths] of all) if (picked.has(key)) configs.push([rounds > 1 ? `${label}, round ${round}` : label, paths]);
  }
  for (const [label, paths] of configs) {
    const env = { RETURNS_STATION_ACCOUNT_RATE_LIMIT: '2000000000', RETURNS_STATION_LOG_LEVEL: 'info', [FAST_PATHS_ENV]: paths ?? '' };
    const station = await startStation({ dataDir: dataset.dataDir, env, timeoutMs: 120_000 });
    try {
      const serverPid = station.process.pid;
      const active = /"fast_paths":\[([^\]]*)\]/.exec(station.output().stderr)?.[1] ?? '?';
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const row = (name: string, result: LoadResult, extra: Partial<BenchRow>): BenchRow => {
        const failed = result.errors + result.non2xx;
        const value = [
          `server CPU ${result.cpu_us_per_request ?? '?'} µs/request`,
          `active: ${active || 'none'}`,
          ...(failed ? [`${failed} failed`] : []),
        ].join('; ');
        return { section: 'fastpaths', name, rate: result.rate, p50_ms: result.p50_ms, p99_ms: result.p99_ms, value, ...extra };
      };
      const get = await load({
        url: station.origin,
        durationSeconds: seconds,
        headers,
        serverPid,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/v1/accounts/1/return_packages/${pick()}` }) }],
      });
      rows.push(
        row(`station get-one (hot) of a package: ${label}`, get, {
          baseline: HELLO,
          target: '≥ 40% of hello-world',
          ok: get.errors + get.non2xx === 0 && get.rate >= 0.4 * helloRate,
        }),
      );
      const create = await load({
        url: station.origin,
        connections: 32,
        durationSeconds: seconds,
        headers,
        serverPid,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => ({
              ...req,
              path: '/api/v1/accounts/1/return_packages',
              body: JSON.stringify({ return_id: pick(), tracking_number: `FAST${process.pid}${counter++}` }),
            }),
          },
        ],
      });
      rows.push(
        row(`station durable create, 32 clients: ${label}`, create, { target: '≥ 2,000/s', ok: create.errors + create.non2xx === 0 && create.rate >= 2000 }),
      );
    } finally {
      await station.stop();
    }
  }
  return rows;
}

export async function runFastPathsBench(): Promise<BenchRow[]> {
  const history = Number(process.env.BENCH_HOT_HISTORY ?? 1_000_000);
  const hot = Number(process.env.BENCH_HOT_HOT ?? 20_000);
  const parts = new Set((process.env.BENCH_FAST_PARTS ?? 'open,reads,compaction,http').split(','));
  const size = history.toLocaleString('en');
  const hotSize = hot.toLocaleString('en');
  const rows: BenchRow[] = [];
  const big = await buildHotSetDataset(history, hot);
  try {
    if (parts.has('open')) {
      rows.push(...(await openRows(big, `${size} in history, ${hotSize} hot`, { ms: 1000, mb: history >= 1_000_000 ? 300 : 250 })));
      if (history > 100_000) {
        const mid = await buildHotSetDataset(100_000, Math.min(hot, 100_000));
        try {
          rows.push(...(await openRows(mid, `100,000 in history, ${Math.min(hot, 100_000).toLocaleString('en')} hot`, { ms: 1000, mb: 250 })));
        } finally {
          await rm(mid.dataDir, { recursive: true, force: true });
        }
      }
    }
    if (parts.has('reads')) {
      const store = await openStore({ dataDir: big.dataDir, hotSet: { sweepMs: 0 } });
      try {
        if (!storeStatsOf(store).fastPaths?.includes('tree-reads')) throw new Error('tree reads are not active');
        rows.push(...(await treeReadRows(store, big)));
      } finally {
        await store.close();
      }
    }
    if (parts.has('compaction')) {
      const day = Math.min(Number(process.env.BENCH_FAST_DAY ?? 10_000), big.coldIds.length);
      for (const [label, paths] of [
        ['public path (the engine rebuilds a tree at 2/3 tombstones)', without('tree-compaction')],
        ['tree compaction', undefined],
      ] as const) {
        // Each on a copy of the history as it was: the first run's writes must not reach the second.
        const copyDir = await mkdtemp(join(tmpdir(), 'bench-fast-compaction-'));
        const copy = { ...big, dataDir: copyDir };
        await cp(big.dataDir, copyDir, { recursive: true });
        try {
          const figures = await compactionRow(copy.dataDir, copy, paths, day);
          rows.push({
            section: 'fastpaths',
            name: `sweep after ${day.toLocaleString('en')} cold packages were written to and left the window (${size} in history): ${label}`,
            value: `${figures.shed} returns shed in ${round(figures.sweepMs, 0)} ms; cluster trees ${figures.nodes.toLocaleString('en')} nodes, ${figures.tombstones.toLocaleString('en')} tombstones; JS heap used after a full GC ${round(figures.heap, 0)} MiB`,
          });
        } finally {
          await rm(copyDir, { recursive: true, force: true });
        }
      }
    }
    if (parts.has('http')) {
      const store = await openStore({ dataDir: big.dataDir, hotSet: { sweepMs: 0 } });
      let token: string;
      try {
        token = (await createToken(store, systemClock, { scope: 'account', accountId: 1, name: 'bench fast paths' })).secret;
      } finally {
        await store.close();
      }
      rows.push(...(await stationRows(big, token)));
    }
  } finally {
    await rm(big.dataDir, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await runFastPathsBench();
  process.stdout.write(`${toMarkdown(rows)}\n`);
}
