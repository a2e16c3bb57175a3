import type { DesktopSettings } from '../main/settings.ts';

/*
 * What the desktop app's main process and its core process (electron/core/index.ts, an Electron
 * utilityProcess) say to each other over the utility process's message port
 * (docs/decisions/core-process.md). Plain values only: they are structured-cloned.
 */

/** The main process to the core. */
export type ToCore =
  /** Open the station on this data directory, listen on `settings.host` (on `port` if it is free, else any), report `ready` or `failed`. */
  | { type: 'open'; dataDir: string; rendererDir: string; settings: DesktopSettings; port: number }
  /** Close the station (in-flight requests may take `deadlineMs`, then they are cut), then exit. */
  | { type: 'close'; deadlineMs: number }
  /** The answer to a `print`: null when the system printer took the job, else why not. */
  | { type: 'printed'; id: number; error: string | null };

/** The core to the main process. */
export type FromCore =
  /**
   * The station is open: its origin, a station token for the window (one day, memory only), and,
   * served over TLS, the certificate it serves (PEM): the window trusts exactly that one.
   */
  | { type: 'ready'; origin: string; token: string; servedCertificate: string | null }
  /** The station could not open (a bad setting, a data directory it must refuse, …); the core exits with `exitCode`. */
  | { type: 'failed'; message: string; exitCode: number }
  /** A label for the system printers (Electron's printing lives in the main process): a PDF, to the printer named (null: the default). */
  | { type: 'print'; id: number; pdf: Uint8Array; printerName: string | null };

/** The core's name in Electron's process list (`app.getAppMetrics()`, `child-process-gone`). */
export const CORE_SERVICE_NAME = 'Returns Station core';
