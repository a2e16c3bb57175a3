import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * How the command line reaches a running station: `serve` writes its address and a station token
 * of its own (owner-only file, in the owner-only data directory) and removes both when it stops.
 * `returns-station token ...` uses them while the station holds the directory.
 */
export const CONTROL_FILE = 'station.control.json';

const ControlSchema = z.object({
  origin: z.url(),
  token: z.string().min(1),
  token_id: z.int(),
  pid: z.int(),
  /** Served over TLS: the anchor to trust (PEM) and the served certificate's SHA-256, which the command line pins. */
  tls: z.object({ ca: z.string().min(1), served_sha256: z.string().min(1) }).optional(),
});
export type StationControl = z.infer<typeof ControlSchema>;

export function writeControl(dataDir: string, control: StationControl): void {
  writeFileSync(join(dataDir, CONTROL_FILE), JSON.stringify(control), { mode: 0o600 });
}

export function removeControl(dataDir: string): void {
  rmSync(join(dataDir, CONTROL_FILE), { force: true });
}

export function readControl(dataDir: string): StationControl | null {
  try {
    const parsed = ControlSchema.safeParse(JSON.parse(readFileSync(join(dataDir, CONTROL_FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
