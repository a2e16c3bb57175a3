import { Dexie, type Transaction } from 'dexie';
import { ForeignAwaitInWriteError, StoreClosedError, UnrecordedWriteError } from '../errors.ts';
import type { StationDexie, StationTableName } from '../schema.ts';
import type { StationStore } from '../station-store.ts';
import { mutationsOf, type TransactionRecord } from '../durability/mutations.ts';
import type { Durability } from './durability.ts';
import { type BoundTables, boundTables } from '../bound-tables.ts';

/** Whether the store was closed: `close()` sets it first, and writes and sweeps refuse or stop then. */
export interface StoreLifecycle {
  closed: boolean;
}

type WriteFn<T> = (t: BoundTables) => Promise<T> | T;

/**
 * The store's `write`: a Dexie read-write transaction that resolves once its commit is durable in
 * SQLite (station-store.ts says what a caller can count on). Counts the outermost writes not done
 * yet, which `close()` waits for.
 */
export class StoreWrites {
  /** Outermost writes started and not yet durable (or failed). */
  inFlight = 0;
  readonly #db: StationDexie;
  readonly #durability: Durability;
  readonly #allTables: readonly string[];
  readonly #lifecycle: StoreLifecycle;

  constructor(db: StationDexie, durability: Durability, allTables: readonly string[], lifecycle: StoreLifecycle) {
    this.#db = db;
    this.#durability = durability;
    this.#allTables = allTables;
    this.#lifecycle = lifecycle;
  }

  readonly write: StationStore['write'] = <T>(tablesOrFn: readonly StationTableName[] | WriteFn<T>, maybeFn?: WriteFn<T>): Promise<T> => {
    const fn = typeof tablesOrFn === 'function' ? tablesOrFn : maybeFn;
    const tables = typeof tablesOrFn === 'function' ? [...this.#allTables] : [...tablesOrFn];
    if (!fn) return Promise.reject(new TypeError('store.write needs a function.'));
    // Nested in a running write: join it as a Dexie sub-transaction (the outer write waits for the
    // commit). Not an async function on purpose: an extra native promise hop here would let the
    // IndexedDB transaction commit before the nested work is done.
    if (Dexie.currentTransaction) return this.#db.transaction('rw', tables, (tx) => fn(boundTables(tx)));
    return this.#writeOutermost(tables, fn);
  };

  async #writeOutermost<T>(tables: string[], fn: WriteFn<T>): Promise<T> {
    if (this.#lifecycle.closed) throw new StoreClosedError();
    const { loop, records, mutated } = this.#durability;
    this.inFlight += 1;
    try {
      await loop.ready();
      let transaction: Transaction | undefined;
      let idbTransaction: object | undefined;
      // While this write is queued or running in the engine, the commit loop lets it join the next commit.
      loop.writeEntered();
      let result: T;
      try {
        result = await this.#db.transaction('rw', tables, (tx) => {
          // Dexie's handle on the engine transaction: the key under which the recording middleware
          // files this write's mutations (docs/decisions/store-fast-paths.md).
          transaction = tx;
          idbTransaction = tx.idbtrans;
          return fn(boundTables(tx));
        });
      } catch (error) {
        throw outlivedTransaction(error, idbTransaction ? records.get(idbTransaction) : undefined) ?? error;
      } finally {
        loop.writeLeft();
      }
      const record = idbTransaction ? records.get(idbTransaction) : undefined;
      if (record) await record.durable;
      // No record: right for a write that changed nothing (it reads, or its script did nothing).
      // One that did change records would otherwise be acknowledged before it is on disk.
      else if (transaction && mutated.has(transaction)) throw new UnrecordedWriteError();
      return result;
    } finally {
      this.inFlight -= 1;
    }
  }
}

/**
 * The named error for a write whose script outlived its transaction (a foreign `await`), or
 * undefined when `error` is something else. Looked at only once the write has failed: a write
 * refused although the engine committed its transaction can only be one whose transaction ended
 * while its script ran on (a script that fails in time aborts it); without changes, Dexie's own
 * errors for a transaction that ended early say it.
 */
function outlivedTransaction(error: unknown, record: TransactionRecord | undefined): ForeignAwaitInWriteError | undefined {
  if (error instanceof ForeignAwaitInWriteError) return undefined;
  if (record?.committed) return new ForeignAwaitInWriteError(error, mutationsOf(record).length);
  const name = error instanceof Error ? error.name : undefined;
  if (name === 'PrematureCommitError' || name === 'TransactionInactiveError') return new ForeignAwaitInWriteError(error, 0);
  return undefined;
}
