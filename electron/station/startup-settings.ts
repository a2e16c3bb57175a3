import { z } from 'zod';
import type { LogLevel } from './server.ts';
import type { StationOptions } from './station.ts';

/*
 * The settings a station is started with, one list for both ways to run it: `serve` (its flags over
 * the environment) and the desktop app (the environment over desktop.json). Each is declared once
 * here: its variable, its flag, what a good value is. Not the station settings the API stores
 * (domain/station-settings.ts): these belong to the process, not to the data directory.
 * docs/operator-guide.md lists them.
 */

/** A setting with a value it cannot take: the message names the setting, what it takes and what it got. */
export class StartupSettingError extends Error {
  override name = 'StartupSettingError';
}

interface Setting<T> {
  env: string;
  /** `serve`'s flag for the same setting; a flag wins over the variable. */
  flag?: string;
  /** What the setting is, for a message that names its flag too. */
  title?: string;
  /** A good value, for the message: "must be <expect>". */
  expect: string;
  /** Parses the text; fails on what `expect` does not describe. */
  schema: z.ZodType<T, string>;
}

const wholeNumber = (maxDigits: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(new RegExp(`^\\d{1,${maxDigits}}$`))
    .transform(Number)
    .pipe(z.number().min(min).max(max));

const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const satisfies readonly LogLevel[];
const DURATION_UNITS_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Every setting, by the name the code uses. */
export const STARTUP_SETTINGS = {
  logLevel: {
    env: 'RETURNS_STATION_LOG_LEVEL',
    expect: `one of ${LOG_LEVELS.join(', ')}`,
    schema: z.enum(LOG_LEVELS),
  },
  accountRateLimit: {
    env: 'RETURNS_STATION_ACCOUNT_RATE_LIMIT',
    expect: 'a positive integer (requests per hour)',
    schema: wholeNumber(10, 1),
  },
  stationRateLimit: {
    env: 'RETURNS_STATION_STATION_RATE_LIMIT',
    expect: 'a positive integer (requests per hour)',
    schema: wholeNumber(10, 1),
  },
  clockOffset: {
    env: 'RETURNS_STATION_CLOCK_OFFSET',
    expect: 'a whole number with an optional unit (ms, s, m, h, d)',
    schema: z
      .string()
      .regex(/^-?\d{1,12}(ms|s|m|h|d)?$/)
      .transform((text) => {
        const [, amount, unit] = /^(-?\d+)([a-z]*)$/.exec(text) ?? [];
        return Number(amount) * DURATION_UNITS_MS[(unit || 'ms') as keyof typeof DURATION_UNITS_MS];
      }),
  },
  mediaBudgetMb: {
    env: 'RETURNS_STATION_MEDIA_BUDGET_MB',
    flag: 'media-budget-mb',
    title: 'media budget',
    expect: 'a positive whole number of MiB',
    schema: wholeNumber(9, 1),
  },
  hotDays: {
    env: 'RETURNS_STATION_HOT_DAYS',
    flag: 'hot-days',
    title: 'hot-set window',
    expect: 'a whole number of days (0 or more)',
    schema: wholeNumber(5),
  },
  hotRecentMax: {
    env: 'RETURNS_STATION_HOT_RECENT_MAX',
    flag: 'hot-recent-max',
    title: "hot set's limit",
    expect: 'a whole number of returns (0 or more)',
    schema: wholeNumber(9),
  },
  hotSweepMs: {
    env: 'RETURNS_STATION_HOT_SWEEP_MS',
    expect: 'a positive whole number of milliseconds',
    schema: wholeNumber(9, 1),
  },
  listCountBudget: {
    env: 'RETURNS_STATION_LIST_COUNT_BUDGET',
    expect: 'a positive whole number of rows',
    schema: wholeNumber(9, 1),
  },
  heapGrowthPercent: {
    env: 'RETURNS_STATION_HEAP_GROWTH_PERCENT',
    expect: "a whole number from 0 (V8's own rule) to 1000",
    schema: wholeNumber(4, 0, 1000),
  },
  syncIntervalMs: {
    env: 'RETURNS_STATION_SYNC_INTERVAL_MS',
    expect: 'an integer of at least 100',
    schema: wholeNumber(12, 100),
  },
  shutdownDeadlineMs: {
    env: 'RETURNS_STATION_SHUTDOWN_DEADLINE_MS',
    expect: 'a whole number of milliseconds',
    schema: wholeNumber(7),
  },
  syncOverlapMs: {
    env: 'RETURNS_STATION_SYNC_OVERLAP_MS',
    expect: 'an integer of at least 0',
    schema: wholeNumber(12),
  },
} satisfies Record<string, Setting<unknown>>;

type SettingName = keyof typeof STARTUP_SETTINGS;
type ValueOf<N extends SettingName> = z.output<(typeof STARTUP_SETTINGS)[N]['schema']>;
/** Settings' texts by name, as a flag or a settings file gave them. */
export type GivenSettings = Partial<Record<SettingName, string | undefined>>;

/** Where settings come from, in order: `serve`'s flags, then the environment, then the desktop app's desktop.json. */
export interface SettingSources {
  flags?: GivenSettings;
  env: NodeJS.ProcessEnv;
  file?: GivenSettings;
}

/** `serve`'s flags for the settings that have one, as node's `parseArgs` takes them. */
export const STARTUP_SETTING_FLAGS: Record<string, { type: 'string' }> = Object.fromEntries(
  Object.values(STARTUP_SETTINGS).flatMap((setting: Setting<unknown>) => (setting.flag ? [[setting.flag, { type: 'string' as const }]] : [])),
);

/** The settings given by flags, from `parseArgs`' values. */
export function settingsGivenByFlags(values: Record<string, unknown>): GivenSettings {
  const given: GivenSettings = {};
  for (const [name, setting] of Object.entries(STARTUP_SETTINGS) as Array<[SettingName, Setting<unknown>]>) {
    const value = setting.flag ? values[setting.flag] : undefined;
    if (typeof value === 'string') given[name] = value;
  }
  return given;
}

/** One setting's value from the first source that sets it (an empty text sets nothing); undefined when none does. */
export function readStartupSetting<N extends SettingName>(name: N, sources: SettingSources): ValueOf<N> | undefined {
  const setting: Setting<unknown> = STARTUP_SETTINGS[name];
  const text = [sources.flags?.[name], sources.env[setting.env], sources.file?.[name]].find((candidate) => candidate !== undefined && candidate !== '');
  if (text === undefined) return undefined;
  const parsed = setting.schema.safeParse(text);
  if (parsed.success) return parsed.data as ValueOf<N>;
  const label = setting.flag ? `The ${setting.title ?? name} (--${setting.flag} or ${setting.env})` : setting.env;
  throw new StartupSettingError(`${label} must be ${setting.expect}, got "${text}".`);
}

/** The station's options from its settings: only those set, so the station's own defaults hold for the rest. */
export function stationOptionsFromStartupSettings(sources: SettingSources): Partial<StationOptions> & { clockOffsetMs: number } {
  const read = <N extends SettingName>(name: N) => readStartupSetting(name, sources);
  const options: Partial<StationOptions> = {};
  const set = <K extends keyof StationOptions>(key: K, value: StationOptions[K] | undefined) => {
    if (value !== undefined) options[key] = value;
  };
  set('logLevel', read('logLevel'));
  const account = read('accountRateLimit');
  const station = read('stationRateLimit');
  if (account !== undefined || station !== undefined) {
    options.rateLimits = {
      ...(account !== undefined ? { accountTokenPerHour: account } : {}),
      ...(station !== undefined ? { stationTokenPerHour: station } : {}),
    };
  }
  const mediaBudgetMb = read('mediaBudgetMb');
  set('mediaBudgetBytes', mediaBudgetMb === undefined ? undefined : mediaBudgetMb * 1024 * 1024);
  set('hotDays', read('hotDays'));
  set('hotRecentLimit', read('hotRecentMax'));
  set('hotSweepMs', read('hotSweepMs'));
  set('listCountBudget', read('listCountBudget'));
  const heapGrowth = read('heapGrowthPercent');
  set('heapGrowthPercent', heapGrowth === undefined ? undefined : heapGrowth === 0 ? null : heapGrowth);
  set('syncPullIntervalMs', read('syncIntervalMs'));
  set('syncOverlapMs', read('syncOverlapMs'));
  return { ...options, clockOffsetMs: read('clockOffset') ?? 0 };
}
