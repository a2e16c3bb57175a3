import type { IndexableType, Table } from 'dexie';
import type { RowOf } from './engine-reads.ts';
import type { StationDexie, StationTableName } from './schema.ts';

/*
 * The station's tables as reads see them (`store.tables`, a GET route's `t`): lookups by key and
 * equality on an index, counts and ordered walks — no write, no transaction, nothing of Dexie's
 * beyond these reads. Each read runs through the engine on its own (a cold record comes from
 * SQLite) and answers copies, the caller's own. A write's bound tables (`BoundTables`) are read
 * tables too, so a read helper taking `ReadTables` serves a GET and a write alike.
 *
 * Reads with a faster path of their own (the engine's memory) are the aggregates' (aggregates.ts:
 * `store.returns`, `store.packages`, ...); these tables are for the rest.
 */

/** The primary key type of a station table. */
// Table has three type parameters; only the key type is wanted.
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export type KeyOf<K extends StationTableName> = StationDexie[K] extends Table<infer _T, infer Key, infer _Insert> ? Key : never;

/** Records of a table found by a query, read when one of the answering methods is called. */
export interface ReadCollection<T, Key> {
  toArray(): Promise<T[]>;
  first(): Promise<T | undefined>;
  count(): Promise<number>;
  primaryKeys(): Promise<Key[]>;
  limit(n: number): ReadCollection<T, Key>;
  offset(n: number): ReadCollection<T, Key>;
  reverse(): ReadCollection<T, Key>;
  filter(keep: (record: T) => boolean): ReadCollection<T, Key>;
}

/** One table, read only. */
export interface ReadTable<T, Key> {
  get(key: Key): Promise<T | undefined>;
  /** In the order of `keys`; undefined where a key has no record. */
  bulkGet(keys: Key[]): Promise<Array<T | undefined>>;
  count(): Promise<number>;
  toArray(): Promise<T[]>;
  /** Records whose `index` (a field, or a compound `[a+b]`) equals a value, in primary-key order. */
  where(index: string): { equals(value: IndexableType): ReadCollection<T, Key> };
  /** Every record in the order of `index`. */
  orderBy(index: string): ReadCollection<T, Key>;
}

export type ReadTables = { readonly [K in StationTableName]: ReadTable<RowOf<K>, KeyOf<K>> };
