// Hot-set figures: open time and RSS with a long history, get-one of a cold package,
// list page + count at that size — each beside a baseline measured in the same run.
// BENCH_HOT_HISTORY (default 1,000,000) and BENCH_HOT_HOT (default 20,000) size the history.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { openStore, STORE_FILE, type StationStore } from '../../electron/station/store/index.ts';
import { buildHotSetDataset } from './hot-set-dataset.ts';
import { type BenchRow, toMarkdown } from './report.ts';
import { openInChild, percentile } from './store-bench.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';
import type { ListQueries } from '../../electron/station/store/list-queries.ts';

const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

/** What GET one package reads from the store: the package, its line items and media records. */
async function timeGetOne(store: StationStore, ids: readonly number[], samples: number): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const id = ids[(i * 7919) % ids.length] ?? 1;
    const t0 = performance.now();
    const pkg = await insidesOf(store).db.return_packages.get(id);
    await insidesOf(store).db.package_line_items.where('return_package_id').equals(id).toArray();
    await insidesOf(store).db.media_files.where('return_package_id').equals(id).toArray();
    times.push(performance.now() - t0);
    if (!pkg) throw new Error(`package ${id} not found`);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/**
 * A list page and its count, a commit before each sample. A commit to another table (`afterPackageCommit`
 * false) keeps the remembered count and page positions (list-queries.ts), as between two package
 * commits on a station; a commit to a package forgets both, so the sample pays the count's walk and
 * the page's walk from the nearer end (the worst case).
 */
async function timeList(
  store: StationStore,
  page: number,
  samples: number,
  afterPackageCommit = false,
  hotId = 0,
): Promise<{ p50: number; p99: number; total: number }> {
  const query = { account_id: 2, status: ['received' as const], sort: '-updated_at' as const, per_page: 25, page };
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < samples; i++) {
    if (afterPackageCommit) {
      await store.write(async () => {
        const pkg = await insidesOf(store).db.table('return_packages').get(hotId);
        await insidesOf(store)
          .db.table('return_packages')
          .put({ ...pkg, notes: `bench tick ${i}` });
      });
    } else {
      await store.write(() => insidesOf(store).db.table('station_meta').put({ key: 'bench.tick', value: i }));
    }
    const t0 = performance.now();
    const { ids } = store.listIds('return_packages', query);
    total = store.count('return_packages', query);
    await insidesOf(store).db.return_packages.bulkGet(ids);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), total };
}

/**
 * A search by any part (store/sqlite/text-search-index.ts): page 1 and its count as the API asks for
 * them (one `listIds`), found afresh each sample, the records read back.
 */
async function timeSearch<T extends 'return_packages' | 'returns'>(
  store: StationStore,
  table: T,
  queryOf: (i: number) => ListQueries[T],
  samples: number,
  touchId: number,
): Promise<{ p50: number; p99: number; total: string }> {
  const times: number[] = [];
  let total = 0;
  let lowerBound = false;
  for (let i = 0; i < samples; i++) {
    const query = queryOf(i);
    // A package commit before each sample: it forgets every remembered count and page position
    // (list-queries.ts), so a repeated text is found afresh.
    await store.write(async () => {
      const pkg = await insidesOf(store).db.table('return_packages').get(touchId);
      await insidesOf(store)
        .db.table('return_packages')
        .put({ ...pkg, notes: `bench tick ${i}` });
    });
    const t0 = performance.now();
    const listed = store.listIds(table, query);
    await insidesOf(store).db.table(table).bulkGet(listed.ids);
    times.push(performance.now() - t0);
    total += listed.total;
    lowerBound ||= listed.lowerBound === true;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), total: `${lowerBound ? 'at least ' : '≈ '}${Math.round(total / samples)}` };
}

