import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what was live at the last full GC before the next
 * one, in percent. V8's own rule allows up to 4× the live size (+ the young generation's capacity)
 * on a machine with plenty of memory, and the pages a GC frees stay in V8's page pool — still
 * resident — until a memory-reducing GC, which only comes when the process idles. A station under
 * steady load therefore kept the highest heap it ever reached: at 100,000 parcels a year its RSS
 * stepped 477 → 887 MiB while the live heap stayed 55 MB. Bounding the growth to 1.5× bounds that
 * high-water mark by the live heap (docs/decisions/memory-over-a-year.md).
 */
export const DEFAULT_HEAP_GROWTH_PERCENT = 50;

const V8_FLAG = 'heap-growing-percent';

/** What the station did to V8's heap growth: set it, or left the one the process was started with. */
export type HeapGrowth = { percent: number; source: 'station' } | { source: 'command line' } | { source: 'v8' };

/**
 * Bounds V8's old-generation growth for this process (a V8 flag, read at every GC, so it takes
 * effect while the process runs). A `--heap-growing-percent` given to node on its command line or
 * in NODE_OPTIONS wins; `percent` null leaves V8's own rule.
 */
export function boundHeapGrowth(percent: number | null = DEFAULT_HEAP_GROWTH_PERCENT, startedWith: readonly string[] = nodeArguments()): HeapGrowth {
  if (givenToNode(V8_FLAG, startedWith)) return { source: 'command line' };
  if (percent === null) return { source: 'v8' };
  if (!Number.isInteger(percent) || percent < 1 || percent > 1000)
    throw new RangeError(`The heap growth must be a whole percentage from 1 to 1000, got ${percent}.`);
  setFlagsFromString(`--${V8_FLAG}=${percent}`);
  return { percent, source: 'station' };
}

/** Node's own arguments: those before the script (V8's from an Electron `--js-flags=…` one by one), and NODE_OPTIONS. */
export function nodeArguments(): string[] {
  return [...v8FlagsOf(process.execArgv), ...(process.env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean)];
}

/**
 * Arguments with an Electron `--js-flags=…` opened up into the V8 flags it holds, which node takes
 * one by one. The desktop app starts its core process with one (`utilityProcess.fork`'s execArgv,
 * docs/decisions/core-process.md); node never gets one, so under node nothing changes.
 */
export function v8FlagsOf(args: readonly string[]): string[] {
  return args.flatMap((argument) => (argument.startsWith('--js-flags=') ? argument.slice('--js-flags='.length).split(/\s+/).filter(Boolean) : [argument]));
}

/** Whether node was started with this V8 flag (`--name`, `--name=…`, `--no-name`, underscores or dashes). */
export function givenToNode(flag: string, startedWith: readonly string[] = nodeArguments()): boolean {
  return startedWith.some((argument) => new RegExp(`^--(no-)?${flag}(=|$)`).test(argument.replace(/_/g, '-')));
}
