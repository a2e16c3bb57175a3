import { utilityProcess, type UtilityProcess } from 'electron';
import { CORE_SERVICE_NAME, type FromCore, type ToCore } from '../core/protocol.ts';

/*
 * The main process's side of the core process (electron/core/index.ts): start it with its V8 flags,
 * ask it to open the station, hear whether it is ready, ask it to close, see it exit
 * (docs/decisions/core-process.md).
 */

export interface CoreReady {
  origin: string;
  token: string;
  /** Served over TLS: the certificate the station serves (PEM), the only one the window trusts; null over loopback HTTP. */
  servedCertificate: string | null;
}

/** Why a core did not become ready: it said why (`refused`: starting again would not help), or it stopped without a word. */
export class CoreStartError extends Error {
  readonly refused: boolean;
  readonly exitCode: number | undefined;
  constructor(message: string, refused: boolean, exitCode?: number) {
    super(message);
    this.name = 'CoreStartError';
    this.refused = refused;
    this.exitCode = exitCode;
  }
}

export interface CoreProcess {
  /** The station's origin and the window's token; rejects with a CoreStartError. */
  readonly ready: Promise<CoreReady>;
  /** Resolves with the exit code when the process has ended (whatever the reason). */
  readonly exited: Promise<number>;
  /** Whether it became ready (an exit after that is a crash or a close). */
  wasReady(): boolean;
  /** Asks the station to close (work in flight may take `deadlineMs`), after which the process exits. */
  close(deadlineMs: number): void;
  /** Ends the process at once (a core that does not close). */
  kill(): void;
}

export interface CoreStart {
  /** The built core entry (out/main/core.js). */
  modulePath: string;
  /** The V8 flags the station runs with, given at V8's start (`--js-flags`), not set at runtime. */
  v8Flags: readonly string[];
  open: Omit<Extract<ToCore, { type: 'open' }>, 'type'>;
  /** Prints a label the core sends for the system printers (electron/main/system-print.ts); rejects with why not. */
  print?: (pdf: Uint8Array, printerName: string | null) => Promise<void>;
}

export function startCore({ modulePath, v8Flags, open, print }: CoreStart): CoreProcess {
  const child: UtilityProcess = utilityProcess.fork(modulePath, [], {
    execArgv: v8Flags.length > 0 ? [`--js-flags=${v8Flags.join(' ')}`] : [],
    serviceName: CORE_SERVICE_NAME,
    // The station's log goes where the app's own does.
    stdio: 'inherit',
  });
  let ready = false;
  let settle: { resolve: (value: CoreReady) => void; reject: (error: CoreStartError) => void } | undefined;
  const readyPromise = new Promise<CoreReady>((resolve, reject) => (settle = { resolve, reject }));
  // A start that failed is handled by whoever awaits `ready`; nobody may be left with an unhandled rejection.
  readyPromise.catch(() => undefined);
  child.on('message', (raw: unknown) => {
    const message = raw as FromCore;
    if (message.type === 'ready') {
      ready = true;
      settle?.resolve({ origin: message.origin, token: message.token, servedCertificate: message.servedCertificate });
    }
    if (message.type === 'failed') settle?.reject(new CoreStartError(message.message, true, message.exitCode));
    if (message.type === 'print') {
      const printing = print ? print(message.pdf, message.printerName) : Promise.reject(new Error('This app cannot print to system printers.'));
      void printing.then(
        () => send({ type: 'printed', id: message.id, error: null }),
        (error: unknown) => send({ type: 'printed', id: message.id, error: error instanceof Error ? error.message : String(error) }),
      );
    }
  });
  const exited = new Promise<number>((resolve) =>
    child.once('exit', (code: number) => {
      settle?.reject(new CoreStartError(`The station core stopped (exit code ${code}) before it was ready.`, false, code));
      resolve(code);
    }),
  );
  const send = (message: ToCore) => child.postMessage(message);
  send({ type: 'open', ...open });
  return {
    ready: readyPromise,
    exited,
    wasReady: () => ready,
    close: (deadlineMs) => send({ type: 'close', deadlineMs }),
    kill: () => void child.kill(),
  };
}

/** At most this many restarts of a crashed core within `RESTART_WINDOW_MS`; one more crash stops the app with a message. */
export const MAX_RESTARTS = 3;
export const RESTART_WINDOW_MS = 60_000;

/**
 * Whether a core that crashed at `now` may be started again, given when the earlier restarts were
 * (returns those still inside the window, with `now` added when it may).
 */
export function mayRestart(
  restarts: readonly number[],
  now: number,
  max = MAX_RESTARTS,
  windowMs = RESTART_WINDOW_MS,
): { allowed: boolean; restarts: number[] } {
  const recent = restarts.filter((at) => now - at < windowMs);
  return recent.length >= max ? { allowed: false, restarts: recent } : { allowed: true, restarts: [...recent, now] };
}
