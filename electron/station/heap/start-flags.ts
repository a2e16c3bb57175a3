import { DEFAULT_HEAP_GROWTH_PERCENT } from './growth.ts';
import { semiSpaceMbFromEnv } from './young-generation.ts';

/**
 * The V8 flags a process that will run the station starts with, where whoever starts it can give
 * them (the desktop app's core process, docs/decisions/core-process.md): the bound on the heap's
 * growth and the young generation's size (RETURNS_STATION_SEMI_SPACE_MB; 0 leaves V8's own), fixed
 * when V8 starts instead of set once the station runs. The station then finds them given
 * (`boundHeapGrowth` leaves a growth given at start alone). Throws RangeError on a bad
 * RETURNS_STATION_SEMI_SPACE_MB.
 */
export function stationV8Flags(env: NodeJS.ProcessEnv): string[] {
  const semiSpaceMb = semiSpaceMbFromEnv(env);
  return [`--heap-growing-percent=${DEFAULT_HEAP_GROWTH_PERCENT}`, ...(semiSpaceMb === null ? [] : [`--max-semi-space-size=${semiSpaceMb}`])];
}
