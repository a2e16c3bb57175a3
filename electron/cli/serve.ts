import { parseArgs } from 'node:util';
import {
  defaultDataDir,
  openStation,
  type Station,
  demoGuide,
  seedDemo,
  createToken,
  revokeToken,
  removeControl,
  writeControl,
  readStartupSetting,
  STARTUP_SETTING_FLAGS,
  StartupSettingError,
  settingsGivenByFlags,
  stationOptionsFromStartupSettings,
  semiSpaceMbFromEnv,
  daysAfter,
  offsetClock,
  tlsRequestFor,
  TlsSettingsError,
} from '../station/index.ts';
import { UsageError } from './cli-error.ts';
import { RENDERER_DIR } from './paths.ts';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4780;
/** How long the printed UI link's station token stays valid. */
const UI_LINK_DAYS = 7;
/** The command line's token is revoked when serve stops; this bounds it after a crash. */
const CONTROL_TOKEN_DAYS = 30;

function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new UsageError(`--port must be an integer from 0 to 65535, got "${value}".`);
  return port;
}

/** TLS beyond loopback, or with the site's certificate files (tls/serving-tls.ts); half a pair is a usage error. */
function tlsRequestOf(host: string, certFile: string | undefined, keyFile: string | undefined) {
  try {
    return tlsRequestFor(host, { certFile, keyFile });
  } catch (error) {
    if (error instanceof TlsSettingsError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * The station's settings (startup-settings.ts: flags over the environment), and the two only `serve`
 * has: the shutdown deadline, and RETURNS_STATION_SEMI_SPACE_MB, which bin/returns-station.js already
 * applied by restarting node (heap/young-generation.ts) or skipped when bad: reported here. A bad
 * value is a usage error (exit code 2).
 */
function serveSettings(values: Record<string, unknown>, env: NodeJS.ProcessEnv) {
  try {
    semiSpaceMbFromEnv(env);
    const { clockOffsetMs, ...options } = stationOptionsFromStartupSettings({ flags: settingsGivenByFlags(values), env });
    // How long SIGTERM lets in-flight requests finish (only `serve` has it: the desktop app has desktop.json's).
    return { deadlineMs: readStartupSetting('shutdownDeadlineMs', { env }), clock: offsetClock(clockOffsetMs), options };
  } catch (error) {
    if (error instanceof StartupSettingError || error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
}

/** `returns-station serve`: runs until SIGTERM or SIGINT, then shuts down gracefully and exits 0. */
export async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      host: { type: 'string', default: DEFAULT_HOST },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      demo: { type: 'boolean', default: false },
      'new-store': { type: 'boolean', default: false },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      ...STARTUP_SETTING_FLAGS,
    },
  });
  const host = values.host;
  const port = parsePort(values.port, DEFAULT_PORT);
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const tls = tlsRequestOf(host, values['tls-cert'], values['tls-key']);

  const { deadlineMs, clock, options } = serveSettings(values, process.env);
  const station = await openStation({
    ...options,
    dataDir,
    rendererDir: RENDERER_DIR,
    command: `returns-station serve (port ${port})`,
    clock,
    newStore: values['new-store'],
    tls,
  });
  let origin: string;
  try {
    origin = await station.listen(host, port);
  } catch (error) {
    await station.close();
    throw error;
  }
  if (values.demo) {
    const { seeded } = await seedDemo(station.ctx);
    station.server.log.info(seeded ? 'demo data seeded' : 'the store is not empty: demo data not seeded');
  }
  // A terminal's station token for the operator UI, in the link's fragment: never sent to a server
  // or logged. It does the dock's work; settings need a supervisor's session (badge and PIN).
  const { secret } = await createToken(station.store, station.ctx.clock, {
    scope: 'station',
    role: 'terminal',
    accountId: null,
    name: `UI link of serve on ${origin}`,
    expiresAt: daysAfter(station.ctx.clock.now(), UI_LINK_DAYS),
  });
  // The command line's way in while this station holds the directory (token, operator): administrative.
  const control = await createToken(station.store, station.ctx.clock, {
    scope: 'station',
    role: 'admin',
    accountId: null,
    name: `Command line of serve on ${origin}`,
    expiresAt: daysAfter(station.ctx.clock.now(), CONTROL_TOKEN_DAYS),
  });
  writeControl(dataDir, {
    origin,
    token: control.secret,
    token_id: control.token.id,
    pid: process.pid,
    ...(station.tls ? { tls: { ca: station.tls.trustPem, served_sha256: station.tls.servedSha256 } } : {}),
  });
  // Listen for signals before announcing readiness: a supervisor may stop us the moment it reads the line.
  stopOnSignals(station, deadlineMs, () => {
    removeControl(dataDir);
    return revokeToken(station.store, station.ctx.clock, control.token.id).then(() => undefined);
  });
  process.stdout.write(`Returns station listening on ${origin}\n`);
  process.stdout.write(`Open the station UI: ${origin}/#token=${secret}\n`);
  if (station.tls) process.stdout.write(`TLS certificate to trust (SHA-256): ${station.tls.trustSha256}\n`);
  if (values.demo) process.stdout.write(`${demoGuide().join('\n')}\n`);
  station.server.log.info({ dataDir }, 'station ready');
}

/** SIGTERM/SIGINT: finish in-flight requests, flush and exit 0; a second signal exits at once. */
function stopOnSignals(station: Station, deadlineMs: number | undefined, beforeClose: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      station.server.log.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    station.server.log.info(`${signal}: finishing in-flight requests`);
    beforeClose()
      .catch(() => undefined)
      .then(() => station.close(deadlineMs === undefined ? {} : { deadlineMs }))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          station.server.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