/** The search rows: selective texts (a match set) and texts in every record (read in the list's order), each beside the raw list baseline. */
export async function searchRows(
  store: StationStore,
  coldIds: readonly number[],
  size: string,
  full: boolean,
  rawP99: number,
  broadSamples = 100,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const touchId = store.listIds('return_packages', { status: ['in_transit'], sort: 'id', per_page: 1 }).ids[0] ?? 1;
  const row = (name: string, timed: { p50: number; p99: number }): void => {
    rows.push({
      section: 'hotset',
      name,
      p50_ms: round(timed.p50, 3),
      p99_ms: round(timed.p99, 3),
      value: `baseline p99 ${round(rawP99, 3)} ms`,
      target: full ? 'p99 < 20 ms' : undefined,
      ok: full ? timed.p99 < 20 : undefined,
    });
  };
  // The middle of a cold package's tracking number (1Z000000LFLS: "0lfl", a few dozen matches), and
  // part of a customer's email ("omer.12345" of customer.12345…: up to 111).
  const coldId = (i: number) => coldIds[(i * 7919) % coldIds.length] ?? 1;
  // Ids of 4 base-36 digits (≥ 36³): a smaller one's middle is zeros, the every-record case below.
  const trackingPart = (id: number) =>
    Math.max(id, 36 ** 3)
      .toString(36)
      .padStart(10, '0')
      .slice(5, 9);
  const byTracking = await timeSearch(
    store,
    'return_packages',
    (i) => ({ tracking_number_contains: trackingPart(coldId(i)), sort: '-updated_at', per_page: 25, page: 1 }),
    300,
    touchId,
  );
  row(
    `search: package list page 1 + count at ${size}, tracking number containing 4 characters of its middle (${byTracking.total} matches; records read back)`,
    byTracking,
  );
  const byEmail = await timeSearch(store, 'returns', (i) => ({ email_contains: `omer.${String(coldId(i)).slice(0, 5)}`, per_page: 25, page: 1 }), 300, touchId);
  row(`search: returns list page 1 + count at ${size}, email containing "omer.NNNNN" (${byEmail.total} matches; records read back)`, byEmail);
  const byEmailInAccount = await timeSearch(
    store,
    'returns',
    (i) => ({ account_id: 2, email_contains: `omer.${String(coldId(i)).slice(0, 3)}`, per_page: 25, page: 1 }),
    300,
    touchId,
  );
  row(`search: returns list of account 2 page 1 + count at ${size}, email containing "omer.NNN" (${byEmailInAccount.total} matches)`, byEmailInAccount);
  // Texts in every record, each counted within its budget (list-queries.ts): every email, tracking number and SKU.
  const everyEmail = await timeSearch(store, 'returns', () => ({ account_id: 2, email_contains: 'example', per_page: 25, page: 1 }), broadSamples, touchId);
  row(`search: returns list of account 2 page 1 + count at ${size}, a text every email contains ("example", ${everyEmail.total})`, everyEmail);
  const everyTracking = await timeSearch(
    store,
    'return_packages',
    () => ({ account_id: 2, tracking_number_contains: '1z0', sort: '-updated_at', per_page: 25, page: 1 }),
    broadSamples,
    touchId,
  );
  row(`search: package list of account 2 page 1 + count at ${size}, a text every tracking number contains ("1z0", ${everyTracking.total})`, everyTracking);
  const everySku = await timeSearch(store, 'returns', () => ({ account_id: 2, sku_contains: 'sw-', per_page: 25, page: 1 }), broadSamples, touchId);
  row(`search: returns list of account 2 page 1 + count at ${size}, a text every SKU contains ("sw-", ${everySku.total})`, everySku);
  const everyEmailReceived = await timeSearch(
    store,
    'returns',
    () => ({ account_id: 2, status: ['received'], email_contains: 'example', per_page: 25, page: 1 }),
    broadSamples,
    touchId,
  );
  row(`search: received returns of account 2 page 1 + count at ${size}, "example" (${everyEmailReceived.total})`, everyEmailReceived);
  rows.push(...(await everyAccountRows(store, size, full, rawP99, broadSamples, touchId)));
  return rows;
}

/**
 * The lists of every account (no `account_id`: the screens' "All accounts", a station token's
 * lists), read in their own order from the indexes without the account (sqlite/layout.ts): plain in
 * each sort, with one and several statuses, and with a text every record contains.
 */
