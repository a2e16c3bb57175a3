/**
 * The store's fast paths through fake-indexeddb's and Dexie's private internals, each beside a
 * public path that does the same work (docs/decisions/store-fast-paths.md lists them, what each
 * one buys against a target, and what it reads):
 *
 * - `direct-fill`: the open builds the engine's search trees in one pass each (direct-fill.ts)
 *   instead of adding the loaded records through the engine's DBCore (load.ts, loadThroughCore);
 * - `tree-reads`: the get-one and in-write reads walk the engine's trees (engine-reads.ts) instead
 *   of reading through Dexie;
 * - `tree-compaction`: the hot-set sweep rebuilds trees full of tombstones
 *   (hot-set/compact-trees.ts) instead of leaving them to the engine's own rebuild;
 * - `trimmed-dexie-stack`: Dexie's own Cache and Observability middlewares are taken out by their
 *   (undocumented) names (engine.ts) instead of running on every transaction.
 *
 * `RETURNS_STATION_FAST_PATHS` picks them, for the bench and for a station that must run on the
 * public path alone: unset, every path on (today's choice); `none`; or a comma list of names.
 * Each path still checks the engine's shape and takes the public path when it differs; the
 * store reports which ones are active (StoreStats.fastPaths), and a station logs it at start.
 */

export const FAST_PATHS = ['direct-fill', 'tree-reads', 'tree-compaction', 'trimmed-dexie-stack'] as const;
export type FastPath = (typeof FAST_PATHS)[number];

export const FAST_PATHS_ENV = 'RETURNS_STATION_FAST_PATHS';

/** The fast paths `value` (the environment's, by default) asks for; an unknown name is refused. */
export function wantedFastPaths(value: string | undefined = process.env[FAST_PATHS_ENV]): ReadonlySet<FastPath> {
  if (value === undefined || value.trim() === '') return new Set(FAST_PATHS);
  if (value.trim() === 'none') return new Set();
  const wanted = new Set<FastPath>();
  for (const name of value.split(',').map((part) => part.trim())) {
    if (!(FAST_PATHS as readonly string[]).includes(name)) {
      throw new Error(`${FAST_PATHS_ENV}: unknown fast path "${name}" (expected none, or a comma list of ${FAST_PATHS.join(', ')}).`);
    }
    wanted.add(name as FastPath);
  }
  return wanted;
}
