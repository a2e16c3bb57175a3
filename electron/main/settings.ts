import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { clockOffsetFromEnv } from '../cli/cli-error.ts';
import { type Clock, fixedClock, offsetClock } from '../station/domain/clock.ts';

/**
 * The desktop app's own settings, from `<data dir>/desktop.json` (an operator edits it, e.g. for
 * kiosk mode on dock terminals), with the environment and arguments over it for testers.
 */
export const DesktopSettingsSchema = z.strictObject({
  /** Full screen, no menu, cannot be left by accident (Alt+F4 and the close button are refused). */
  kiosk: z.boolean().default(false),
  /** Devtools and the default menu in a packaged build, for support only. */
  debug: z.boolean().default(false),
  /** Seed demo data into an empty store at start (testers, demos). */
  demo: z.boolean().default(false),
  /** How long closing waits for work in flight (uploads, unsent changes) before it cuts. */
  closeDeadlineSeconds: z.int().min(1).max(600).default(20),
});
export type DesktopSettings = z.infer<typeof DesktopSettingsSchema>;

export const SETTINGS_FILE = 'desktop.json';

/**
 * The station's clock for testers: RETURNS_STATION_CLOCK_FIXED (an ISO 8601 time) stops it there;
 * RETURNS_STATION_CLOCK_OFFSET (as for `serve`) shifts it; else the system clock.
 */
export function clockFromEnv(env: NodeJS.ProcessEnv): Clock {
  const fixed = env.RETURNS_STATION_CLOCK_FIXED;
  if (fixed === undefined || fixed === '') return offsetClock(clockOffsetFromEnv(env));
  const parsed = z.iso.datetime({ offset: true }).safeParse(fixed);
  if (!parsed.success) throw new Error(`RETURNS_STATION_CLOCK_FIXED must be an ISO 8601 time such as 2027-01-04T08:00:00Z, got "${fixed}".`);
  return fixedClock(new Date(parsed.data).toISOString());
}

export function readDesktopSettings(dataDir: string, env: NodeJS.ProcessEnv, argv: readonly string[]): DesktopSettings {
  let fromFile: unknown = {};
  try {
    fromFile = JSON.parse(readFileSync(join(dataDir, SETTINGS_FILE), 'utf8'));
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) {
      throw new Error(`${join(dataDir, SETTINGS_FILE)} is not valid JSON: fix or remove it. (${String(error)})`, { cause: error });
    }
  }
  const parsed = DesktopSettingsSchema.safeParse(fromFile);
  if (!parsed.success) throw new Error(`${join(dataDir, SETTINGS_FILE)}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const flag = (name: string, envName: string, current: boolean) => argv.includes(`--${name}`) || env[envName] === '1' || current;
  return {
    ...parsed.data,
    kiosk: flag('kiosk', 'RETURNS_STATION_KIOSK', parsed.data.kiosk),
    debug: flag('debug', 'RETURNS_STATION_DEBUG', parsed.data.debug),
    demo: flag('demo', 'RETURNS_STATION_DEMO', parsed.data.demo),
  };
}