async function everyAccountRows(store: StationStore, size: string, full: boolean, rawP99: number, samples: number, touchId: number): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const row = (name: string, timed: { p50: number; p99: number }): void => {
    rows.push({
      section: 'hotset',
      name,
      p50_ms: round(timed.p50, 3),
      p99_ms: round(timed.p99, 3),
      value: `baseline p99 ${round(rawP99, 3)} ms`,
      target: full ? 'p99 < 20 ms' : undefined,
      ok: full ? timed.p99 < 20 : undefined,
    });
  };
  const packages = (query: ListQueries['return_packages']) =>
    timeSearch(store, 'return_packages', () => ({ per_page: 25, page: 1, ...query }), samples, touchId);
  const returns = (query: ListQueries['returns']) => timeSearch(store, 'returns', () => ({ per_page: 25, page: 1, ...query }), samples, touchId);
  for (const sort of ['-created_at', 'created_at', '-updated_at', 'id'] as const) {
    const listed = await packages({ sort });
    row(`every account: package list page 1 + count at ${size}, sort ${sort} (${listed.total})`, listed);
  }
  const received = await packages({ sort: '-updated_at', status: ['received'] });
  row(`every account: received packages page 1 + count at ${size}, sort -updated_at (${received.total})`, received);
  const two = await packages({ sort: 'created_at', status: ['in_transit', 'received'] });
  row(`every account: packages in transit or received page 1 + count at ${size}, sort created_at (${two.total}; merged per status)`, two);
  const inTransit = await packages({ sort: 'id', status: ['in_transit', 'delivered'] });
  row(`every account: packages in transit or delivered page 1 + count at ${size}, sort id (${inTransit.total})`, inTransit);
  const allReturns = await returns({});
  row(`every account: returns list page 1 + count at ${size} (${allReturns.total})`, allReturns);
  const everyTracking = await packages({ sort: '-updated_at', tracking_number_contains: '1z0' });
  row(`every account: package list page 1 + count at ${size}, a text every tracking number contains ("1z0", ${everyTracking.total})`, everyTracking);
  const everyTrackingTwo = await packages({ sort: 'created_at', status: ['in_transit', 'received'], tracking_number_contains: '1z0' });
  row(`every account: packages in transit or received, sort created_at, "1z0" at ${size} (${everyTrackingTwo.total})`, everyTrackingTwo);
  const everyEmail = await returns({ email_contains: 'example' });
  row(`every account: returns list page 1 + count at ${size}, a text every email contains ("example", ${everyEmail.total})`, everyEmail);
  const everySku = await returns({ sku_contains: 'sw-' });
  row(`every account: returns list page 1 + count at ${size}, a text every SKU contains ("sw-", ${everySku.total})`, everySku);
  const everyEmailReceived = await returns({ status: ['received'], email_contains: 'example' });
  row(`every account: received returns page 1 + count at ${size}, "example" (${everyEmailReceived.total})`, everyEmailReceived);
  return rows;
}

/** Runs `work` `times` times: the longest event-loop stall during any run (node's own delay monitor) and the median run. */
async function stallOf(work: () => Promise<unknown>, times: number): Promise<{ stall: number; median: number }> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const runs: number[] = [];
  for (let i = 0; i < times; i++) {
    delay.enable();
    const t0 = performance.now();
    await work();
    runs.push(performance.now() - t0);
    delay.disable();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  runs.sort((a, b) => a - b);
  return { stall: delay.max / 1e6, median: runs[Math.floor(runs.length / 2)] ?? 0 };
}

/** The same page and count straight from SQLite, ids only: the floor any store answer sits on. */
export function timeRawList(dataDir: string, samples: number): { p50: number; p99: number } {
  const db = new DatabaseSync(join(dataDir, STORE_FILE), { readOnly: true });
  try {
    const count = db.prepare(`SELECT count(*) AS n FROM return_packages WHERE account_id = 2 AND status = 'received'`);
    const page = db.prepare(`SELECT k FROM return_packages WHERE account_id = 2 AND status = 'received' ORDER BY updated_at DESC, k DESC LIMIT 25`);
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const t0 = performance.now();
      count.get();
      page.all();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p99: percentile(times, 99) };
  } finally {
    db.close();
  }
}

