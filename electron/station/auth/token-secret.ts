import { createHash, randomBytes } from 'node:crypto';

/** Prefix that makes a leaked station token recognisable to secret scanners and in logs. */
const TOKEN_PREFIX = 'rst_';
const TOKEN_SHAPE = /^rst_[A-Za-z0-9_-]{43}$/;

/** A new opaque token: 32 random bytes, base64url. Shown once; only its hash is stored. */
export function newTokenSecret(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** sha256 of the secret, hex: what the store keeps and looks up (a unique Dexie index). */
export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Cheap shape check before any lookup, so malformed headers never reach the store. */
export function looksLikeTokenSecret(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}
