import { hashTokenSecret, looksLikeTokenSecret, newTokenSecret } from '../auth/token-secret.ts';
import { fail } from '../errors.ts';
import { boundTables, type Frozen, type StationStore, type Token, type TokenScope } from '../store/index.ts';
import type { Clock } from './clock.ts';

/** Who is calling: resolved from the bearer token on every API request. */
export interface Principal {
  tokenId: number;
  scope: TokenScope;
  /** The account of an account token; null for a station token (all accounts). */
  accountId: number | null;
}

export interface NewToken {
  token: Token;
  /** Shown once; only its hash is stored. */
  secret: string;
}

/** Creates a token; an account token's account comes into being with it. */
export async function createToken(
  store: StationStore,
  clock: Clock,
  options: { scope: TokenScope; accountId: number | null; name: string; expiresAt?: string | null },
): Promise<NewToken> {
  if ((options.scope === 'account') !== (options.accountId !== null)) throw new Error('An account token needs an account; a station token has none.');
  const secret = newTokenSecret();
  const now = clock.now();
  const token = await store.write(async (tx) => {
    const t = boundTables(tx);
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
    };
    const id = await t.tokens.add(draft as Token);
    return { ...draft, id };
  });
  return { token, secret };
}

export async function listTokens(store: StationStore): Promise<ReadonlyArray<Frozen<Token>>> {
  return store.tokens.all();
}

/** Tokens that expired longer ago than this are deleted (per-start tokens of serve and the desktop). */
export const EXPIRED_TOKEN_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** Deletes tokens whose expiry passed more than a week ago; they can never work again. */
export async function pruneExpiredTokens(store: StationStore, now: string): Promise<number> {
  const cutoff = new Date(Date.parse(now) - EXPIRED_TOKEN_RETENTION_MS).toISOString();
  return store.write(['tokens'], async (tx) => {
    const t = boundTables(tx);
    return t.tokens.filter((token) => token.expires_at !== null && token.expires_at < cutoff).delete();
  });
}

/** Revokes the token; caches of verified tokens follow the tokens table (store.onChange). */
export function revokeToken(store: StationStore, clock: Clock, id: number): Promise<Token> {
  return store.write(async (tx) => {
    const t = boundTables(tx);
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
  return { principal: { tokenId: token.id, scope: token.scope, accountId: token.account_id }, expiresAt: token.expires_at };
}
