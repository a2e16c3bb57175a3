import type { DatabaseSync } from 'node:sqlite';
import type { DBCore } from 'dexie';
import { engineTransactionDone } from './durability/mutations.ts';
import { quoteIdent } from './sqlite/layout.ts';

// fake-indexeddb shifts its request queue per request (O(queue length)): issuing all rows at once is
// quadratic, so each chunk is issued only when the previous one has been stored.
const CHUNK = 2_000;
const READ_CHUNK = 5_000;

/** Where the rows come from: each stored record (parsed) of a table, and the highest id ever handed out. */
export interface StoredTable {
  name: string;
  rows(): Iterable<unknown>;
  lastIssuedId: number;
}

/**
 * The parts of fake-indexeddb's internal object store that the fast load uses (fake-indexeddb 6.x:
 * `IDBDatabase._rawDatabase.rawObjectStores` → ObjectStore with `storeRecord` and `keyGenerator`).
 */
interface RawObjectStore {
  storeRecord(record: { key: unknown; value: unknown }, noOverwrite: boolean): unknown;
  keyGenerator: { setIfLarger(num: number): void } | null;
}

/**
 * Reads each table in key order, 5,000 records per query, as one JSON array text per chunk:
 * one string and one JSON.parse per chunk instead of a row object and a parse per record, which
 * halves the read time of a large store.
 */
export function storedTables(db: DatabaseSync, tables: readonly string[]): StoredTable[] {
  const sequence = db.prepare('SELECT last FROM _sequences WHERE name = ?');
  return tables.map((name) => ({
    name,
    *rows() {
      const chunk = db.prepare(
        `SELECT '[' || group_concat(v, ',') || ']' AS records, max(k) AS last, count(*) AS n
           FROM (SELECT k, v FROM ${quoteIdent(name)} WHERE k > ? ORDER BY k LIMIT ${READ_CHUNK})`,
      );
      const first = db.prepare(`SELECT min(k) AS k FROM ${quoteIdent(name)}`).get() as { k: unknown };
      if (first.k === null) return;
      // Keys are numbers or strings; start below the smallest one of its kind.
      let after: number | string = typeof first.k === 'string' ? '' : Number.MIN_SAFE_INTEGER;
      for (;;) {
        const row = chunk.get(after) as { records: string | null; last: number | string | null; n: number };
        if (row.n === 0 || row.records === null || row.last === null) return;
        yield* JSON.parse(row.records) as unknown[];
        after = row.last;
        if (row.n < READ_CHUNK) return;
      }
    },
    lastIssuedId: (sequence.get(name) as { last: number } | undefined)?.last ?? 0,
  }));
}

/**
 * Loads the SQLite copy into the empty, just-opened engine, before anybody else can use it.
 *
 * Fast path: the parsed records go straight into fake-indexeddb's object stores (`storeRecord`
 * keeps primary keys, indexes, unique constraints and key generators exactly as a put does) —
 * skipping the request machinery and a structured clone per record that made a 100,000-package
 * open take seconds. The records are freshly parsed, so nothing else holds a reference to them.
 * If the engine's internals are not the expected shape (another fake-indexeddb version), the
 * portable path loads through the DBCore below the recording middleware instead.
 *
 * Either way nothing is written back, and each auto-increment generator is moved past the highest
 * id ever handed out, so a deleted record's id is never given again.
 */
export async function loadIntoEngine(core: DBCore, backend: unknown, tables: readonly StoredTable[]): Promise<void> {
  const raw = rawObjectStores(backend);
  if (raw && tables.every((table) => isRawObjectStore(raw.get(table.name)))) {
    for (const table of tables) {
      const store = raw.get(table.name) as RawObjectStore;
      for (const value of table.rows()) store.storeRecord({ key: undefined, value }, true);
      if (table.lastIssuedId > 0) store.keyGenerator?.setIfLarger(table.lastIssuedId);
    }
    return;
  }
  await loadThroughCore(core, tables);
}

/** The portable path: the public engine API, one transaction, chunked. */
export async function loadThroughCore(core: DBCore, tables: readonly StoredTable[]): Promise<void> {
  const trans = core.transaction(
    tables.map((table) => table.name),
    'readwrite',
  );
  const done = engineTransactionDone(trans, 'Loading the store');
  done.catch(() => {});
  for (const table of tables) {
    const target = core.table(table.name);
    let chunk: unknown[] = [];
    for (const value of table.rows()) {
      chunk.push(value);
      if (chunk.length === CHUNK) {
        checkNoFailures(table.name, await target.mutate({ type: 'add', trans, values: chunk }));
        chunk = [];
      }
    }
    if (chunk.length > 0) checkNoFailures(table.name, await target.mutate({ type: 'add', trans, values: chunk }));
    const primaryKey = target.schema.primaryKey;
    if (primaryKey.autoIncrement && typeof primaryKey.keyPath === 'string' && table.lastIssuedId > 0) {
      // An explicit key at or above the generator moves it; deleting the placeholder does not move it back.
      const placeholder = { [primaryKey.keyPath]: table.lastIssuedId };
      const existing = await target.get({ trans, key: table.lastIssuedId });
      if (existing === undefined) {
        await target.mutate({ type: 'add', trans, values: [placeholder] });
        await target.mutate({ type: 'delete', trans, keys: [table.lastIssuedId] });
      }
    }
  }
  await done;
}

function rawObjectStores(backend: unknown): Map<string, unknown> | undefined {
  const rawDatabase = (backend as { _rawDatabase?: { rawObjectStores?: unknown } } | null)?._rawDatabase;
  return rawDatabase?.rawObjectStores instanceof Map ? (rawDatabase.rawObjectStores as Map<string, unknown>) : undefined;
}

function isRawObjectStore(value: unknown): value is RawObjectStore {
  return typeof (value as RawObjectStore | undefined)?.storeRecord === 'function' && 'keyGenerator' in (value as object);
}

function checkNoFailures(table: string, response: { numFailures: number; failures: Record<number, Error> }): void {
  if (response.numFailures > 0) {
    const first = Object.values(response.failures)[0];
    throw new Error(`Loading ${table}: ${response.numFailures} record(s) were refused by the engine (${first?.message ?? 'unknown'}).`);
  }
}
