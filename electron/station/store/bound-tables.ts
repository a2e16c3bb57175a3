import { Dexie, type Transaction } from 'dexie';
import { engineReadsFor, type PlainKey, type RowOf } from './engine-reads.ts';
import type { Frozen } from './frozen.ts';
import type { InsertOf, KeyOf, QueriesOf, ReadTable } from './read-tables.ts';
import type { PrintJobRecord } from './records.ts';
import { STATION_TABLES, type StationTableName } from './schema.ts';
import { type AnyStoreTable, storeTableOf } from './station-tables.ts';

/**
 * One table inside a write: its reads, and its records written by key. `Insert`: a record as it
 * is added, its key left out where the table numbers its records.
 */
export interface WriteTable<T, Key, Insert = T> extends ReadTable<T, Key> {
  /** Adds or replaces the record (its key is one of its fields); resolves to its key. */
  put(record: Insert): Promise<Key>;
  /** Adds a record, numbered by the table when its key is left out; resolves to its key. Refused when the key or a unique index value is taken. */
  add(record: Insert): Promise<Key>;
  bulkAdd(records: readonly Insert[]): Promise<Key>;
  bulkPut(records: readonly Insert[]): Promise<Key>;
  /** Changes some fields of the record under `key`; resolves to 1, or 0 when there is none. */
  update(key: Key, changes: Partial<T>): Promise<number>;
  delete(key: Key): Promise<void>;
  bulkDelete(keys: readonly Key[]): Promise<void>;
  clear(): Promise<void>;
}

type PrintJobState = PrintJobRecord['state'];

/** The deletes by a question, inside a write; each resolves to how many records it deleted. */
export interface TableDeletes {
  tokens: {
    /** Tokens that expire, expired before `cutoff`. */
    deleteExpiredBefore(cutoff: string): Promise<number>;
    /** Revokes (at `now`) every token of the operator not yet revoked. */
    revokeOfOperator(operatorId: number, now: string): Promise<number>;
  };
  idempotency_keys: {
    deleteCreatedBefore(cutoff: string): Promise<number>;
  };
  change_log: {
    /** Every entry up to `seq` (included): one key range. */
    deleteUpTo(seq: number): Promise<number>;
  };
  print_jobs: {
    /** The jobs in one of `states` not changed since before `cutoff`. */
    deleteChangedBefore(cutoff: string, states: readonly PrintJobState[]): Promise<number>;
  };
}

type DeletesOf<K extends StationTableName> = K extends keyof TableDeletes ? TableDeletes[K] : unknown;

declare const transactionBound: unique symbol;

/**
 * The tables of one write transaction, as `store.write` hands them to its function; by convention
 * the value is called `t`. Everything that runs inside a write takes this type, so handing it the
 * read tables (`store.tables`), whose operations would silently leave the transaction, does not
 * compile. The store's own interface (read-tables.ts): no Dexie type reaches the caller.
 * See docs/decisions/store-bound-tables.md.
 */
export type BoundTables = {
  readonly [K in StationTableName]: WriteTable<RowOf<K>, KeyOf<K>, InsertOf<K>> & QueriesOf<K> & DeletesOf<K>;
} & {
  readonly [transactionBound]: true;
  /**
   * The engine's own record under `key` as this write sees it, without a request, while the engine
   * runs the write (engine-reads.ts, `peekInWrite`), frozen; undefined: read through the table. Never keep it.
   */
  peek<K extends StationTableName>(table: K, key: number | string): Frozen<RowOf<K>> | undefined;
  /** The primary keys matching `value` on a unique index, in key order, under `peek`'s rules (`peekKeysInWrite`); undefined: query through the table. */
  peekKeys(table: StationTableName, uniqueIndex: string, value: PlainKey): Array<number | string> | undefined;
};

/**
 * The tables bound to one transaction. Dexie otherwise finds the running transaction through its
 * async "zone", which a plain native `await` (of a helper that did no IndexedDB work) can lose —
 * the next operation then silently runs in a transaction of its own. Bound tables cannot stray.
 * Store-internal: `store.write` makes them for its function (open/store-writes.ts).
 *
 * Each table is made when first used (Dexie keeps its own for the transaction): a write uses a few
 * of the station's tables, and making all of them for every write was a measurable part of a small
 * write's cost.
 */
export function boundTables(tx: Transaction): BoundTables {
  return new TransactionTables(tx) as unknown as BoundTables;
}

/** One getter per station table on the prototype (defined once), each making the table over the transaction's. */
class TransactionTables {
  readonly #tx: Transaction;
  readonly #made: Partial<Record<StationTableName, AnyStoreTable>> = {};
  constructor(tx: Transaction) {
    this.#tx = tx;
  }
  peek<K extends StationTableName>(table: K, key: number | string): Frozen<RowOf<K>> | undefined {
    return engineReadsFor(this.#tx.db.backendDB())?.peekInWrite(this.#tx, table, key);
  }
  peekKeys(table: StationTableName, uniqueIndex: string, value: PlainKey): Array<number | string> | undefined {
    return engineReadsFor(this.#tx.db.backendDB())?.peekKeysInWrite(this.#tx, table, uniqueIndex, value);
  }
  static {
    for (const name of STATION_TABLES) {
      Object.defineProperty(this.prototype, name, {
        get(this: TransactionTables) {
          return (this.#made[name] ??= storeTableOf(name, this.#tx.table(name), this.#tx));
        },
      });
    }
  }
}

/**
 * Runs `fn` outside any write the caller is in (Dexie's zone forgotten), so the writes it starts
 * are writes of their own and not joined to the running one as nested writes (domain/script-batches.ts).
 */
export function outsideWrite<T>(fn: () => T): T {
  return Dexie.ignoreTransaction(fn);
}
