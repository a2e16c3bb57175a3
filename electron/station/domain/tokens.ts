import { hashTokenSecret, looksLikeTokenSecret, newTokenSecret } from '../auth/token-secret.ts';
import { fail } from '../errors.ts';
import { type BoundTables, type Frozen, type StationStore, type StationTokenRole, type Token, type TokenScope } from '../store/index.ts';
import type { Clock } from './clock.ts';

/** Who is calling: resolved from the bearer token on every API request. */
export interface Principal {
  tokenId: number;
  scope: TokenScope;
  /** The account of an account token; null for a station token (all accounts). */
  accountId: number | null;
  /** A station token's role (null for an account token): only `admin` and `supervisor` may change settings. */
  role: StationTokenRole | null;
  /** The supervisor whose session this is; null otherwise. */
  operatorId: number | null;
}

/**
 * The names `serve` and the desktop app gave their per-start window tokens before tokens had roles
 * (electron/cli/serve.ts, electron/core/index.ts): links that may still live in a browser's history.
 */
const WINDOW_TOKEN_NAMES = /^(UI link of serve on |desktop app window$)/;

/**
 * A token's role. Station tokens stored before roles: a window's token (the UI link, the desktop
 * window) is a terminal's, as it would be today; any other was made on the command line (administrative).
 */
export function roleOf(token: Pick<Token, 'scope' | 'role' | 'name'>): StationTokenRole | null {
  if (token.scope !== 'station') return null;
  return token.role ?? (WINDOW_TOKEN_NAMES.test(token.name) ? 'terminal' : 'admin');
}

export interface NewToken {
  token: Token;
  /** Shown once; only its hash is stored. */
  secret: string;
}

export interface TokenOptions {
  scope: TokenScope;
  accountId: number | null;
  name: string;
  expiresAt?: string | null;
  role?: StationTokenRole;
  operatorId?: number;
}

/** Creates a token; an account token's account comes into being with it. */
export async function createToken(store: StationStore, clock: Clock, options: TokenOptions): Promise<NewToken> {
  return store.write(async (t) => addToken(t, clock.now(), options));
}

/** Adds a token inside the caller's write (a station token is administrative unless `role` says otherwise). */
export async function addToken(t: BoundTables, now: string, options: TokenOptions): Promise<NewToken> {
  if ((options.scope === 'account') !== (options.accountId !== null)) throw new Error('An account token needs an account; a station token has none.');
  const secret = newTokenSecret();
  if (options.accountId !== null && !(await t.accounts.get(options.accountId))) {
    await t.accounts.put({ id: options.accountId, name: `Account ${options.accountId}`, created_at: now });
  }
  const draft: Omit<Token, 'id'> = {
    token_hash: hashTokenSecret(secret),
    scope: options.scope,
    account_id: options.accountId,
    name: options.name,
    created_at: now,
    revoked_at: null,
    expires_at: options.expiresAt ?? null,
    ...(options.scope === 'station' ? { role: options.role ?? 'admin' } : {}),
    ...(options.operatorId === undefined ? {} : { operator_id: options.operatorId }),
  };
  const id = await t.tokens.add(draft as Token);
  return { token: { ...draft, id }, secret };
}

export async function listTokens(store: StationStore): Promise<ReadonlyArray<Frozen<Token>>> {
  return store.tokens.all();
}

/** Tokens that expired longer ago than this are deleted (per-start tokens of serve and the desktop). */
export const EXPIRED_TOKEN_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** Deletes tokens whose expiry passed more than a week ago; they can never work again. */
export async function pruneExpiredTokens(store: StationStore, now: string): Promise<number> {
  const cutoff = new Date(Date.parse(now) - EXPIRED_TOKEN_RETENTION_MS).toISOString();
  return store.write(['tokens'], (t) => t.tokens.deleteExpiredBefore(cutoff));
}

/** Revokes the token; caches of verified tokens follow the tokens table (store.onChange). */
export function revokeToken(store: StationStore, clock: Clock, id: number): Promise<Token> {
  return store.write(async (t) => {
    const token = await t.tokens.get(id);
    if (!token) throw fail('NOT_FOUND', `No token ${id}.`);
    if (token.revoked_at) return token;
    const revoked = { ...token, revoked_at: clock.now() };
    await t.tokens.put(revoked);
    return revoked;
  });
}

/** The principal of a bearer secret and its expiry, or null when it is unknown, revoked or expired. */
export async function verifyToken(store: StationStore, clock: Clock, secret: string): Promise<{ principal: Principal; expiresAt: string | null } | null> {
  if (!looksLikeTokenSecret(secret)) return null;
  const token = await store.tokens.byHash(hashTokenSecret(secret));
  if (!token || token.revoked_at !== null) return null;
  if (token.expires_at !== null && token.expires_at <= clock.now()) return null;
  return {
    principal: { tokenId: token.id, scope: token.scope, accountId: token.account_id, role: roleOf(token), operatorId: token.operator_id ?? null },
    expiresAt: token.expires_at,
  };
}

/**
 * Revokes, inside the caller's write, every live token that came from an operator's sign-in: their
 * sessions and the tokens those sessions made (a new PIN, a deactivation, the end of the role).
 */
export async function revokeTokensOf(t: BoundTables, now: string, operatorId: number): Promise<void> {
  await t.tokens.revokeOfOperator(operatorId, now);
}
