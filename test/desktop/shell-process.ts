import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach } from 'vitest';

/*
 * Runs the BUILT desktop main bundle (out/main/index.js) under Node 24 with the electron stand-in
 * (electron-stand-in/), and talks to the stand-in over Node IPC. Build first: `npm run build`.
 */

export const MAIN_BUNDLE = fileURLToPath(new URL('../../out/main/index.js', import.meta.url));
const REGISTER = fileURLToPath(new URL('./electron-stand-in/register.ts', import.meta.url));

export interface ShellRecord {
  windows: Array<{
    options: Record<string, unknown> & { webPreferences: Record<string, unknown> };
    loadedUrl: string | null;
    loads?: number;
    title: string | null;
    shown: boolean;
  }>;
  menu: unknown;
  menuSet: boolean;
  partitions: string[];
  defaultSessionTouched: boolean;
  ipcChannels: string[];
  errorBoxes: Array<{ title: string; content: string }>;
  messageBoxes: Array<{ type?: string; title?: string; message: string; detail?: string }>;
  calls: string[];
  /** The processes `utilityProcess.fork` started (the station core), in order. */
  utilityProcesses: Array<{
    modulePath: string;
    args: string[];
    execArgv: string[];
    nodeExecArgv: string[];
    serviceName?: string;
    pid?: number;
    exitCode: number | null;
  }>;
}

export interface RunningShell {
  child: ChildProcess;
  /** The URL the window loaded (the station's UI), once loaded. */
  loaded: Promise<string>;
  /** The URL of the window's `count`-th load (1: the first; a restarted core's reload is the next). */
  load(count: number): Promise<string>;
  /** Resolves with the exit code and the last record when the shell process ends. */
  exited: Promise<{ code: number | null; record: ShellRecord | undefined; stderr: string }>;
  ask<T = unknown>(command: Record<string, unknown>): Promise<T>;
  record(): Promise<ShellRecord>;
  /** What the process wrote on stderr so far: the station's log (JSON lines; RETURNS_STATION_LOG_LEVEL is `error` unless given). */
  stderr(): string;
  kill(): void;
}

export function startShell(dataDir: string, env: Record<string, string> = {}): RunningShell {
  const child = fork(MAIN_BUNDLE, [], {
    execArgv: ['--import', REGISTER],
    // A free port at each start unless a test gives one (RETURNS_STATION_DESKTOP_PORT, or '' for desktop.json's): tests run side by side.
    env: { ...process.env, RETURNS_STATION_DATA_DIR: dataDir, RETURNS_STATION_LOG_LEVEL: 'error', RETURNS_STATION_DESKTOP_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const pending = new Map<number, (value: unknown) => void>();
  let lastRecord: ShellRecord | undefined;
  let next = 1;
  const loads: string[] = [];
  const loadWaiters: Array<() => void> = [];
  const load = (count: number) =>
    new Promise<string>((resolve) => {
      const check = () => {
        const url = loads[count - 1];
        if (url === undefined) return false;
        resolve(url);
        return true;
      };
      if (!check()) loadWaiters.push(() => void check());
    });
  const loaded = load(1);
  child.on('message', (raw) => {
    const message = raw as { type: string; id?: number; value?: unknown; url?: string; record?: ShellRecord };
    if (message.type === 'loaded' && message.url) {
      loads.push(message.url);
      for (const waiter of loadWaiters) waiter();
    }
    if (message.type === 'exiting') lastRecord = message.record;
    if (message.type === 'reply' && message.id !== undefined) pending.get(message.id)?.(message.value);
  });
  const exited = new Promise<{ code: number | null; record: ShellRecord | undefined; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, record: lastRecord, stderr })),
  );
  const ask = <T>(command: Record<string, unknown>): Promise<T> =>
    new Promise<T>((resolve) => {
      const id = next++;
      pending.set(id, (value) => resolve(value as T));
      child.send({ ...command, id });
    });
  return { child, loaded, load, exited, ask, record: () => ask<ShellRecord>({ type: 'record' }), stderr: () => stderr, kill: () => child.kill('SIGKILL') };
}

/**
 * A test file's shells and data directories: `dataDir()` makes one (removed after the file's tests),
 * `shell(dir, env)` starts the built shell on it (killed after each test).
 */
export function useShells(prefix: string): { dataDir: () => string; shell: (dir: string, env?: Record<string, string>) => RunningShell } {
  const dirs: string[] = [];
  const shells: RunningShell[] = [];
  afterEach(() => {
    for (const s of shells.splice(0)) s.kill();
  });
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return {
    dataDir() {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    shell(dir, env = {}) {
      const started = startShell(dir, env);
      shells.push(started);
      return started;
    },
  };
}
