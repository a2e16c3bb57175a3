import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/*
 * The data directory holds every record and the media capability tokens: only its owner may read
 * it. Directories are 0700 and files 0600 where the platform has POSIX modes (not on Windows, whose
 * per-user profile folders are private already). SQLite gives its WAL the database file's mode.
 */

const POSIX = process.platform !== 'win32';

/** Creates `dir` (and parents) owner-only, and tightens it if it exists. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (POSIX) chmodSync(dir, 0o700);
}

/** Creates `file` empty and owner-only if missing (never truncates), and tightens it if it exists. */
export function ensurePrivateFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  if (POSIX) chmodSync(file, 0o600);
}
