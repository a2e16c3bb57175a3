import type { CommitLoop } from '../durability/commit-loop.ts';
import type { HotSetOptions } from '../hot-set/rule.ts';
import { sweepCompaction } from '../hot-set/compact-trees.ts';
import { shedCold } from '../hot-set/shed.ts';
import type { OpenStoreOptions } from '../station-store.ts';
import type { OpenedEngine } from './engine.ts';
import type { StoreLifecycle } from './store-writes.ts';

const DEFAULT_SWEEP_MS = 10 * 60_000;

export interface HotSetSweeper {
  /** Sweeps now (or joins the sweep under way); resolves to the returns shed. */
  sweep(): Promise<number>;
  /** No further sweeps; resolves once the one under way is over. */
  stop(): Promise<void>;
}

/**
 * The hot-set sweep (hot-set/shed.ts): every `sweepMs` and on demand, one at a time, after every
 * write so far is durable; none once the store is closed.
 */
export function hotSetSweeper(
  engine: OpenedEngine,
  loop: CommitLoop,
  hotSet: HotSetOptions,
  options: OpenStoreOptions['hotSet'],
  lifecycle: StoreLifecycle,
  compact: boolean,
): HotSetSweeper {
  let sweeping: Promise<number> | undefined;
  // Each sweep also compacts the engine's trees its deletes and housekeeping's filled with tombstones
  // (the fast path `tree-compaction`, fast-paths.ts; without it the engine's own rebuild bounds them).
  const compaction = compact ? sweepCompaction(() => engine.db.backendDB()) : undefined;
  const sweep = (): Promise<number> => {
    if (lifecycle.closed) return Promise.resolve(0);
    sweeping ??= loop
      .idle()
      .then(() => (lifecycle.closed ? 0 : shedCold(engine.hot, hotSet, () => loop.settled, compaction)))
      .then((shed) => {
        if (shed > 0) options?.onShed?.(shed);
        return shed;
      })
      .finally(() => {
        sweeping = undefined;
      });
    return sweeping;
  };
  const sweepMs = options?.sweepMs ?? DEFAULT_SWEEP_MS;
  const timer =
    sweepMs > 0
      ? setInterval(() => {
          sweep().catch((error: unknown) => console.error('Returns station store: the hot-set sweep failed (retried at the next one)', error));
        }, sweepMs)
      : undefined;
  timer?.unref();
  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await sweeping?.catch(() => 0);
    },
  };
}
