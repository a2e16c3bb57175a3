import type { DBCore, DBCoreKeyRange } from 'dexie';
import { engineTransactionDone, type Mutation, type StoreKey } from './mutations.ts';
import type { SqliteWriter } from './sqlite-writer.ts';

/**
 * Brings the in-memory engine back to the disk state for everything `mutations` touched: each key
 * gets its stored record back (or is deleted when SQLite has none), each deleted range is cleared
 * and refilled from SQLite. Runs on the core below the recording middleware, so nothing of it is
 * written back. The repair transaction is created synchronously over every table: IndexedDB then
 * orders every later transaction after it, so no later request sees the failed state.
 */
export function repairFromDisk(core: DBCore, writer: SqliteWriter, mutations: readonly Mutation[]): Promise<void> {
  const keysByTable = new Map<string, Set<StoreKey>>();
  const rangesByTable = new Map<string, DBCoreKeyRange[]>();
  for (const mutation of mutations) {
    if (mutation.kind === 'deleteRange') {
      const ranges = rangesByTable.get(mutation.table) ?? [];
      ranges.push(mutation.range);
      rangesByTable.set(mutation.table, ranges);
    } else {
      const keys = keysByTable.get(mutation.table) ?? new Set<StoreKey>();
      keys.add(mutation.key);
      keysByTable.set(mutation.table, keys);
    }
  }
  const tables = core.schema.tables.map((table) => table.name);
  const trans = core.transaction(tables, 'readwrite');
  const done = engineTransactionDone(trans, 'The repair transaction');
  const requests: Array<Promise<unknown>> = [];
  for (const [table, ranges] of rangesByTable) {
    for (const range of ranges) {
      requests.push(core.table(table).mutate({ type: 'deleteRange', trans, range }));
      const rows = writer.readRange(table, range);
      if (rows.length > 0) requests.push(core.table(table).mutate({ type: 'put', trans, values: rows.map((row) => JSON.parse(row.v)) }));
    }
  }
  for (const [table, keys] of keysByTable) {
    const restore: unknown[] = [];
    const remove: StoreKey[] = [];
    for (const key of keys) {
      const json = writer.read(table, key);
      if (json === undefined) remove.push(key);
      else restore.push(JSON.parse(json));
    }
    if (remove.length > 0) requests.push(core.table(table).mutate({ type: 'delete', trans, keys: remove }));
    if (restore.length > 0) requests.push(core.table(table).mutate({ type: 'put', trans, values: restore }));
  }
  return Promise.all(requests).then(() => done);
}
