import type { Table } from 'dexie';
import type { RowOf } from './engine-reads.ts';
import type {
  MediaFile,
  OutboxEntry,
  PackageLineItem,
  PrintJobRecord,
  ReturnPackage,
  ReturnRecord,
  SyncConflict,
  SyncKind,
  Token,
  UpstreamLink,
} from './records.ts';
import type { StationDexie, StationTableName } from './schema.ts';

/*
 * The station's tables as reads see them (`store.tables`, a GET route's `t`): the store's own
 * interface, not the engine's. Each table is read by key (`get`, `bulkGet`), whole (`all`,
 * `count`), or by the named questions the core asks of it (`package_line_items.ofPackage(id)`,
 * `print_jobs.oldestIn('waiting')`, ...); how a question is answered (which index, the engine's
 * memory) is the store's own decision (station-tables.ts). Each read runs through the engine on its
 * own (a cold record comes from SQLite) and answers copies, the caller's own. A write's bound tables
 * (`BoundTables`) are read tables too, so a read helper taking `ReadTables` serves a GET and a write
 * alike.
 *
 * Reads with a faster path of their own (the engine's memory) are the aggregates' (aggregates.ts:
 * `store.returns`, `store.packages`, ...); these tables are for the rest.
 */

/** The primary key type of a station table. */
// Table has three type parameters; only the key type is wanted.
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export type KeyOf<K extends StationTableName> = StationDexie[K] extends Table<infer _T, infer Key, infer _Insert> ? Key : never;

/** A record of a station table as it is added: its key may be left out where the table numbers its records. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export type InsertOf<K extends StationTableName> = StationDexie[K] extends Table<infer _T, infer _Key, infer Insert> ? Insert : never;

/** One table, read only. */
export interface ReadTable<T, Key> {
  get(key: Key): Promise<T | undefined>;
  /** In the order of `keys`; undefined where a key has no record. */
  bulkGet(keys: readonly Key[]): Promise<Array<T | undefined>>;
  count(): Promise<number>;
  /** Every record, in primary-key order. */
  all(): Promise<T[]>;
}

/** The questions asked of the tokens. */
export interface TokenQueries {
  /** The first token (by id) named `name` that is not revoked. */
  activeNamed(name: string): Promise<Token | undefined>;
}

/** The questions asked of the returns. */
export interface ReturnQueries {
  /** At most `limit` returns with a line of SKU key `skuKey` (trimmed, lower-cased), by id. */
  withSkuKey(skuKey: string, limit: number): Promise<ReturnRecord[]>;
}

/** The questions asked of the packages' own records. */
export interface ReturnPackageQueries {
  /** The packages of a return, by id. */
  ofReturn(returnId: number): Promise<ReturnPackage[]>;
  /** The account's package with tracking key `trackingKey` (unique; a cancelled package keeps none). */
  withTracking(accountId: number, trackingKey: string): Promise<ReturnPackage | undefined>;
  /** Its id alone: inside a write answered from the engine's memory when it can, without reading the record. */
  idWithTracking(accountId: number, trackingKey: string): Promise<number | undefined>;
}

/** The questions asked of the packages' line items. */
export interface LineItemQueries {
  /** A package's line items, by id (the order they were added in). */
  ofPackage(packageId: number): Promise<PackageLineItem[]>;
  countOfPackage(packageId: number): Promise<number>;
}

/** The questions asked of the media files' records. */
export interface MediaFileQueries {
  /** A package's media files, by id. */
  ofPackage(packageId: number): Promise<MediaFile[]>;
  /** The file whose capability URL carries `urlToken` (unique). */
  withUrlToken(urlToken: string): Promise<MediaFile | undefined>;
}

/** The questions asked of the sync outbox. */
export interface OutboxQueries {
  /** An account's slots, by key. */
  ofAccount(accountId: number): Promise<OutboxEntry[]>;
}

/** The questions asked of the upstream links. */
export interface UpstreamLinkQueries {
  /** The link of the account's upstream record `upstreamId` of `kind` (unique). */
  ofUpstream(accountId: number, kind: SyncKind, upstreamId: number): Promise<UpstreamLink | undefined>;
}

/** The questions asked of the sync conflicts. */
export interface SyncConflictQueries {
  /** The newest `limit` conflicts, newest first. */
  newest(limit: number): Promise<SyncConflict[]>;
}

type PrintJobState = PrintJobRecord['state'];

/** The questions asked of the print queue. */
export interface PrintJobQueries {
  /** The oldest job (lowest id) in `state`: the queue's head for `waiting`. */
  oldestIn(state: PrintJobState): Promise<PrintJobRecord | undefined>;
  countIn(state: PrintJobState): Promise<number>;
  /** The ids of the jobs in `state`, oldest first. */
  idsIn(state: PrintJobState): Promise<number[]>;
  /** Every job of a unit id, oldest first. */
  ofUnit(unitId: string): Promise<PrintJobRecord[]>;
  /** Every job, newest first. */
  newestFirst(): Promise<PrintJobRecord[]>;
}

/** The named questions of each table that has them. */
export interface TableQueries {
  tokens: TokenQueries;
  returns: ReturnQueries;
  return_packages: ReturnPackageQueries;
  package_line_items: LineItemQueries;
  media_files: MediaFileQueries;
  outbox: OutboxQueries;
  upstream_links: UpstreamLinkQueries;
  sync_conflicts: SyncConflictQueries;
  print_jobs: PrintJobQueries;
}

/** A table's named questions; nothing for a table without any. */
export type QueriesOf<K extends StationTableName> = K extends keyof TableQueries ? TableQueries[K] : unknown;

export type ReadTables = { readonly [K in StationTableName]: ReadTable<RowOf<K>, KeyOf<K>> & QueriesOf<K> };
