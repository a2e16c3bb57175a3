/**
 * The fast way to fill the just-opened, empty engine from the SQLite copy: build fake-indexeddb's
 * search trees in one pass each instead of inserting record by record.
 *
 * Inserting 250,000 records one by one (`storeRecord`) costs a red-black insertion per record and
 * per index entry (about 700,000 of them at 100,000 packages, with generator-based lookups for the
 * unique checks), plus a DOMException for every record that has no entry in an index (a null
 * tracking key). Here every table's records and index entries are sorted once (they mostly come
 * sorted already) and each tree is built balanced with fake-indexeddb's own `_rebuild`, the
 * routine it uses itself to compact a tree. Index keys come from the engine's own `getIndexKey`,
 * so they are exactly what a put would store.
 *
 * This reads fake-indexeddb 6.x internals (`IDBDatabase._rawDatabase.rawObjectStores` → object
 * stores with `records`, `rawIndexes`, `keyGenerator`; trees with `_rebuild`). `directFillTargets`
 * checks that shape and says what differs, and the caller then logs that and loads through the
 * engine's public API (load.ts). docs/decisions/store-fast-paths.md says what it buys.
 */

import { engineObjectStores, NO_OBJECT_STORES, rebuildTree, type SearchTree, type TreeRecord } from './engine-trees.ts';

interface RawIndex {
  name: string;
  multiEntry: boolean;
  unique: boolean;
  initialized: boolean;
  keyPath: string | string[];
  records: { records: SearchTree };
  getIndexKey(value: unknown): unknown;
}

interface RawObjectStore {
  name: string;
  keyPath: string;
  records: { records: SearchTree };
  rawIndexes: Map<string, RawIndex>;
  keyGenerator: { setIfLarger(num: number): void } | null;
}

/** An empty object store of the engine, ready to be filled directly. */
export type DirectFillTarget = RawObjectStore;

/** The engine's object stores, or why the direct path cannot be used with this engine. */
export type DirectFillCheck = { targets: Map<string, DirectFillTarget> } | { mismatch: string };

/**
 * The engine's object stores for `tables`, when every one of them has the expected internal shape;
 * otherwise what differs (the caller then uses the portable path for every table).
 */
export function directFillTargets(backend: unknown, tables: readonly string[]): DirectFillCheck {
  const stores = engineObjectStores(backend);
  if (!stores) return { mismatch: NO_OBJECT_STORES };
  const targets = new Map<string, DirectFillTarget>();
  for (const table of tables) {
    const store: unknown = stores.get(table);
    const mismatch = objectStoreMismatch(store);
    if (mismatch) return { mismatch: `object store ${table}: ${mismatch}` };
    targets.set(table, store as DirectFillTarget);
  }
  return { targets };
}

/**
 * Fills one empty object store with `values` (parsed records with inbound keys) and all its
 * indexes, then moves its key generator past `lastIssuedId`. Throws, before changing anything,
 * if a record has no usable key or a key or unique index entry is held twice.
 */
export function fillObjectStore(store: DirectFillTarget, values: readonly unknown[], lastIssuedId: number): void {
  const records: TreeRecord[] = new Array<TreeRecord>(values.length);
  let highestNumber = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const key = (value as Record<string, unknown> | null)?.[store.keyPath];
    if (!isPlainKey(key)) throw new Error(`Loading ${store.name}: a record has no valid key in "${store.keyPath}".`);
    if (typeof key === 'number' && key > highestNumber) highestNumber = key;
    records[i] = { key, value };
  }
  sortUnique(records, (key) => `Loading ${store.name}: key ${JSON.stringify(key)} is held twice.`);

  const indexes: Array<[RawIndex, TreeRecord[]]> = [];
  for (const index of store.rawIndexes.values()) indexes.push([index, indexEntries(index, records)]);

  // Everything is checked: only now change the engine.
  rebuildTree(store.records.records, records);
  for (const [index, entries] of indexes) rebuildTree(index.records.records, entries);
  if (highestNumber > 0) store.keyGenerator?.setIfLarger(highestNumber);
  if (lastIssuedId > 0) store.keyGenerator?.setIfLarger(lastIssuedId);
}

/** The sorted entries of one index over `records`, as a put of each record would create them. */
function indexEntries(index: RawIndex, records: readonly TreeRecord[]): TreeRecord[] {
  const entries: TreeRecord[] = [];
  const keyOf = indexKeyReader(index);
  for (const record of records) {
    const indexKey = keyOf(record.value);
    if (indexKey === undefined) continue;
    if (index.multiEntry && Array.isArray(indexKey)) {
      for (const part of indexKey as unknown[]) entries.push({ key: part, value: record.key });
    } else {
      entries.push({ key: indexKey, value: record.key });
    }
  }
  if (index.unique) {
    sortUnique(entries, (key) => `Loading ${index.name}: unique index key ${JSON.stringify(key)} is held twice.`);
  } else {
    const compare = sameTypedKeys(entries) && sameTypedValues(entries) ? comparePlainEntries : compareEntries;
    if (!isSorted(entries, compare)) entries.sort(compare);
  }
  return entries;
}

/**
 * Reads the index key of a record as the engine's `getIndexKey` does. Plain fields (numbers and
 * strings, directly on the record, which is all JSON records index here) are read directly; any
 * other case is left to the engine. A missing or null part means no entry: the engine finds that
 * out by throwing (and catching) a DOMException, which costs more than the rest of the entry.
 */
