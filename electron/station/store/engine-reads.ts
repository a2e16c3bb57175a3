import type { Table, Transaction } from 'dexie';
import { IDBKeyRange } from 'fake-indexeddb';
import type { StationDexie, StationTableName } from './schema.ts';
import { searchTreeOf, treeGet, treeMatches } from './engine-trees.ts';
import { deepFreeze, type Frozen } from './frozen.ts';

/** The record type of a station table. */
// Table has three type parameters; only the record type is wanted.
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export type RowOf<K extends StationTableName> = StationDexie[K] extends Table<infer T, infer _Key, infer _Insert> ? T : never;

/** A key or index value the station queries by: a number, a string, or a compound of them. */
export type PlainKey = number | string | ReadonlyArray<number | string>;

/**
 * Synchronous reads of committed records straight from the engine's memory, for the hottest GETs
 * (docs/decisions/store-engine-reads.md). Through Dexie every read opens an engine transaction
 * of its own, several event-loop turns each; these read the same trees in one turn, so the records
 * a handler reads together come from one moment. Every method answers `undefined` when it cannot
 * answer now — a read-write transaction is running on the table (it changes records in place and
 * may still abort), the record is not in memory (cold, or missing), the hot set may hold only part
 * of the matches, the store is closed, or the engine is not of the expected shape — and the caller
 * then reads through Dexie as before, which handles all of those.
 */
export interface EngineReads {
  /** A copy of the record under `key`; undefined: read through Dexie. */
  get<K extends StationTableName>(table: K, key: number | string): RowOf<K> | undefined;
  /** Copies of every record whose `index` equals `value`, in primary-key order; undefined: read through Dexie. */
  where<K extends StationTableName>(table: K, index: string, value: PlainKey): Array<RowOf<K>> | undefined;
  /**
   * The engine's own record, not a copy (a structured clone is most of a read's cost), frozen deeply
   * (a write to it throws; the engine's next version of the record is a new object): for a caller
   * that turns it into something else (JSON) in the same turn. Never keep it.
   */
  peek<K extends StationTableName>(table: K, key: number | string): Frozen<RowOf<K>> | undefined;
  /**
   * `where` without the copies, under `peek`'s rules. `cluster`: the return whose cluster every match
   * belongs to, when the caller knows it (a package's line items: the package's `return_id`, which
   * never changes), so whether memory holds them all is known without a read from disk.
   */
  peekWhere<K extends StationTableName>(table: K, index: string, value: PlainKey, cluster?: number): ReadonlyArray<Frozen<RowOf<K>>> | undefined;
  /** `peek` of each key, in their order (a list page's records), when memory holds every one of them now; undefined: read through Dexie. */
  peekEach<K extends StationTableName>(table: K, keys: ReadonlyArray<number | string>): ReadonlyArray<Frozen<RowOf<K>>> | undefined;
  /**
   * Inside a write: the engine's own record under `key` as the write `tx` sees it (its own changes
   * included), without a request — only while the engine runs `tx` (no other write can change the
   * table then). Undefined when the engine has not started `tx` yet (its first request waits for
   * the writes before it), it has finished, or the record is not in memory (cold or missing): read
   * through the bound tables then. `peek`'s rules: never change it or keep it. Domain code asks
   * through its bound tables (`t.peek`).
   */
  peekInWrite<K extends StationTableName>(tx: Transaction, table: K, key: number | string): Frozen<RowOf<K>> | undefined;
  /**
   * Inside a write, under `peekInWrite`'s rules: the primary keys of the records whose value on a
   * unique index equals `value`, in key order, from the engine's memory and (for records whose
   * cluster is cold) SQLite, as an equality query through the write's table would find them
   * (without bringing cold clusters in). Undefined: query through the table.
   */
  peekKeysInWrite(tx: Transaction, table: StationTableName, uniqueIndex: string, value: PlainKey): Array<number | string> | undefined;
}

/** fake-indexeddb 6.x internals these reads use (checked at open: engineReadsOf). */
interface RawObjectStore {
  getValue(key: unknown): unknown;
  rawIndexes: Map<string, { getAllValues(range: unknown): unknown[]; records?: unknown; unique?: unknown; getKey?: unknown }>;
  /** Its RecordStore: `records._root` is the search tree walked directly (engine-trees.ts). */
  records?: unknown;
}

interface RawTransaction {
  mode?: unknown;
  _started?: unknown;
  _state?: unknown;
  _scope?: unknown;
}

interface RawDatabase {
  rawObjectStores: Map<string, RawObjectStore>;
  transactions: RawTransaction[];
}

