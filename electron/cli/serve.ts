import { parseArgs } from 'node:util';
import { defaultDataDir } from '../station/data-dir.ts';
import { openStation } from '../station/station.ts';
import { parseLogLevel, parsePort } from './cli-error.ts';
import { RENDERER_DIR } from './paths.ts';

export const DEFAULT_PORT = 4780;

/** `returns-station serve`: runs until SIGTERM or SIGINT, then shuts down gracefully and exits 0. */
export async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
    },
  });
  const host = values.host;
  const port = parsePort(values.port, DEFAULT_PORT);
  const dataDir = values['data-dir'] ?? defaultDataDir();

  const station = await openStation({
    dataDir,
    rendererDir: RENDERER_DIR,
    command: `returns-station serve (port ${port})`,
    logLevel: parseLogLevel(process.env.RETURNS_STATION_LOG_LEVEL),
  });
  let origin: string;
  try {
    origin = await station.listen(host, port);
  } catch (error) {
    await station.close();
    throw error;
  }
  process.stdout.write(`Returns station listening on ${origin}\n`);
  station.server.log.info({ dataDir }, 'station ready');

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      station.server.log.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    station.server.log.info(`${signal}: finishing in-flight requests`);
    station.close().then(
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