function indexKeyReader(index: RawIndex): (value: unknown) => unknown {
  const engine = (value: unknown): unknown => index.getIndexKey(value);
  const paths = typeof index.keyPath === 'string' ? [index.keyPath] : index.keyPath;
  if (paths.some((path) => path === '' || path.includes('.'))) return engine;
  if (typeof index.keyPath === 'string') {
    const path = index.keyPath;
    return (value) => {
      const field = ownField(value, path);
      if (field === null || field === undefined) return undefined;
      if (isPlainKey(field)) return field;
      if (index.multiEntry && Array.isArray(field) && field.every(isPlainKey)) return uniqueParts(field);
      return engine(value);
    };
  }
  return (value) => {
    const key: unknown[] = [];
    for (const path of paths) {
      const field = ownField(value, path);
      if (field === null || field === undefined) return undefined;
      if (!isPlainKey(field)) return engine(value);
      key.push(field);
    }
    return key;
  };
}

function ownField(value: unknown, path: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, path) ? (value as Record<string, unknown>)[path] : undefined;
}

/** A multi-entry key's parts, each once (as the engine keeps them). */
function uniqueParts(parts: ReadonlyArray<number | string>): Array<number | string> {
  const unique: Array<number | string> = [];
  for (const part of parts) if (!unique.includes(part)) unique.push(part);
  return unique;
}

/** Sorts by key (usually a no-op: SQLite returns rows in key order) and refuses equal keys. */
function sortUnique(records: TreeRecord[], duplicate: (key: unknown) => string): void {
  const compare = sameTypedKeys(records) ? comparePlainKeys : compareRecordKeys;
  if (!isSorted(records, compare)) records.sort(compare);
  for (let i = 1; i < records.length; i++) {
    const key = records[i]?.key;
    if (compareKeys(records[i - 1]?.key, key) === 0) throw new Error(duplicate(key));
  }
}

function isSorted(records: readonly TreeRecord[], compare: (a: TreeRecord, b: TreeRecord) => number): boolean {
  for (let i = 1; i < records.length; i++) {
    if (compare(records[i - 1] as TreeRecord, records[i] as TreeRecord) > 0) return false;
  }
  return true;
}

const compareRecordKeys = (a: TreeRecord, b: TreeRecord): number => compareKeys(a.key, b.key);
/** Non-unique indexes order entries by key, then by primary key (as fake-indexeddb's trees do). */
const compareEntries = (a: TreeRecord, b: TreeRecord): number => compareKeys(a.key, b.key) || compareKeys(a.value, b.value);

// The same orders, for the usual case of keys (and primary keys) that are all numbers or all
// strings: `<` alone orders them as IndexedDB does, and sorting 200,000 entries takes a third of the time.
const comparePlain = (a: unknown, b: unknown): number => ((a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0);
const comparePlainKeys = (a: TreeRecord, b: TreeRecord): number => comparePlain(a.key, b.key);
const comparePlainEntries = (a: TreeRecord, b: TreeRecord): number => comparePlain(a.key, b.key) || comparePlain(a.value, b.value);

function sameTypedKeys(records: readonly TreeRecord[]): boolean {
  return sameType(records, (record) => record.key);
}

function sameTypedValues(records: readonly TreeRecord[]): boolean {
  return sameType(records, (record) => record.value);
}

/** Whether `part` of every record is a number, or of every record a string. */
function sameType(records: readonly TreeRecord[], part: (record: TreeRecord) => unknown): boolean {
  const first = records.length > 0 ? typeof part(records[0] as TreeRecord) : 'number';
  if (first !== 'number' && first !== 'string') return false;
  for (const record of records) if (typeof part(record) !== first) return false;
  return true;
}

/**
 * IndexedDB key order for the keys JSON records can hold (numbers < strings < arrays; strings by
 * UTF-16 code unit, which is what `<` compares).
 */
export function compareKeys(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  const rankA = keyRank(a);
  const rankB = keyRank(b);
  if (rankA !== rankB) return rankA - rankB;
  if (rankA === ARRAY_RANK) {
    const first = a as unknown[];
    const second = b as unknown[];
    const length = Math.min(first.length, second.length);
    for (let i = 0; i < length; i++) {
      const order = compareKeys(first[i], second[i]);
      if (order !== 0) return order;
    }
    return first.length - second.length;
  }
  throw new Error(`Not a key of a stored record: ${String(a)}`);
}

const ARRAY_RANK = 3;

function keyRank(key: unknown): number {
  if (typeof key === 'number') return 1;
  if (typeof key === 'string') return 2;
  if (Array.isArray(key)) return ARRAY_RANK;
  throw new Error(`Not a key of a stored record: ${String(key)}`);
}

function isPlainKey(key: unknown): key is number | string {
  return (typeof key === 'number' && !Number.isNaN(key)) || typeof key === 'string';
}

function isSearchTree(tree: unknown): tree is SearchTree {
  const candidate = tree as SearchTree | undefined;
  return typeof candidate?._rebuild === 'function' && candidate._numNodes === 0 && candidate._root === undefined;
}

function objectStoreMismatch(store: unknown): string | undefined {
  const candidate = store as RawObjectStore | undefined;
  if (!candidate) return 'missing';
  if (typeof candidate.keyPath !== 'string' || candidate.keyPath.includes('.')) return 'key path is not a plain field';
  if (!isSearchTree(candidate.records?.records)) return 'records are not a search tree';
  if (!(candidate.rawIndexes instanceof Map)) return 'no rawIndexes map';
  if (!('keyGenerator' in candidate)) return 'no keyGenerator';
  for (const index of candidate.rawIndexes.values()) {
    const fillable =
      index.initialized === true &&
      typeof index.getIndexKey === 'function' &&
      typeof index.multiEntry === 'boolean' &&
      typeof index.unique === 'boolean' &&
      (typeof index.keyPath === 'string' || Array.isArray(index.keyPath)) &&
      isSearchTree(index.records?.records);
    if (!fillable) return `index ${String(index.name)} is not of the expected shape`;
  }
  return undefined;
}
