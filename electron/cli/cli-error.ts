import { semiSpaceMbFromEnv } from '../station/heap/young-generation.ts';

/** A mistake in how the command was called: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The command was understood but refused (a taken badge, an unknown id): its message, exit code 1. */
export class CommandRefused extends Error {
  override name = 'CommandRefused';
}

export function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new UsageError(`--port must be an integer from 0 to 65535, got "${value}".`);
  return port;
}

const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function parseLogLevel(value: string | undefined): LogLevel {
  if (value === undefined || value === '') return 'info';
  const level = LOG_LEVELS.find((candidate) => candidate === value);
  if (!level) throw new UsageError(`RETURNS_STATION_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${value}".`);
  return level;
}

/**
 * Rate limits from the environment (requests per hour): RETURNS_STATION_ACCOUNT_RATE_LIMIT (default
 * 1000, the returns service's figure), RETURNS_STATION_STATION_RATE_LIMIT (default: not throttled).
 */
export function rateLimitsFromEnv(env: NodeJS.ProcessEnv): { accountTokenPerHour?: number; stationTokenPerHour?: number } {
  const read = (name: string): number | undefined => {
    const value = env[name];
    if (value === undefined || value === '') return undefined;
    if (!/^[1-9]\d{0,9}$/.test(value)) throw new UsageError(`${name} must be a positive integer (requests per hour), got "${value}".`);
    return Number(value);
  };
  const account = read('RETURNS_STATION_ACCOUNT_RATE_LIMIT');
  const station = read('RETURNS_STATION_STATION_RATE_LIMIT');
  return { ...(account ? { accountTokenPerHour: account } : {}), ...(station ? { stationTokenPerHour: station } : {}) };
}

/**
 * RETURNS_STATION_CLOCK_OFFSET shifts the station's clock, for tests of what happens days later
 * (retention, expiry) through the real command: `8d`, `-1h`, `90m`, `30s` or milliseconds.
 */
export function clockOffsetFromEnv(env: NodeJS.ProcessEnv): number {
  const value = env.RETURNS_STATION_CLOCK_OFFSET;
  if (value === undefined || value === '') return 0;
  const match = /^(-?\d{1,12})(ms|s|m|h|d)?$/.exec(value);
  if (!match?.[1]) throw new UsageError(`RETURNS_STATION_CLOCK_OFFSET must be a whole number with an optional unit (ms, s, m, h, d), got "${value}".`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? 'ms'] ?? 1;
  return Number(match[1]) * unit;
}

/**
 * The media budget in bytes from `--media-budget-mb` or RETURNS_STATION_MEDIA_BUDGET_MB (whole MiB);
 * null when neither is given (then only the disk limits media).
 */
export function mediaBudgetBytes(flag: string | undefined, env: NodeJS.ProcessEnv): number | null {
  const value = flag ?? env.RETURNS_STATION_MEDIA_BUDGET_MB;
  if (value === undefined || value === '') return null;
  if (!/^[1-9]\d{0,8}$/.test(value)) throw new UsageError(`The media budget (--media-budget-mb or RETURNS_STATION_MEDIA_BUDGET_MB) must be a positive whole number of MiB, got "${value}".`);
  return Number(value) * 1024 * 1024;
}

/**
 * The hot set's window in days from `--hot-days` or RETURNS_STATION_HOT_DAYS (0: only open and
 * unsent records stay in memory; default 14), the most returns kept for a recent change alone from
 * `--hot-recent-max` or RETURNS_STATION_HOT_RECENT_MAX (default 100,000), and
 * RETURNS_STATION_HOT_SWEEP_MS, how often records that left it are shed (default 10 minutes; tests
 * shorten it). docs/decisions/store-hot-set.md.
 */
export function hotSetFromEnv(
  flags: { days?: string | undefined; recentMax?: string | undefined },
  env: NodeJS.ProcessEnv,
): { hotDays?: number; hotRecentLimit?: number; hotSweepMs?: number } {
  const days = flags.days ?? env.RETURNS_STATION_HOT_DAYS;
  const recentMax = flags.recentMax ?? env.RETURNS_STATION_HOT_RECENT_MAX;
  const sweep = env.RETURNS_STATION_HOT_SWEEP_MS;
  const result: { hotDays?: number; hotRecentLimit?: number; hotSweepMs?: number } = {};
  if (days !== undefined && days !== '') {
    if (!/^\d{1,5}$/.test(days)) throw new UsageError(`The hot-set window (--hot-days or RETURNS_STATION_HOT_DAYS) must be a whole number of days (0 or more), got "${days}".`);
    result.hotDays = Number(days);
  }
  if (recentMax !== undefined && recentMax !== '') {
    if (!/^\d{1,9}$/.test(recentMax)) {
      throw new UsageError(`The hot set's limit (--hot-recent-max or RETURNS_STATION_HOT_RECENT_MAX) must be a whole number of returns (0 or more), got "${recentMax}".`);
    }
    result.hotRecentLimit = Number(recentMax);
  }
  if (sweep !== undefined && sweep !== '') {
    if (!/^[1-9]\d{0,8}$/.test(sweep)) throw new UsageError(`RETURNS_STATION_HOT_SWEEP_MS must be a positive whole number of milliseconds, got "${sweep}".`);
    result.hotSweepMs = Number(sweep);
  }
  return result;
}

/** RETURNS_STATION_HEAP_GROWTH_PERCENT: how far V8's heap may grow past the live heap (1–1000; 0: V8's own rule). */
export function heapGrowthFromEnv(env: NodeJS.ProcessEnv): { heapGrowthPercent?: number | null } {
  const value = env.RETURNS_STATION_HEAP_GROWTH_PERCENT;
  if (value === undefined || value === '') return {};
  if (!/^\d{1,4}$/.test(value) || Number(value) > 1000) throw new UsageError(`RETURNS_STATION_HEAP_GROWTH_PERCENT must be a whole number from 0 (V8's own rule) to 1000, got "${value}".`);
  return { heapGrowthPercent: Number(value) === 0 ? null : Number(value) };
}

/**
 * RETURNS_STATION_SEMI_SPACE_MB, checked for `serve`: bin/returns-station.js already restarted node
 * with it (heap/young-generation.ts), or skipped a bad value, which is reported here.
 */
export function semiSpaceFromEnv(env: NodeJS.ProcessEnv): number | null {
  try {
    return semiSpaceMbFromEnv(env);
  } catch (error) {
    throw new UsageError((error as RangeError).message);
  }
}

/** RETURNS_STATION_SHUTDOWN_DEADLINE_MS: how long SIGTERM waits for in-flight requests (default 5000). */
export function shutdownDeadlineMs(env: NodeJS.ProcessEnv): number | undefined {
  const value = env.RETURNS_STATION_SHUTDOWN_DEADLINE_MS;
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,7}$/.test(value)) throw new UsageError(`RETURNS_STATION_SHUTDOWN_DEADLINE_MS must be a whole number of milliseconds, got "${value}".`);
  return Number(value);
}
