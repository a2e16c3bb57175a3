import { readStartupSetting } from '../startup-settings.ts';
import { DEFAULT_HEAP_GROWTH_PERCENT } from './growth.ts';
import { semiSpaceMbFromEnv } from './young-generation.ts';

/**
 * The V8 flags a process that will run the station starts with, where whoever starts it can give
 * them (the desktop app's core process, docs/decisions/core-process.md): the bound on the heap's
 * growth (RETURNS_STATION_HEAP_GROWTH_PERCENT as for `serve`, 0: V8's own rule) and the young
 * generation's size (RETURNS_STATION_SEMI_SPACE_MB, 0: V8's own), fixed when V8 starts instead of set
 * once the station runs. The station then finds them given (`boundHeapGrowth` leaves a growth given
 * at start alone). Throws on a bad value of either, naming it.
 */
export function stationV8Flags(env: NodeJS.ProcessEnv): string[] {
  const growthPercent = readStartupSetting('heapGrowthPercent', { env }) ?? DEFAULT_HEAP_GROWTH_PERCENT;
  const semiSpaceMb = semiSpaceMbFromEnv(env);
  return [
    ...(growthPercent === 0 ? [] : [`--heap-growing-percent=${growthPercent}`]),
    ...(semiSpaceMb === null ? [] : [`--max-semi-space-size=${semiSpaceMb}`]),
  ];
}
