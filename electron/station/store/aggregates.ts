import type { EngineReads } from './engine-reads.ts';
import type { Frozen } from './frozen.ts';
import type { Account, Operator, ReturnRecord, Token } from './records.ts';
import type { StationDexie } from './schema.ts';

/*
 * The store's reads, one aggregate at a time (docs/decisions/store-interface.md). Which path serves
 * a read — the engine's own records (engine-reads.ts, no copy, no engine transaction), a read
 * through Dexie (a copy; a cold record from SQLite) — is decided here alone. Every value handed
 * out is Frozen: the engine's own records are frozen deeply at run time, Dexie's copies are the
 * caller's but typed the same, so no caller can change a record except by a write.
 */

/** Returns (a return and its line items are one record). */
export interface ReturnReads {
  /** The return `id`; undefined: none. */
  get(id: number): Promise<Frozen<ReturnRecord> | undefined>;
  /** The returns of `ids`, in their order; an id with no return is left out (a list page whose ids SQLite found). */
  many(ids: readonly number[]): Promise<ReadonlyArray<Frozen<ReturnRecord>>>;
}

/** The accounts this station serves. */
export interface AccountReads {
  get(id: number): Promise<Frozen<Account> | undefined>;
  /** Every account, by id. */
  all(): Promise<ReadonlyArray<Frozen<Account>>>;
}

/** Station configuration (carriers, locations): seeded when the station starts, listed by id. */
export interface ConfigReads<R> {
  all(): Promise<ReadonlyArray<Frozen<R>>>;
  /** One page of `perPage` by id (page 1 first), with the total. */
  page(page: number, perPage: number): Promise<{ data: ReadonlyArray<Frozen<R>>; total: number }>;
}

/** The operators (people who receive parcels), by id. */
export interface OperatorReads {
  all(): Promise<ReadonlyArray<Frozen<Operator>>>;
}

/** API tokens. */
export interface TokenReads {
  all(): Promise<ReadonlyArray<Frozen<Token>>>;
  /** The token whose secret hashes to `hash`; undefined: none. */
  byHash(hash: string): Promise<Frozen<Token> | undefined>;
}

const present = <T>(records: Array<T | undefined>): T[] => records.filter((record): record is T => record !== undefined);

export function returnReads(db: StationDexie, memory: EngineReads): ReturnReads {
  return {
    // The engine's memory when it can answer now (no write running on the table, the return hot), else Dexie.
    async get(id) {
      return memory.peek('returns', id) ?? (await db.returns.get(id));
    },
    // All from memory or all through Dexie: a page never waits on a read while it holds engine records.
    async many(ids) {
      return memory.peekEach('returns', ids) ?? present(await db.returns.bulkGet([...ids]));
    },
  };
}

export function accountReads(db: StationDexie): AccountReads {
  return {
    get: (id) => db.accounts.get(id),
    all: () => db.accounts.orderBy('id').toArray(),
  };
}

/** The table of a configuration record, as these reads use it. */
interface ConfigTable<R> {
  count(): PromiseLike<number>;
  orderBy(index: 'id'): { toArray(): PromiseLike<R[]>; offset(n: number): { limit(n: number): { toArray(): PromiseLike<R[]> } } };
}

export function configReads<R>(records: ConfigTable<R>): ConfigReads<R> {
  return {
    // Copies read through Dexie: the caller's own, typed Frozen like every read the store hands out.
    all: async () => (await records.orderBy('id').toArray()) as ReadonlyArray<Frozen<R>>,
    async page(page, perPage) {
      const total = await records.count();
      return { data: (await records.orderBy('id').offset((page - 1) * perPage).limit(perPage).toArray()) as ReadonlyArray<Frozen<R>>, total };
    },
  };
}

export function operatorReads(db: StationDexie): OperatorReads {
  return { all: () => db.operators.orderBy('id').toArray() };
}

export function tokenReads(db: StationDexie): TokenReads {
  return {
    all: () => db.tokens.toArray(),
    byHash: (hash) => db.tokens.where('token_hash').equals(hash).first(),
  };
}
