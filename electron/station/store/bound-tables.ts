import { Dexie, type Transaction } from 'dexie';
import { engineReadsFor, type PlainKey, type RowOf } from './engine-reads.ts';
import type { Frozen } from './frozen.ts';
import { STATION_TABLES, type StationDexie, type StationTableName } from './schema.ts';

/**
 * The station's tables as the engine holds them (`store.db`): each operation runs in a
 * transaction of its own. Store-internal: outside the store, reads take `ReadTables`
 * (read-tables.ts), which a `BoundTables` is too.
 */
export type EngineTables = Pick<StationDexie, StationTableName>;

declare const transactionBound: unique symbol;

/**
 * The tables of one write transaction, as `boundTables(tx)` makes them; by convention the value
 * is called `t`. Everything that runs inside a write takes this type, so handing it the engine's
 * tables (`store.db`), whose operations would silently leave the transaction, does not compile.
 * See docs/decisions/store-bound-tables.md.
 */
export type BoundTables = EngineTables & {
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
 *
 * Each table is made when first used (Dexie keeps it for the transaction): a write uses a few of
 * the station's tables, and making all of them for every write was a measurable part of a small
 * write's cost.
 */
export function boundTables(tx: Transaction): BoundTables {
  return new TransactionTables(tx) as unknown as BoundTables;
}

/** One getter per station table on the prototype (defined once), each asking the transaction for its table. */
class TransactionTables {
  readonly #tx: Transaction;
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
          return this.#tx.table(name);
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
