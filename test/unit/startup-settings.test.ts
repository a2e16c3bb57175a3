import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { USAGE } from '../../electron/cli/usage.ts';
import { DEFAULT_PULL_INTERVAL_MS } from '../../electron/station/sync/scheduler.ts';
import {
  readStartupSetting,
  STARTUP_SETTING_FLAGS,
  STARTUP_SETTINGS,
  StartupSettingError,
  settingsGivenByFlags,
  stationOptionsFromStartupSettings,
} from '../../electron/station/startup-settings.ts';

/*
 * The station's settings from outside (flags, environment, desktop.json), read the same way by
 * `serve` and the desktop app. The commands' own tests (cli-serve, desktop/shell) go through the door.
 */

describe('station settings', () => {
  it('sets only what is given, so the station keeps its own defaults for the rest', () => {
    expect(stationOptionsFromStartupSettings({ env: {} })).toEqual({ clockOffsetMs: 0 });
    expect(stationOptionsFromStartupSettings({ env: { RETURNS_STATION_HOT_DAYS: '', RETURNS_STATION_LOG_LEVEL: '' } })).toEqual({ clockOffsetMs: 0 });
  });

  it('turns every setting into the option the station takes', () => {
    const env = {
      RETURNS_STATION_LOG_LEVEL: 'warn',
      RETURNS_STATION_ACCOUNT_RATE_LIMIT: '500',
      RETURNS_STATION_STATION_RATE_LIMIT: '90000',
      RETURNS_STATION_CLOCK_OFFSET: '-2d',
      RETURNS_STATION_MEDIA_BUDGET_MB: '3',
      RETURNS_STATION_HOT_DAYS: '0',
      RETURNS_STATION_HOT_RECENT_MAX: '5000',
      RETURNS_STATION_HOT_SWEEP_MS: '300',
      RETURNS_STATION_LIST_COUNT_BUDGET: '40',
      RETURNS_STATION_HEAP_GROWTH_PERCENT: '0',
      RETURNS_STATION_SYNC_INTERVAL_MS: '100',
      RETURNS_STATION_SYNC_OVERLAP_MS: '0',
    };
    expect(stationOptionsFromStartupSettings({ env })).toEqual({
      clockOffsetMs: -2 * 86_400_000,
      logLevel: 'warn',
      rateLimits: { accountTokenPerHour: 500, stationTokenPerHour: 90_000 },
      mediaBudgetBytes: 3 * 1024 * 1024,
      hotDays: 0,
      hotRecentLimit: 5000,
      hotSweepMs: 300,
      listCountBudget: 40,
      // 0: V8's own rule, which the station takes as null.
      heapGrowthPercent: null,
      syncPullIntervalMs: 100,
      syncOverlapMs: 0,
    });
    expect(stationOptionsFromStartupSettings({ env: { RETURNS_STATION_HEAP_GROWTH_PERCENT: '75' } }).heapGrowthPercent).toBe(75);
  });

  it('reads a clock offset in any of its units', () => {
    const offset = (text: string) => readStartupSetting('clockOffset', { env: { RETURNS_STATION_CLOCK_OFFSET: text } });
    expect([offset('1500'), offset('30s'), offset('90m'), offset('-1h'), offset('8d'), offset('250ms')]).toEqual([
      1500, 30_000, 5_400_000, -3_600_000, 691_200_000, 250,
    ]);
  });

  it('takes a flag over the environment, and the environment over a settings file', () => {
    const env = { RETURNS_STATION_HOT_DAYS: '7' };
    expect(readStartupSetting('hotDays', { flags: { hotDays: '3' }, env, file: { hotDays: '30' } })).toBe(3);
    expect(readStartupSetting('hotDays', { env, file: { hotDays: '30' } })).toBe(7);
    expect(readStartupSetting('hotDays', { env: {}, file: { hotDays: '30' } })).toBe(30);
    // An empty variable is as good as none.
    expect(readStartupSetting('hotDays', { env: { RETURNS_STATION_HOT_DAYS: '' }, file: { hotDays: '30' } })).toBe(30);
  });

  it('refuses a bad value of any setting, naming the setting, what it takes and what it got', () => {
    const bad: Record<keyof typeof STARTUP_SETTINGS, string[]> = {
      logLevel: ['verbose', 'INFO'],
      accountRateLimit: ['0', '-5', '1e3', 'many'],
      stationRateLimit: ['0', '12345678901'],
      clockOffset: ['8 days', '1w', '1.5h'],
      mediaBudgetMb: ['0', '1.5', '1GB'],
      hotDays: ['-1', '14d', '123456'],
      hotRecentMax: ['lots', '-1', '1e5'],
      hotSweepMs: ['0', '10m'],
      listCountBudget: ['0', '-1', '1k', '1234567890'],
      heapGrowthPercent: ['1001', '-1', '50%'],
      syncIntervalMs: ['99', 'soon'],
      syncOverlapMs: ['-1', '2m'],
      shutdownDeadlineMs: ['-1', '5s', '12345678'],
    };
    for (const [name, values] of Object.entries(bad) as Array<[keyof typeof STARTUP_SETTINGS, string[]]>) {
      const setting = STARTUP_SETTINGS[name];
      for (const value of values) {
        const read = () => readStartupSetting(name, { env: { [setting.env]: value } });
        expect(read, `${name}=${value}`).toThrow(StartupSettingError);
        expect(read, `${name}=${value}`).toThrow(`must be ${setting.expect}, got "${value}".`);
        expect(read, `${name}=${value}`).toThrow(setting.env);
      }
    }
    expect(() => readStartupSetting('hotRecentMax', { flags: { hotRecentMax: 'lots' }, env: {} })).toThrow(
      `The hot set's limit (--hot-recent-max or RETURNS_STATION_HOT_RECENT_MAX) must be a whole number of returns (0 or more), got "lots".`,
    );
  });

  it("gives serve a flag for each setting that has one, and reads them back from parseArgs' values", () => {
    expect(Object.keys(STARTUP_SETTING_FLAGS).sort()).toEqual(['hot-days', 'hot-recent-max', 'media-budget-mb']);
    expect(settingsGivenByFlags({ 'hot-days': '2', 'media-budget-mb': '10', demo: true, host: '0.0.0.0' })).toEqual({ hotDays: '2', mediaBudgetMb: '10' });
  });
});

