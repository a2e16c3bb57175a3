import { seedDemo, daysAfter, createToken, openStation, type Station, tlsRequestFor } from '../station/index.ts';
import { stationOptionsOf } from '../main/settings.ts';
import type { FromCore, ToCore } from './protocol.ts';
import { systemPrinterOverPort } from './system-printer.ts';

/*
 * The desktop app's station core, in its own process (an Electron utilityProcess started by the
 * main process, electron/main/core-process.ts): the same `openStation` as `returns-station serve`,
 * on the port desktop.json keeps (loopback, or the site's network over TLS for a hub), with the settings the main process read. Its synchronous SQLite, its sweeps
 * and its bulk load at open no longer share the process that owns the window and the menu; its V8
 * flags came on its command line (docs/decisions/core-process.md). It says `ready` (origin and a
 * window token) or `failed`, and closes on `close`, then exits.
 */

type OpenRequest = Extract<ToCore, { type: 'open' }>;

const parent: Electron.ParentPort = process.parentPort;
let opening: Promise<Station | undefined> | undefined;
let closing = false;

function post(message: FromCore): void {
  parent.postMessage(message);
}

/** Labels for the system printers go to the main process, which alone can print. */
const systemPrinter = systemPrinterOverPort(post);

/** Listens on `port` when it is free (the window's origin, and the work the UI keeps under it, stay the same across starts and restarts), else on any (the main process says so). */
async function listen(station: Station, host: string, port: number): Promise<string> {
  if (port === 0) return station.listen(host, 0);
  try {
    return await station.listen(host, port);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && (error.code === 'EADDRINUSE' || error.code === 'EACCES'))) throw error;
    return station.listen(host, 0);
  }
}

async function open({ dataDir, rendererDir, settings, port }: OpenRequest): Promise<Station | undefined> {
  let station: Station | undefined;
  try {
    // Beyond loopback (a hub on the site's network) the station serves TLS only, as `serve` does.
    const tls = tlsRequestFor(settings.host, { certFile: settings.tlsCert, keyFile: settings.tlsKey });
    station = await openStation({
      ...stationOptionsOf(settings, process.env),
      dataDir,
      rendererDir,
      command: 'Returns Station desktop app',
      systemPrinter,
      tls,
    });
    const origin = await listen(station, settings.host, port);
    if (settings.demo) await seedDemo(station.ctx);
    // The window's own station token lives only in memory and for one day: a new one each start. A
    // terminal's: settings need a supervisor's session (badge and PIN).
    const { secret } = await createToken(station.store, station.ctx.clock, {
      scope: 'station',
      role: 'terminal',
      accountId: null,
      name: 'desktop app window',
      expiresAt: daysAfter(station.ctx.clock.now(), 1),
    });
    post({ type: 'ready', origin, token: secret, servedCertificate: station.tls?.servedPem ?? null });
    return station;
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error), exitCode: 1 });
    await station?.close({ deadlineMs: 0 }).catch(() => undefined);
    exitSoon(1);
    return undefined;
  }
}

/**
 * Closing waits for work in flight: the station lets requests finish until the deadline, then cuts
 * the connections still open and flushes the store, which releases the data directory. A close
 * asked while the station opens runs once it is open.
 */
async function close(deadlineMs: number): Promise<void> {
  if (closing) return;
  closing = true;
  const station = await opening;
  if (!station) return exitSoon(0);
  try {
    await station.close({ deadlineMs });
    exitSoon(0);
  } catch (error) {
    process.stderr.write(`Returns Station core: closing failed: ${error instanceof Error ? error.message : String(error)}\n`);
    exitSoon(1);
  }
}

/** Exits once what was posted has left (a message port sends asynchronously). */
function exitSoon(code: number): void {
  setTimeout(() => process.exit(code), 20);
}

parent.on('message', ({ data }: Electron.MessageEvent) => {
  const message = data as ToCore;
  if (message.type === 'open' && !opening) opening = open(message);
  if (message.type === 'close') void close(message.deadlineMs);
  if (message.type === 'printed') systemPrinter.answer(message);
});
