import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readControl } from '../../electron/station/control-file.ts';

export const STATION_BIN = fileURLToPath(new URL('../../bin/returns-station.js', import.meta.url));
const READY = /^Returns station listening on (https?:\/\/\S+)\nOpen the station UI: \S+#token=(\S+)$/m;
/** Printed after the ready lines by a station serving TLS. */
const TLS_LINE = /^TLS certificate to trust \(SHA-256\): (\S+)$/m;

export interface RunningStation {
  origin: string;
  /**
   * The command line's administrative station token (the control file `serve` writes for `token` and
   * `operator` commands): tests set the station up with it as an operator would from the command line.
   */
  stationToken: string;
  /** The terminal token of the printed UI link: the dock's work, no settings without a supervisor. */
  uiToken: string;
  /** Served over TLS: the SHA-256 fingerprint it printed of the certificate to trust; null over plain HTTP. */
  tlsFingerprint: string | null;
  dataDir: string;
  process: ChildProcess;
  /** Everything the station wrote to stdout and stderr so far. */
  output(): { stdout: string; stderr: string };
  /** Sends SIGTERM and resolves to the exit code. */
  stop(): Promise<number | null>;
}

// A test that fails before it stops its station must not leave the process running (holding its
// data directory and a port): vitest's setup file calls this after every test file.
const alive = new Set<ChildProcess>();
export function killStrayStations(): void {
  for (const child of alive) child.kill('SIGKILL');
  alive.clear();
}

/**
 * Starts the real `returns-station serve` on a free port with a fresh data directory (unless one is
 * given), resolving once it printed its ready line. The caller owns stopping it.
 */
export async function startStation(
  options: {
    dataDir?: string;
    args?: string[];
    timeoutMs?: number;
    env?: Record<string, string>;
    /** `ulimit -n` of the station process (POSIX). */ fileLimit?: number;
  } = {},
): Promise<RunningStation> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'returns-station-'));
  const argv = [STATION_BIN, 'serve', '--port', '0', '--data-dir', dataDir, ...(options.args ?? [])];
  // With a file limit, a shell sets it and then becomes the station (exec), so signals reach it.
  const [command, args] =
    options.fileLimit === undefined
      ? [process.execPath, argv]
      : ['/bin/sh', ['-c', `ulimit -n ${options.fileLimit} && exec "$0" "$@"`, process.execPath, ...argv]];
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  alive.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      alive.delete(child);
      resolve(code);
    }),
  );

  const [origin, uiToken, tlsFingerprint] = await new Promise<[string, string, string | null]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`station did not start in time:\n${stderr}`)), options.timeoutMs ?? 20_000);
    const onData = () => {
      const match = READY.exec(stdout);
      // Over TLS the fingerprint's line follows the two ready lines (its own write: it may come in a later chunk).
      const fingerprint = match?.[1]?.startsWith('https:') ? TLS_LINE.exec(stdout)?.[1] : null;
      if (match?.[1] && match[2] && fingerprint !== undefined) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve([match[1], match[2], fingerprint]);
      }
    };
    child.stdout.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`station exited with ${code} before it was ready:\n${stderr}`));
    });
  });

  // Written before the ready line is printed.
  const control = readControl(dataDir);
  if (!control) throw new Error(`serve wrote no control file in ${dataDir}`);
  return {
    origin,
    stationToken: control.token,
    uiToken,
    tlsFingerprint,
    dataDir,
    process: child,
    output: () => ({ stdout, stderr }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
