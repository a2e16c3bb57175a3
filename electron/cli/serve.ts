import { parseArgs } from 'node:util';
import { defaultDataDir } from '../station/data-dir.ts';
import { openStation, type Station } from '../station/station.ts';
import { seedDemo } from '../station/demo/seed-demo.ts';
import { createToken, revokeToken } from '../station/domain/tokens.ts';
import { removeControl, writeControl } from '../station/control-file.ts';
import { clockOffsetFromEnv, heapGrowthFromEnv, hotSetFromEnv, mediaBudgetBytes, shutdownDeadlineMs, parseLogLevel, parsePort, rateLimitsFromEnv, semiSpaceFromEnv, UsageError } from './cli-error.ts';
import { daysAfter, offsetClock } from '../station/domain/clock.ts';
import { RENDERER_DIR } from './paths.ts';

export const DEFAULT_PORT = 4780;
/** How long the printed UI link's station token stays valid. */
const UI_LINK_DAYS = 7;
/** The command line's token is revoked when serve stops; this bounds it after a crash. */
const CONTROL_TOKEN_DAYS = 30;

/** RETURNS_STATION_SYNC_INTERVAL_MS (pull interval) and RETURNS_STATION_SYNC_OVERLAP_MS (re-read window, for tests). */
function syncIntervalFromEnv(env: NodeJS.ProcessEnv): { syncPullIntervalMs?: number; syncOverlapMs?: number } {
  const read = (name: string, min: number): number | undefined => {
    const value = env[name];
    if (value === undefined || value === '') return undefined;
    if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`${name} must be an integer of at least ${min}, got "${value}".`);
    return Number(value);
  };
  const interval = read('RETURNS_STATION_SYNC_INTERVAL_MS', 100);
  const overlap = read('RETURNS_STATION_SYNC_OVERLAP_MS', 0);
  return { ...(interval !== undefined ? { syncPullIntervalMs: interval } : {}), ...(overlap !== undefined ? { syncOverlapMs: overlap } : {}) };
}

/** `returns-station serve`: runs until SIGTERM or SIGINT, then shuts down gracefully and exits 0. */
export async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      demo: { type: 'boolean', default: false },
      'media-budget-mb': { type: 'string' },
      'new-store': { type: 'boolean', default: false },
      'hot-days': { type: 'string' },
      'hot-recent-max': { type: 'string' },
    },
  });
  const host = values.host;
  const port = parsePort(values.port, DEFAULT_PORT);
  const dataDir = values['data-dir'] ?? defaultDataDir();

  const deadlineMs = shutdownDeadlineMs(process.env);
  semiSpaceFromEnv(process.env);
  const station = await openStation({
    dataDir,
    rendererDir: RENDERER_DIR,
    command: `returns-station serve (port ${port})`,
    logLevel: parseLogLevel(process.env.RETURNS_STATION_LOG_LEVEL),
    rateLimits: rateLimitsFromEnv(process.env),
    clock: offsetClock(clockOffsetFromEnv(process.env)),
    mediaBudgetBytes: mediaBudgetBytes(values['media-budget-mb'], process.env),
    newStore: values['new-store'],
    ...hotSetFromEnv({ days: values['hot-days'], recentMax: values['hot-recent-max'] }, process.env),
    ...heapGrowthFromEnv(process.env),
    ...syncIntervalFromEnv(process.env),
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
  // A station token for the operator UI, in the link's fragment: never sent to a server or logged.
  const { secret } = await createToken(station.store, station.ctx.clock, {
    scope: 'station',
    accountId: null,
    name: `UI link of serve on ${origin}`,
    expiresAt: daysAfter(station.ctx.clock.now(), UI_LINK_DAYS),
  });
  // The command line's way in while this station holds the directory (token create/list/revoke).
  const control = await createToken(station.store, station.ctx.clock, {
    scope: 'station',
    accountId: null,
    name: `Command line of serve on ${origin}`,
    expiresAt: daysAfter(station.ctx.clock.now(), CONTROL_TOKEN_DAYS),
  });
  writeControl(dataDir, { origin, token: control.secret, token_id: control.token.id, pid: process.pid });
  // Listen for signals before announcing readiness: a supervisor may stop us the moment it reads the line.
  stopOnSignals(station, deadlineMs, () => {
    removeControl(dataDir);
    return revokeToken(station.store, station.ctx.clock, control.token.id).then(() => undefined);
  });
  process.stdout.write(`Returns station listening on ${origin}\n`);
  process.stdout.write(`Open the station UI: ${origin}/#token=${secret}\n`);
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
