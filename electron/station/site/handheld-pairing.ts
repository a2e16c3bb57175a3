import { createHash, randomInt } from 'node:crypto';
import { z } from 'zod';
import { HANDHELD_TOKEN_PREFIX, PAIRING_CODE_MINUTES, PAIRING_WRONG_CODES_PER_MINUTE, type HandheldPaired } from '#shared/api/handhelds.ts';
import { addToken } from '../domain/tokens.ts';
import { fail } from '../errors.ts';
import type { BoundTables, ReadTables } from '../store/index.ts';

/*
 * Pairing codes for handhelds (docs/decisions/handheld-pairing.md): 8 characters of Crockford's
 * base32 (40 bits), single-use, PAIRING_CODE_MINUTES long, kept as their SHA-256 in a
 * `station_meta` row. A code becomes a terminal token named after the device, listed and revoked
 * like any other token.
 */

const PAIRINGS_KEY = 'handheld.pairings';
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_CHARS = 8;
/** Open codes at once, at most: a code is made for a device in the supervisor's hand. */
const MAX_OPEN_CODES = 20;
/** Used or expired codes are kept this long, so a late try is told "used" or "expired". */
const KEEP_CLOSED_MS = 24 * 60 * 60 * 1000;

const StoredPairingSchema = z.object({
  hash: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  used_at: z.string().nullable(),
  token_id: z.int().nullable(),
  /** The name the supervisor gave the device with the code (codes made before names were kept have none). */
  device_name: z.string().nullable().default(null),
});
type StoredPairing = z.infer<typeof StoredPairingSchema>;

/** The code as typed, normalised (upper case, no dash or space, O read as 0, I and L as 1); null when not a code's shape. */
export function normalPairingCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return code.length === CODE_CHARS && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

function hashOf(normalCode: string): string {
  return createHash('sha256').update(`returns-station handheld pairing\0${normalCode}`).digest('hex');
}

async function pairingsIn(t: Pick<ReadTables, 'station_meta'>): Promise<StoredPairing[]> {
  const parsed = z.array(StoredPairingSchema).safeParse((await t.station_meta.get(PAIRINGS_KEY))?.value ?? []);
  return parsed.success ? parsed.data : [];
}

/** The name of a handheld's token: how the station's list of tokens tells the devices apart. */
const tokenNameOf = (deviceName: string) => `${HANDHELD_TOKEN_PREFIX}${deviceName}`;

/** A name no paired (unrevoked) handheld has, else a refusal on `device_name` saying what to do. */
async function uniqueName(t: Pick<BoundTables, 'tokens'>, deviceName: string): Promise<string> {
  const name = deviceName.trim();
  if (await t.tokens.activeNamed(tokenNameOf(name))) {
    const message = `A paired handheld is already named "${name}": give this one another name, or revoke that one first (Settings → Site → Handhelds).`;
    throw fail('VALIDATION_FAILED', message, { fields: [{ path: 'device_name', message }] });
  }
  return name;
}

/**
 * Makes a pairing code (shown once; its hash is kept) that works for PAIRING_CODE_MINUTES, once. Made
 * with a device name, the handheld that uses it gets that name.
 */
export async function createPairing(
  t: BoundTables,
  now: string,
  deviceName: string | null = null,
): Promise<{ code: string; expires_at: string; device_name: string | null }> {
  const name = deviceName === null ? null : await uniqueName(t, deviceName);
  const at = Date.parse(now);
  const kept = (await pairingsIn(t)).filter((p) => Date.parse(p.used_at ?? p.expires_at) > at - KEEP_CLOSED_MS);
  if (kept.filter((p) => p.used_at === null && Date.parse(p.expires_at) > at).length >= MAX_OPEN_CODES) {
    throw fail('RATE_LIMITED', `At most ${MAX_OPEN_CODES} pairing codes may be open at once; use one or wait ${PAIRING_CODE_MINUTES} minutes.`);
  }
  let code = '';
  do code = Array.from({ length: CODE_CHARS }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  while (kept.some((p) => p.hash === hashOf(code)));
  const expiresAt = new Date(at + PAIRING_CODE_MINUTES * 60_000).toISOString();
  kept.push({ hash: hashOf(code), created_at: now, expires_at: expiresAt, used_at: null, token_id: null, device_name: name });
  await t.station_meta.put({ key: PAIRINGS_KEY, value: kept });
  return { code: `${code.slice(0, 4)}-${code.slice(4)}`, expires_at: expiresAt, device_name: name };
}

export type PairingOutcome = { kind: 'paired'; answer: HandheldPaired } | { kind: 'refused'; why: string };

/**
 * Exchanges a code for the device's own token: a terminal's role (the dock's work, never the
 * station's settings, workers or tokens), no expiry — it lives until revoked. Its name is the one the
 * code was made with, else the device's own; none, or one another handheld has, is refused on
 * `device_name` and leaves the code unused.
 */
export async function acceptPairing(t: BoundTables, now: string, typedCode: string, deviceName: string | undefined): Promise<PairingOutcome> {
  const code = normalPairingCode(typedCode);
  const pairings = await pairingsIn(t);
  const pairing = code === null ? undefined : pairings.find((p) => p.hash === hashOf(code));
  if (!pairing) return { kind: 'refused', why: 'This pairing code is unknown to the station.' };
  if (pairing.used_at !== null) return { kind: 'refused', why: `This pairing code was used at ${pairing.used_at}: a code works once.` };
  if (Date.parse(pairing.expires_at) <= Date.parse(now)) return { kind: 'refused', why: `This pairing code expired at ${pairing.expires_at}.` };
  const given = pairing.device_name ?? deviceName;
  if (given === undefined) {
    const message = 'Name this handheld: its pairing code was made without a name.';
    throw fail('VALIDATION_FAILED', message, { fields: [{ path: 'device_name', message }] });
  }
  const name = tokenNameOf(await uniqueName(t, given));
  const { token, secret } = await addToken(t, now, { scope: 'station', accountId: null, name, role: 'terminal' });
  const used = { ...pairing, used_at: now, token_id: token.id };
  await t.station_meta.put({ key: PAIRINGS_KEY, value: pairings.map((p) => (p === pairing ? used : p)) });
  return { kind: 'paired', answer: { token: secret, token_id: token.id, name } };
}

/**
 * Wrong codes, counted from every caller together in one-minute windows: past
 * PAIRING_WRONG_CODES_PER_MINUTE every pairing waits for the window's end, the right code too, so
 * guessing 40 bits goes no faster than that whatever the addresses.
 */
export class WrongPairingCodes {
  #windowStart = 0;
  #wrong = 0;

  /** Ms until pairing may be tried again; 0 when it may now. */
  waitMs(nowMs: number): number {
    if (nowMs - this.#windowStart >= 60_000) return 0;
    return this.#wrong >= PAIRING_WRONG_CODES_PER_MINUTE ? this.#windowStart + 60_000 - nowMs : 0;
  }

  count(nowMs: number): void {
    if (nowMs - this.#windowStart >= 60_000) {
      this.#windowStart = nowMs;
      this.#wrong = 0;
    }
    this.#wrong += 1;
  }
}
