import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { type Clock, fixedClock, offsetClock } from '../station/domain/clock.ts';
import type { StationOptions } from '../station/station.ts';
import { stationOptionsFromStartupSettings } from '../station/startup-settings.ts';

/**
 * The desktop app's own settings, from `<data dir>/desktop.json` (an operator edits it, e.g. for
 * kiosk mode on dock terminals), with the environment and arguments over it for testers.
 */
/**
 * The loopback port the desktop app's station listens on when desktop.json names none. Fixed, so the
 * window's origin (and what the UI keeps under it: unsent work in IndexedDB, packages in progress and
 * screen settings in localStorage) is the same at every start; not `serve`'s 4780, so both can run on
 * one PC on different data directories.
 */
export const DESKTOP_PORT = 4781;

/** The environment's port over desktop.json's (testers, a second app on one PC). */
export const DESKTOP_PORT_ENV = 'RETURNS_STATION_DESKTOP_PORT';

const PortSchema = z.int().min(0).max(65_535);

/** The environment's host over desktop.json's (testers). */
export const DESKTOP_HOST_ENV = 'RETURNS_STATION_DESKTOP_HOST';

/** An IP address or a host name the station binds (a hub on the site's network: `0.0.0.0`). */
const HostSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(/^(\[?[0-9A-Fa-f:.]+\]?|[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*)$/, 'an IP address or a host name');
const FileSchema = z.string().min(1).max(4096);

export const DesktopSettingsSchema = z.strictObject({
  /** Full screen, no menu, cannot be left by accident (Alt+F4 and the close button are refused). */
  kiosk: z.boolean().default(false),
  /** Devtools and the default menu in a packaged build, for support only. */
  debug: z.boolean().default(false),
  /** Seed demo data into an empty store at start (testers, demos). */
  demo: z.boolean().default(false),
  /** How long closing waits for work in flight (uploads, unsent changes) before it cuts. */
  closeDeadlineSeconds: z.int().min(1).max(600).default(20),
  /**
   * The loopback port of the station and so of the window's origin, the same at every start. Taken by
   * another program at a start: that start uses a free port and says so (docs/decisions/core-process.md).
   * 0: a free port at every start (the window's kept work does not outlive a restart of the app).
   */
  port: PortSchema.default(DESKTOP_PORT),
  /**
   * The address the station binds: loopback (the default) serves this computer only, over plain
   * HTTP; any other (`0.0.0.0`: every address, for the site's hub) serves HTTPS only, with the
   * site's certificate files when given, else the station's own (docs/decisions/hub-tls.md).
   */
  host: HostSchema.default('127.0.0.1'),
  /** The site's certificate chain and its unencrypted key (PEM files), as `serve --tls-cert --tls-key`. */
  tlsCert: FileSchema.optional(),
  tlsKey: FileSchema.optional(),
  /**
   * The station's settings an operator of a dock terminal tunes (docs/operator-guide.md): the hot
   * set's window in days and its limit of returns kept for a recent change alone, and the media
   * budget in MiB. The environment's RETURNS_STATION_HOT_DAYS (…_HOT_RECENT_MAX, …_MEDIA_BUDGET_MB)
   * wins over them, like `serve`'s flags.
   */
  hotDays: z.int().min(0).max(99_999).optional(),
  hotRecentMax: z.int().min(0).max(999_999_999).optional(),
  mediaBudgetMb: z.int().min(1).max(999_999_999).optional(),
});
export type DesktopSettings = z.infer<typeof DesktopSettingsSchema>;

export const SETTINGS_FILE = 'desktop.json';

/**
 * The station's options: the settings `serve` takes from the environment apply here too
 * (startup-settings.ts), over what desktop.json says. The clock for testers:
 * RETURNS_STATION_CLOCK_FIXED (an ISO 8601 time) stops it there; RETURNS_STATION_CLOCK_OFFSET (as for
 * `serve`) shifts it; else the system clock.
 */
export function stationOptionsOf(settings: DesktopSettings, env: NodeJS.ProcessEnv): Partial<StationOptions> & { clock: Clock } {
  const file = {
    hotDays: settings.hotDays?.toString(),
    hotRecentMax: settings.hotRecentMax?.toString(),
    mediaBudgetMb: settings.mediaBudgetMb?.toString(),
  };
  const { clockOffsetMs, ...options } = stationOptionsFromStartupSettings({ env, file });
  const fixed = env.RETURNS_STATION_CLOCK_FIXED;
  if (fixed === undefined || fixed === '') return { ...options, clock: offsetClock(clockOffsetMs) };
  const parsed = z.iso.datetime({ offset: true }).safeParse(fixed);
  if (!parsed.success) throw new Error(`RETURNS_STATION_CLOCK_FIXED must be an ISO 8601 time such as 2027-01-04T08:00:00Z, got "${fixed}".`);
  return { ...options, clock: fixedClock(new Date(parsed.data).toISOString()) };
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
    port: portFromEnv(env) ?? parsed.data.port,
    host: hostFromEnv(env) ?? parsed.data.host,
    kiosk: flag('kiosk', 'RETURNS_STATION_KIOSK', parsed.data.kiosk),
    debug: flag('debug', 'RETURNS_STATION_DEBUG', parsed.data.debug),
    demo: flag('demo', 'RETURNS_STATION_DEMO', parsed.data.demo),
  };
}

function hostFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const text = env[DESKTOP_HOST_ENV];
  if (text === undefined || text === '') return undefined;
  const parsed = HostSchema.safeParse(text);
  if (!parsed.success) throw new Error(`${DESKTOP_HOST_ENV} must be an IP address or a host name, got "${text}".`);
  return parsed.data;
}

function portFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const text = env[DESKTOP_PORT_ENV];
  if (text === undefined || text === '') return undefined;
  const parsed = PortSchema.safeParse(/^\d{1,5}$/.test(text) ? Number(text) : Number.NaN);
  if (!parsed.success) throw new Error(`${DESKTOP_PORT_ENV} must be a port from 0 to 65535, got "${text}".`);
  return parsed.data;
}
