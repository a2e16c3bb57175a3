import type { DBCoreKeyRange } from 'dexie';

export type StoreKey = number | string;

/** One mutation of a read-write transaction, with its final key and a JSON snapshot of the value. */
export type Mutation =
  | { kind: 'put'; table: string; key: StoreKey; json: string }
  | { kind: 'delete'; table: string; key: StoreKey }
  | { kind: 'deleteRange'; table: string; range: DBCoreKeyRange };

/** A read-write transaction as the durability layer sees it. */
export interface TransactionRecord {
  /** In request order; a slot is null until its request's result (and so its key) is known. */
  slots: Array<Mutation[] | null>;
  /** An upgrade (versionchange) transaction: its commit also moves the schema version on disk. */
  upgrade: boolean;
  /** The engine committed the transaction in memory (its mutations now go to SQLite). */
  committed: boolean;
  /** Settles when the mutations are committed to SQLite, or rejects with CommitFailedError. */
  durable: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

export function newTransactionRecord(upgrade: boolean): TransactionRecord {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const durable = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Writes made outside store.write() have nobody awaiting them; the repair still runs.
  durable.catch(() => {});
  return { slots: [], upgrade, committed: false, durable, resolve, reject };
}

export function mutationsOf(record: TransactionRecord): Mutation[] {
  const all: Mutation[] = [];
  for (const slot of record.slots) if (slot) all.push(...slot);
  return all;
}

/** Whether a bound is a real key of ours (numbers and strings), not Dexie's ±infinity markers. */
export function isBound(value: unknown): value is StoreKey {
  return (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'string';
}

/** The parts of an IndexedDB transaction the store uses (the Node build has no DOM types). */
export interface EngineTransaction {
  readonly mode: string;
  readonly error: unknown;
  addEventListener(type: 'complete' | 'abort', listener: () => void): void;
}

/** Waits for an engine transaction to commit in memory. */
export function engineTransactionDone(trans: unknown, what: string): Promise<void> {
  const idb = trans as EngineTransaction;
  return new Promise<void>((resolve, reject) => {
    idb.addEventListener('complete', () => resolve());
    idb.addEventListener('abort', () => reject(idb.error ?? new Error(`${what} aborted.`)));
  });
}