describe('the pull interval as documented', () => {
  it("is the code's default, said in the settings table and in the usage text, and nowhere else as a number", () => {
    const guide = readFileSync(new URL('../../docs/operator-guide.md', import.meta.url), 'utf8');
    expect(guide).toContain(
      `| \`RETURNS_STATION_SYNC_INTERVAL_MS\` | the pull interval: how often the station pulls from the upstream | ${DEFAULT_PULL_INTERVAL_MS} (${DEFAULT_PULL_INTERVAL_MS / 60_000} minutes) |`,
    );
    expect(USAGE).toContain(`RETURNS_STATION_SYNC_INTERVAL_MS (pull interval of serve, default ${DEFAULT_PULL_INTERVAL_MS})`);
    const docs = [
      'README.md',
      'docs/operator-guide.md',
      'docs/architecture.md',
      ...readdirSync(new URL('../../docs/decisions/', import.meta.url)).map((name) => `docs/decisions/${name}`),
    ];
    for (const doc of docs) {
      const text = readFileSync(new URL(`../../${doc}`, import.meta.url), 'utf8');
      // Any other figure for the interval (a stale 150000, a "pull every 5 minutes") would contradict the table.
      expect(text.match(/\b(150[,.]?000|pull(?: round)? every \d+ minutes?)\b/g) ?? [], doc).toEqual([]);
    }
  });
});