export async function runHotSetBench(): Promise<BenchRow[]> {
  const history = Number(process.env.BENCH_HOT_HISTORY ?? 1_000_000);
  const hot = Number(process.env.BENCH_HOT_HOT ?? 20_000);
  const samples = 300;
  const rows: BenchRow[] = [];
  const size = history.toLocaleString('en');
  const hotSize = hot.toLocaleString('en');

  // Baseline: a station holding only the hot packages, no history.
  const alone = await buildHotSetDataset(hot, hot);
  const big = await buildHotSetDataset(history, hot);
  try {
    const ALONE = `baseline: open ${hotSize} packages, no history`;
    const aloneOpen = await openInChild(alone.dataDir);
    rows.push({ section: 'hotset', name: ALONE, value: `${round(aloneOpen.open_ms, 0)} ms, ${round(aloneOpen.rss_mb, 0)} MB RSS` });
    const bigOpen = await openInChild(big.dataDir);
    const full = history >= 1_000_000;
    rows.push({
      section: 'hotset',
      name: `open ${size} packages in history, ${hotSize} hot`,
      value: `${round(bigOpen.open_ms, 0)} ms, ${round(bigOpen.rss_mb, 0)} MB RSS, ${bigOpen.packages} packages in memory`,
      baseline: ALONE,
      target: full ? '< 1 s, < 300 MB' : undefined,
      ok: full ? bigOpen.open_ms < 1000 && bigOpen.rss_mb < 300 : undefined,
    });

    // Today's size of history (the store section's 100,000), with the same hot set.
    const mid = await buildHotSetDataset(100_000, Math.min(hot, 100_000));
    try {
      const midOpen = await openInChild(mid.dataDir);
      rows.push({
        section: 'hotset',
        name: `open 100,000 packages in history, ${Math.min(hot, 100_000).toLocaleString('en')} hot`,
        value: `${round(midOpen.open_ms, 0)} ms, ${round(midOpen.rss_mb, 0)} MB RSS, ${midOpen.packages} packages in memory`,
        baseline: ALONE,
        target: '< 1 s, < 250 MB',
        ok: midOpen.open_ms < 1000 && midOpen.rss_mb < 250,
      });
    } finally {
      await rm(mid.dataDir, { recursive: true, force: true });
    }

    // Before the store opens: it holds its database exclusively.
    const raw = timeRawList(big.dataDir, samples);
    rows.push({ section: 'hotset', name: `baseline: raw SQLite page ids + count at ${size}`, p50_ms: round(raw.p50, 3), p99_ms: round(raw.p99, 3) });
    const store = await openStore({ dataDir: big.dataDir, hotSet: { sweepMs: 0 } });
    try {
      const HOT_GET = `baseline: get-one of a hot package at ${size}`;
      const hotGet = await timeGetOne(store, big.hotIds, samples);
      rows.push({ section: 'hotset', name: HOT_GET, p50_ms: round(hotGet.p50, 3), p99_ms: round(hotGet.p99, 3) });
      const coldGet = await timeGetOne(store, big.coldIds, samples);
      rows.push({
        section: 'hotset',
        name: `get-one of a cold package at ${size} (package, line items, media from SQLite)`,
        p50_ms: round(coldGet.p50, 3),
        p99_ms: round(coldGet.p99, 3),
        value: `baseline p99 ${round(hotGet.p99, 3)} ms`,
        target: full ? 'p99 < 5 ms' : undefined,
        ok: full ? coldGet.p99 < 5 : undefined,
      });
      // The hot-set sweep (every 10 minutes) decides which clusters to shed by the open's SQL rule
      // and reads only the engine's keys; the baseline reads the hot set's records once, as the
      // sweep did before (each one cloned out of the engine), in one transaction.
      const sweep = await stallOf(() => store.shedCold(), 5);
      const CLUSTER_RECORDS = ['returns', 'return_packages', 'package_line_items', 'media_files'] as const;
      const readHot = await stallOf(
        () =>
          insidesOf(store).db.transaction('r', CLUSTER_RECORDS, () => Promise.all(CLUSTER_RECORDS.map((table) => insidesOf(store).db.table(table).toArray()))),
        5,
      );
      rows.push({
        section: 'hotset',
        name: `baseline: read the hot set's records once (${hot.toLocaleString('en')} hot packages' clusters)`,
        value: `${round(readHot.median, 0)} ms; longest event-loop stall ${round(readHot.stall, 0)} ms`,
      });
      rows.push({
        section: 'hotset',
        name: `hot-set sweep at ${size}, ${hot.toLocaleString('en')} hot, nothing to shed: longest event-loop stall`,
        value: `${round(sweep.stall, 0)} ms (median sweep ${round(sweep.median, 0)} ms); baseline ${round(readHot.stall, 0)} ms`,
      });
      const first = await timeList(store, 1, samples);
      // The middle page is the slowest one to find afresh: later pages are read from the other end,
      // and once found its rows are landmarks until a package commit (list-queries.ts).
      const middle = Math.max(1, Math.ceil(first.total / 25 / 2));
      for (const page of [1, middle]) {
        const listed = page === 1 ? first : await timeList(store, page, samples);
        rows.push({
          section: 'hotset',
          name: `list page ${page} + count at ${size} (${listed.total} received of account 2; records read back, cold)`,
          p50_ms: round(listed.p50, 3),
          p99_ms: round(listed.p99, 3),
          value: `baseline p99 ${round(raw.p99, 3)} ms`,
          target: full ? 'p99 < 20 ms' : undefined,
          ok: full ? listed.p99 < 20 : undefined,
        });
      }
      const afresh = await timeList(store, middle, 50, true, big.hotIds[0] ?? 1);
      rows.push({
        section: 'hotset',
        name: `list page ${middle} + count at ${size}, each right after a package commit (count and page found afresh)`,
        p50_ms: round(afresh.p50, 3),
        p99_ms: round(afresh.p99, 3),
        value: `baseline p99 ${round(raw.p99, 3)} ms`,
      });
      rows.push(...(await searchRows(store, big.coldIds, size, full, raw.p99)));
    } finally {
      await store.close();
    }
  } finally {
    await rm(alone.dataDir, { recursive: true, force: true });
    await rm(big.dataDir, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await runHotSetBench();
  process.stdout.write(`${toMarkdown(rows)}\n`);
}
