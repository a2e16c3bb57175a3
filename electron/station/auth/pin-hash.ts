import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';

/*
 * Supervisor PINs are kept as scrypt hashes (docs/decisions/supervisor.md): a PIN has few digits, so
 * a fast hash of a stolen data directory would give every PIN back at once. scrypt is slow and
 * memory-hard by design, salted per PIN, and part of node:crypto (no dependency). The stored text
 * names its parameters, so they can grow later and a hash can travel to another station as it is.
 */

const COST = { N: 2 ** 14, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
// scrypt needs 128·N·r bytes; leave it room above that (node's default ceiling is 32 MiB).
const MAX_MEMORY = 128 * COST.N * COST.r * 2;
const STORED = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

function derive(pin: string, salt: Buffer, options: ScryptOptions, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(pin, salt, bytes, options, (error, key) => (error ? reject(error) : resolve(key))));
}

/** `scrypt$N$r$p$salt$hash` (base64url) of a PIN; about 30 ms of a quiet core, 16 MiB, off the event loop. */
export async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(pin, salt, { ...COST, maxmem: MAX_MEMORY }, KEY_BYTES);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Whether `pin` is the PIN of `stored` (compared in constant time); false for a hash it cannot read. */
export async function pinMatches(pin: string, stored: string): Promise<boolean> {
  const match = STORED.exec(stored);
  if (!match) return false;
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const expected = Buffer.from(match[5] ?? '', 'base64url');
  const key = await derive(pin, Buffer.from(match[4] ?? '', 'base64url'), { N, r, p, maxmem: 128 * N * r * 2 }, expected.length);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of no one's PIN (made once, on first need): checking against it costs what a real check costs. */
let decoy: Promise<string> | undefined;
export function decoyPinHash(): Promise<string> {
  decoy ??= hashPin(randomBytes(8).toString('hex'));
  return decoy;
}

/**
 * Whether `pin` is the PIN of `stored`; with no hash to check (no such supervisor), the same work
 * against the decoy and false, so the answer's time does not tell whether the badge is a supervisor's.
 */
export async function pinMatchesOrDecoy(pin: string, stored: string | null): Promise<boolean> {
  const matches = await pinMatches(pin, stored ?? (await decoyPinHash()));
  return stored !== null && matches;
}
