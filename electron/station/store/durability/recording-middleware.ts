import { Dexie, type DBCore, type DBCoreMutateRequest, type DBCoreMutateResponse, type DBCoreTable, type DBCoreTransaction, type Middleware } from 'dexie';
import { type EngineTransaction, type Mutation, type StoreKey, newTransactionRecord, type TransactionRecord } from './mutations.ts';

/** What the middleware reports to: the commit loop. */
export interface RecordingSink {
  /** A read-write transaction committed in memory; its mutations must now be made durable. */
  completed(record: TransactionRecord): void;
  /** A read-write transaction aborted: nothing to write. */
  aborted(record: TransactionRecord): void;
  /** A read-write transaction made its first mutation (so close() can wait for it). */
  started(): void;
  /** The core below this middleware, for loading and repairing without being recorded. */
  setCore(core: DBCore): void;
}

/**
 * A DBCore middleware at the bottom of Dexie's stack (closest to IndexedDB, so hooks and upgrade
 * functions are seen and keys are final). It records every add/put/delete/deleteRange of each
 * read-write or upgrade transaction and hands the list over when the transaction completes.
 */
export function recordingMiddleware(sink: RecordingSink, records: WeakMap<object, TransactionRecord>): Middleware<DBCore> {
  const recordFor = (trans: DBCoreTransaction): TransactionRecord => {
    let record = records.get(trans);
    if (record) return record;
    const idbTransaction = trans as unknown as EngineTransaction;
    const created = newTransactionRecord(idbTransaction.mode === 'versionchange');
    records.set(trans, created);
    sink.started();
    idbTransaction.addEventListener('complete', () => {
      created.committed = true;
      sink.completed(created);
    });
    idbTransaction.addEventListener('abort', () => sink.aborted(created));
    record = created;
    return record;
  };

  return {
    stack: 'dbcore',
    name: 'station-durability',
    level: -100,
    create(down) {
      sink.setCore(down);
      return {
        table(name: string): DBCoreTable {
          const table = down.table(name);
          const keyPath = table.schema.primaryKey.keyPath;
          if (typeof keyPath !== 'string') throw new Error(`Store table ${name} needs an inbound, single-field primary key.`);
          return {
            ...table,
            mutate(request: DBCoreMutateRequest): Promise<DBCoreMutateResponse> {
              const record = recordFor(request.trans);
              const slot = record.slots.length;
              record.slots.push(null);
              // Snapshot now: IndexedDB clones values when the request is made, the caller may change them afterwards.
              const snapshots = request.type === 'add' || request.type === 'put' ? request.values.map((value) => JSON.stringify(value)) : null;
              return table.mutate(request).then((response) => {
                record.slots[slot] = recorded(name, keyPath, request, response, snapshots);
                return response;
              });
            },
          };
        },
      };
    },
  };
}

/**
 * The other half of the check that no write is acknowledged before it is on disk
 * (`store/open/store-writes.ts`): near the top of Dexie's stack, each mutation notes the Dexie
 * transaction it belongs to — the outermost one, the `tx` that `store.write` hands its script —
 * found through Dexie's own current transaction, not through the engine transaction the recording
 * middleware files records under. A write noted here whose engine transaction has no record is
 * refused (UnrecordedWriteError) instead of being acknowledged without waiting for the disk.
 * Writes below it (the hot set's fault-in, loading, repairs) are not noted: they are not written back.
 */
export function mutationWitness(mutated: WeakSet<object>): Middleware<DBCore> {
  const note = (request: DBCoreMutateRequest): void => {
    let tx = Dexie.currentTransaction as { parent?: object } | null;
    if (!tx) {
      // Dexie runs every table request in its transaction's zone (its own hooks middleware relies
      // on it); should that ever change, the engine transaction is what store.write can still look up.
      mutated.add(request.trans);
      return;
    }
    while (tx.parent) tx = tx.parent;
    mutated.add(tx);
  };
  return {
    stack: 'dbcore',
    name: 'station-mutation-witness',
    // Below the table cache (engine.ts, 1,000), so its table objects are made once per name too.
    level: 900,
    create(down) {
      return {
        ...down,
        table(name: string): DBCoreTable {
          const table = down.table(name);
          return {
            ...table,
            mutate(request: DBCoreMutateRequest): Promise<DBCoreMutateResponse> {
              note(request);
              return table.mutate(request);
            },
          };
        },
      };
    },
  };
}

function recorded(table: string, keyPath: string, request: DBCoreMutateRequest, response: DBCoreMutateResponse, snapshots: string[] | null): Mutation[] {
  const failed = (index: number): boolean => response.failures[index] !== undefined;
  switch (request.type) {
    case 'add':
    case 'put': {
      const results = response.results ?? [];
      const mutations: Mutation[] = [];
      request.values.forEach((value: unknown, index) => {
        if (failed(index)) return;
        const key = results[index] as StoreKey;
        let json = snapshots?.[index] ?? 'null';
        // An auto-increment key is assigned by the engine: add it to the snapshot as the engine does (last field).
        if ((value as Record<string, unknown>)[keyPath] === undefined) {
          json = `${json.length > 2 ? `${json.slice(0, -1)},` : '{'}${JSON.stringify(keyPath)}:${JSON.stringify(key)}}`;
        }
        mutations.push({ kind: 'put', table, key, json });
      });
      return mutations;
    }
    case 'delete':
      return request.keys.filter((_key, index) => !failed(index)).map((key) => ({ kind: 'delete', table, key: key as StoreKey }));
    case 'deleteRange':
      return [{ kind: 'deleteRange', table, range: request.range }];
  }
}