export interface EngineReadsOptions {
  /** Whether the engine holds every match of an equality query (hot-set/middleware.ts). */
  holdsAllMatches(table: string, index: string, value: unknown, cluster?: number): boolean;
  /** The keys of the cold records an equality query on an index matches (hot-set/middleware.ts). */
  coldKeys(table: string, index: string, value: unknown): Array<number | string>;
  /** The store is closed: nothing is answered from memory. */
  isClosed(): boolean;
}

/** Reads that never answer: every read goes through Dexie (the fast path is off, or the engine is not of the expected shape). */
export const PUBLIC_READS_ONLY: EngineReads = {
  get: () => undefined,
  where: () => undefined,
  peek: () => undefined,
  peekWhere: () => undefined,
  peekEach: () => undefined,
  peekInWrite: () => undefined,
  peekKeysInWrite: () => undefined,
};

/** The reads of each open engine, by its database (`db.backendDB()`): bound tables find theirs through their transaction. */
const readsByEngine = new WeakMap<object, EngineReads>();

/** The engine reads of an open engine's database (`db.backendDB()`), if it has them. */
export function engineReadsFor(backend: unknown): EngineReads | undefined {
  return typeof backend === 'object' && backend !== null ? readsByEngine.get(backend) : undefined;
}

/** A single key the trees can be walked by directly; other keys (compound, dates) take the engine's own lookup. */
const isSimpleKey = (key: unknown): key is number | string => (typeof key === 'number' && !Number.isNaN(key)) || typeof key === 'string';

/**
 * The engine reads of an opened engine (`db.backendDB()`), or, when fake-indexeddb's internals are
 * not what this version expects, reads that always defer to Dexie (and a warning that says why).
 */
