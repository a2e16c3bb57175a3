import { constants, PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { givenToNode } from './growth.ts';

/**
 * Gives the heap pages V8's garbage collector freed back to the operating system.
 *
 * V8 keeps the pages a GC frees in a page pool, resident, for its next allocations; only a
 * memory-reducing GC empties the pool, and V8 runs those when the process idles. A station under
 * steady load never idles, so its RSS kept the highest heap it ever reached (a step each time a GC
 * cycle overshot further), while the live heap stayed flat (docs/decisions/memory-over-a-year.md).
 *
 * `release()` turns on V8's memory-saver mode until two full GCs have finished — the first may have
 * begun marking before the switch, so only the second is sure to be a memory-reducing one, which
 * compacts the old generation and empties the pool — then turns it off again. Those GCs come on
 * their own, with the station's next allocations: nothing is forced and the event loop does not
 * wait. The station asks for one after each hot-set sweep that shed records, when a day's records
 * have just become garbage. One release at a time, process-wide (V8's
 * flags are the process's); none when node was started with `--memory-saver-mode` or
 * `--no-memory-saver-mode` (the operator's).
 */
export interface FreedPages {
  /**
   * Resolves when the pool was emptied (or `stop()` was called); joins a release under way.
   */
  release(): Promise<void>;
  /** Turns memory-saver mode off again if a release is under way; its promise resolves. */
  stop(): void;
}

/** Full GCs to wait for: the one already marking when the mode was switched on, then a reducing one. */
const FULL_GCS = 2;

/**
 * A full GC V8 ran on its own: a forced one (`gc()` under --expose-gc, as the year bench samples)
 * is never memory-reducing, so it does not count.
 */
function isOwnFullGc(entry: { detail?: unknown }): boolean {
  const detail = entry.detail as { kind?: number; flags?: number } | undefined;
  return detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR && ((detail.flags ?? 0) & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) === 0;
}

let current: { done: Promise<void>; finish: () => void } | undefined;

export const freedPages: FreedPages = {
  release() {
    if (current) return current.done;
    // Memory-saver mode set on node's command line is the operator's: leave it as it is.
    if (givenToNode('memory-saver-mode')) return Promise.resolve();
    let majors = 0;
    let finish = (): void => {};
    const done = new Promise<void>((resolve) => {
      const observer = new PerformanceObserver((list) => {
        majors += list.getEntries().filter((entry) => isOwnFullGc(entry as { detail?: unknown })).length;
        if (majors >= FULL_GCS) finish();
      });
      finish = () => {
        observer.disconnect();
        setFlagsFromString('--no-memory-saver-mode');
        current = undefined;
        resolve();
      };
      observer.observe({ entryTypes: ['gc'] });
      setFlagsFromString('--memory-saver-mode');
    });
    current = { done, finish };
    return done;
  },
  stop() {
    current?.finish();
  },
};
