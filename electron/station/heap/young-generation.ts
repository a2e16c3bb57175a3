import { v8FlagsOf } from './growth.ts';

/**
 * The size of V8's young generation (its two semi-spaces), which V8 fixes when the process starts.
 *
 * Node 24 on 64-bit lets each semi-space grow to 64 MiB (it has no pointer compression: twice V8's
 * 32). Under the station's steady allocation the young generation sits at its full 128 MiB between
 * the sweeps' memory-reducing GCs, which shrink it to a few MiB: the RSS of a station after a full
 * GC swung by that much with where it stood in the cycle (docs/decisions/memory-over-a-year.md).
 * A semi-space of 8 MiB holds it at 16 MiB: over 20,000 parcels at a busy dock's daily volume the
 * RSS stayed within ± 15 % where V8's own sizing swung 44 %, for the same CPU a parcel (creates
 * under 32 clients: 0–8 % more, within the noise of the shared machine).
 *
 * The flag cannot be set at runtime (`v8.setFlagsFromString` is read only when the heap is made),
 * so `returns-station serve` restarts itself in place with it, before anything else runs.
 */
export const DEFAULT_SEMI_SPACE_MB = 8;

/** The environment knob: MiB a semi-space; 0 leaves V8's own sizing. */
export const SEMI_SPACE_ENV = 'RETURNS_STATION_SEMI_SPACE_MB';

const V8_FLAG = 'max-semi-space-size';

/** The semi-space the station asks for: RETURNS_STATION_SEMI_SPACE_MB (1–1024, 0: none, V8's own), default 8. */
export function semiSpaceMbFromEnv(env: NodeJS.ProcessEnv): number | null {
  const value = env[SEMI_SPACE_ENV];
  if (value === undefined || value === '') return DEFAULT_SEMI_SPACE_MB;
  if (!/^\d{1,4}$/.test(value) || Number(value) > 1024)
    throw new RangeError(`${SEMI_SPACE_ENV} must be a whole number of MiB from 0 (V8's own sizing) to 1024, got "${value}".`);
  return Number(value) === 0 ? null : Number(value);
}

/**
 * Node's arguments in the order node applies them: NODE_OPTIONS first, then those on its command
 * line (which win over NODE_OPTIONS; the desktop's core process gets its V8 flags in one
 * `--js-flags=…` there).
 */
function nodeArgumentsInOrder(env: NodeJS.ProcessEnv, execArgv: readonly string[]): string[] {
  return [...(env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean), ...v8FlagsOf(execArgv)];
}

/**
 * V8 flags Electron got on its command line (`--js-flags=…`, how its main process takes them); none
 * under node, whose own flags are in execArgv.
 */
function electronJsFlags(argv: readonly string[], electron: boolean): string[] {
  if (!electron) return [];
  return argv.flatMap((argument) => (argument.startsWith('--js-flags=') ? argument.slice('--js-flags='.length).split(/\s+/).filter(Boolean) : []));
}

/** The semi-space size node (or Electron) was started with (the last `--max-semi-space-size` it got), or null. */
export function semiSpaceGivenToNode(
  env: NodeJS.ProcessEnv = process.env,
  execArgv: readonly string[] = process.execArgv,
  argv: readonly string[] = process.argv,
  electron = Boolean(process.versions.electron),
): number | null {
  let given: number | null = null;
  for (const argument of [...nodeArgumentsInOrder(env, execArgv), ...electronJsFlags(argv, electron)]) {
    const match = /^--max[-_]semi[-_]space[-_]size(?:=(\d+))?$/.exec(argument);
    if (match?.[1] !== undefined) given = Number(match[1]);
  }
  return given;
}

/**
 * The node flag this process lacks to get the station's young generation, or null: when node was
 * given a `--max-semi-space-size` (on its command line or in NODE_OPTIONS: the operator's, it wins)
 * or the environment asks for V8's own sizing. Throws RangeError on a bad RETURNS_STATION_SEMI_SPACE_MB.
 */
export function missingSemiSpaceFlag(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): string | null {
  const wanted = semiSpaceMbFromEnv(env);
  if (wanted === null) return null;
  const given = nodeArgumentsInOrder(env, execArgv).some((argument) => /^--max[-_]semi[-_]space[-_]size(=|$)/.test(argument));
  return given ? null : `--${V8_FLAG}=${wanted}`;
}

/**
 * Replaces this process by node started with the station's young generation (`process.execve`:
 * the same pid, stdio and environment, so signals, supervisors and the data-directory lock see one
 * process; nothing else of this one is kept), when it lacks the flag. Call it before loading
 * anything. Returns when there is nothing to do, or no way to: on Windows (no execve; set
 * NODE_OPTIONS there), if execve fails, or with a bad RETURNS_STATION_SEMI_SPACE_MB (the command
 * reports it).
 */
export function restartWithSemiSpace(): void {
  let flag: string | null;
  try {
    flag = missingSemiSpaceFlag();
  } catch {
    return;
  }
  if (flag === null || typeof process.execve !== 'function') return;
  try {
    process.execve(process.execPath, [process.execPath, ...process.execArgv, flag, ...process.argv.slice(1)], process.env);
  } catch {
    // execve refused (it returns only then): run on with V8's own sizing rather than not at all.
  }
}
