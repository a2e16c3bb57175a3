// Child process of the store bench: opens the store in argv[2] in a fresh process (hot-set window
// argv[3] days when given) and prints {open_ms, rss_mb, packages, read_ms, fill_ms, hot_returns} as
// JSON, so RSS is the store's alone.
import { openStore, storeStatsOf } from '../../electron/station/store/index.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

const days = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
const started = performance.now();
const store = await openStore({ dataDir: process.argv[2] ?? '', ...(days === undefined ? {} : { hotSet: { days } }) });
const openMs = performance.now() - started;
const packages = await insidesOf(store).db.return_packages.count();
const rssMb = process.memoryUsage().rss / 1024 / 1024;
const load = storeStatsOf(store).load;
await store.close();
process.stdout.write(
  `${JSON.stringify({ open_ms: openMs, rss_mb: rssMb, packages, read_ms: load?.readMs ?? 0, fill_ms: load?.fillMs ?? 0, hot_returns: load?.hotReturns ?? 0 })}\n`,
);