export function engineReadsOf(backend: unknown, options: EngineReadsOptions): EngineReads {
  const raw = rawDatabaseOf(backend);
  if (typeof raw === 'string') {
    console.warn(`Returns station store: reading through Dexie only (slower): fake-indexeddb internals differ (${raw})`);
    return PUBLIC_READS_ONLY;
  }
  /** A transaction that may have changed `table` in place and not finished: a started read-write or upgrade one. */
  const changing = (table: string): boolean =>
    raw.transactions.some(
      (t) => !(t._state === 'finished' || t.mode === 'readonly' || t._started === false || (t._scope instanceof Set && !t._scope.has(table))),
    );
  const storeOf = (table: string): RawObjectStore | undefined => (options.isClosed() || changing(table) ? undefined : raw.rawObjectStores.get(table));

  /** The live record values under `key`, or through the engine's public lookup (a copy) when its tree cannot be walked. */
  const peek = (table: string, key: number | string): unknown => {
    const store = storeOf(table);
    if (!store) return undefined;
    const tree = isSimpleKey(key) ? searchTreeOf(store.records) : undefined;
    // A miss is not an answer: the record may be cold (only in SQLite), which Dexie's path reads.
    return tree ? treeGet(tree, key)?.value : store.getValue(key);
  };
  const peekEach = (table: string, keys: ReadonlyArray<number | string>): unknown[] | undefined => {
    const store = storeOf(table);
    if (!store) return undefined;
    const tree = searchTreeOf(store.records);
    const found: unknown[] = [];
    for (const key of keys) {
      const value = tree && isSimpleKey(key) ? treeGet(tree, key)?.value : store.getValue(key);
      if (value === undefined) return undefined; // cold, or gone since SQLite listed it: Dexie's path knows which
      found.push(value);
    }
    return found;
  };
  const peekWhere = (table: string, index: string, value: PlainKey, cluster?: number): unknown[] | undefined => {
    const store = storeOf(table);
    const rawIndex = store?.rawIndexes.get(index);
    if (!store || !rawIndex || !options.holdsAllMatches(table, index, value, cluster)) return undefined;
    const records = searchTreeOf(store.records);
    const entries = isSimpleKey(value) && records ? searchTreeOf(rawIndex.records) : undefined;
    if (records && entries) {
      const values: unknown[] = [];
      for (const entry of treeMatches(entries, value as number | string)) {
        const found = isSimpleKey(entry.value) ? treeGet(records, entry.value)?.value : undefined;
        if (found === undefined) return rawIndex.getAllValues(IDBKeyRange.only(value)); // not what this walk expects: the engine's own lookup
        values.push(found);
      }
      return values;
    }
    let range: unknown;
    try {
      range = IDBKeyRange.only(value);
    } catch {
      return undefined; // not a valid key: Dexie's path gives its own error
    }
    return rawIndex.getAllValues(range);
  };

  /** Whether the engine runs `tx` now as a write over `table`: started (so every write before it has finished) and not finished. */
  const runsNow = (tx: Transaction, table: string): boolean => {
    const engine = (tx as unknown as { idbtrans?: RawTransaction }).idbtrans;
    return (
      engine !== undefined &&
      engine._started === true &&
      engine._state !== 'finished' &&
      engine.mode === 'readwrite' &&
      engine._scope instanceof Set &&
      engine._scope.has(table) &&
      raw.transactions.includes(engine)
    );
  };
  const peekInWrite = (tx: Transaction, table: string, key: number | string): unknown => {
    if (options.isClosed() || !isSimpleKey(key) || !runsNow(tx, table)) return undefined;
    const tree = searchTreeOf(raw.rawObjectStores.get(table)?.records);
    return tree ? treeGet(tree, key)?.value : undefined;
  };

  const peekKeysInWrite = (tx: Transaction, table: string, index: string, value: PlainKey): Array<number | string> | undefined => {
    if (options.isClosed() || !runsNow(tx, table)) return undefined;
    const store = raw.rawObjectStores.get(table);
    const rawIndex = store?.rawIndexes.get(index);
    const records = searchTreeOf(store?.records);
    if (!records || rawIndex?.unique !== true || typeof rawIndex.getKey !== 'function') return undefined;
    let hot: unknown;
    try {
      hot = (rawIndex.getKey as (key: unknown) => unknown).call(rawIndex, value);
    } catch {
      return undefined; // not a valid key: the table's query gives its own error
    }
    if (hot !== undefined && !isSimpleKey(hot)) return undefined;
    const keys = hot === undefined ? [] : [hot];
    // A cold match the engine also holds (a partly present cluster after a repair) is answered by the engine.
    for (const key of options.coldKeys(table, index, value)) if (isSimpleKey(key) && treeGet(records, key) === undefined) keys.push(key);
    return keys.sort((a, b) => (typeof a === typeof b ? (a < b ? -1 : a > b ? 1 : 0) : typeof a === 'number' ? -1 : 1));
  };

  const reads: EngineReads = {
    get<K extends StationTableName>(table: K, key: number | string): RowOf<K> | undefined {
      const found = peek(table, key);
      return found === undefined ? undefined : (structuredClone(found) as RowOf<K>);
    },
    where<K extends StationTableName>(table: K, index: string, value: PlainKey): Array<RowOf<K>> | undefined {
      const found = peekWhere(table, index, value);
      return found && (structuredClone(found) as Array<RowOf<K>>);
    },
    // The engine's own records leave frozen (deepFreeze); the copies of get/where are the caller's.
    peek: <K extends StationTableName>(table: K, key: number | string) => deepFreeze(peek(table, key) as RowOf<K> | undefined),
    peekWhere: <K extends StationTableName>(table: K, index: string, value: PlainKey, cluster?: number) =>
      freezeEach(peekWhere(table, index, value, cluster) as Array<RowOf<K>> | undefined),
    peekEach: <K extends StationTableName>(table: K, keys: ReadonlyArray<number | string>) => freezeEach(peekEach(table, keys) as Array<RowOf<K>> | undefined),
    peekInWrite: <K extends StationTableName>(tx: Transaction, table: K, key: number | string) =>
      deepFreeze(peekInWrite(tx, table, key) as RowOf<K> | undefined),
    peekKeysInWrite,
  };
  readsByEngine.set(backend as object, reads);
  return reads;
}

/** Each record frozen; the list itself is the caller's (a new array each read). */
function freezeEach<T>(records: T[] | undefined): ReadonlyArray<Frozen<T>> | undefined {
  if (records) for (const record of records) deepFreeze(record);
  return records as ReadonlyArray<Frozen<T>> | undefined;
}

/** The engine's raw database, or what differs from the expected shape. */
function rawDatabaseOf(backend: unknown): RawDatabase | string {
  const raw = (backend as { _rawDatabase?: Partial<RawDatabase> } | null)?._rawDatabase;
  if (!raw) return 'the engine has no _rawDatabase';
  if (!(raw.rawObjectStores instanceof Map)) return 'no rawObjectStores map';
  if (!Array.isArray(raw.transactions)) return 'no transactions list';
  for (const [name, store] of raw.rawObjectStores) {
    if (typeof store?.getValue !== 'function') return `object store ${name} has no getValue`;
    if (!(store.rawIndexes instanceof Map)) return `object store ${name} has no rawIndexes map`;
    for (const [indexName, index] of store.rawIndexes) {
      if (typeof index?.getAllValues !== 'function') return `index ${name}.${indexName} has no getAllValues`;
    }
  }
  return raw as RawDatabase;
}
