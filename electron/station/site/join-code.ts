import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/*
 * Join codes and the proofs bound to them (docs/decisions/site-join.md). A code is 20 characters of
 * Crockford's base32: 4 name the invite (not secret), 16 are secret — 80 bits, so neither guessing
 * against the hub (3 wrong proofs burn a code) nor an offline search by a machine in the middle that
 * saw one proof can find it within the code's 15 minutes. Both sides key their HMACs with the code's
 * SHA-256, which is what the hub stores.
 */

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const INVITE_CHARS = 4;
const SECRET_CHARS = 16;

function randomChars(count: number): string {
  return Array.from({ length: count }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

/** A new invite's name (4 characters, not secret). */
export function newInviteName(): string {
  return randomChars(INVITE_CHARS);
}

/** A new code for an invite, as people read and type it: `ABCD-EFGH-JKMN-PQRS-TVWX`. */
export function newJoinCode(invite: string): string {
  return (invite + randomChars(SECRET_CHARS)).match(/.{4}/g)?.join('-') ?? '';
}

/**
 * The code as typed, normalised (upper case, no dashes or spaces, Crockford's look-alikes read as
 * digits: O as 0, I and L as 1); null when it is not a code's shape.
 */
export function normalJoinCode(typed: string): { invite: string; code: string } | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (code.length !== INVITE_CHARS + SECRET_CHARS || [...code].some((c) => !ALPHABET.includes(c))) return null;
  return { invite: code.slice(0, INVITE_CHARS), code };
}

/** What the hub keeps of a code, and the key of both sides' proofs (hex). */
export function joinKeyOf(normalCode: string): string {
  return createHash('sha256').update(`returns-station site join\0${normalCode}`).digest('hex');
}

/** A fresh nonce for one join (32 random bytes, base64url). */
export function newJoinNonce(): string {
  return randomBytes(32).toString('base64url');
}

/** HMAC-SHA256 (hex) keyed by the code's key over the side's word, the CA fingerprint and the nonce. */
export function joinProof(key: string, side: 'join' | 'hub', caSha256: string, nonce: string): string {
  return createHmac('sha256', Buffer.from(key, 'hex')).update(`${side}\0${caSha256}\0${nonce}`).digest('hex');
}

/** Compares two proofs in constant time. */
export function sameProof(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y);
}
