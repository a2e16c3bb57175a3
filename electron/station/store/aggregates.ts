import type { EngineReads } from './engine-reads.ts';
import type { Frozen } from './frozen.ts';
import type { Account, MediaFile, Operator, PackageLineItem, ReturnPackage, ReturnRecord, Token } from './records.ts';
import type { StationDexie } from './schema.ts';

/*
 * The store's reads, one aggregate at a time (docs/decisions/store-interface.md). Which path serves
 * a read — the engine's own records (engine-reads.ts, no copy, no engine transaction), a read
 * through Dexie (a copy; a cold record from SQLite) — is decided here alone. Every value handed
 * out is Frozen: the engine's own records are frozen deeply at run time, Dexie's copies are the
 * caller's but typed the same, so no caller can change a record except by a write.
 */

/** Returns (a return and its line items are one record). */
export interface ReturnReads {
  /** The return `id`; undefined: none. */
  get(id: number): Promise<Frozen<ReturnRecord> | undefined>;
  /** The returns of `ids`, in their order; an id with no return is left out (a list page whose ids SQLite found). */
  many(ids: readonly number[]): Promise<ReadonlyArray<Frozen<ReturnRecord>>>;
}

/** A package with the records its views show. */
export interface PackageRecords {
  readonly pkg: Frozen<ReturnPackage>;
  /** In id order. */
  readonly lineItems: ReadonlyArray<Frozen<PackageLineItem>>;
  /** In id order. */
  readonly mediaFiles: ReadonlyArray<Frozen<MediaFile>>;
}

/** A package of a list page, with its count of line items. */
export interface ListedPackage {
  readonly pkg: Frozen<ReturnPackage>;
  readonly lineItemsCount: number;
}

/** Return packages, with their line items and media files. */
export interface PackageReads {
  /** The package `id`; undefined: none. */
  get(id: number): Promise<Frozen<ReturnPackage> | undefined>;
  /** The packages of `ids`, in their order; an id with no package is left out. */
  many(ids: readonly number[]): Promise<ReadonlyArray<Frozen<ReturnPackage>>>;
  /** A list page: the packages of `ids` in their order (an id with none is left out), each with its count of line items. */
  page(ids: readonly number[]): Promise<readonly ListedPackage[]>;
  /** The package `id` with its line items and media files, all of one moment; undefined: no package `id`. */
  whole(id: number): Promise<PackageRecords | undefined>;
  /**
   * The line items whose unit id is `unitId` (a `unit:<id>` tag or a `unit_id` field; compared
   * without case), by id, at most `limit`: a scanned unit label opens its package and item.
   * From SQLite's unit index (sqlite/unit-index.ts): what is durable.
   */
  lineItemsOfUnit(unitId: string, limit: number): Promise<ReadonlyArray<Frozen<PackageLineItem>>>;
  /**
   * The ids of the line items whose serial is `serial` (a `serial` field or a `serial:<value>` tag;
   * compared without case), ascending, at most `limit`. From SQLite's serial index
   * (sqlite/serial-index.ts): what is durable; a write reads the records themselves.
   */
  lineItemIdsOfSerial(serial: string, limit: number): readonly number[];
  /**
   * The packages whose review is in `state` (held: the longest waiting first; decided: the last
   * decided first), at most `limit`. From SQLite's review index (sqlite/review-index.ts): what is durable.
   */
  inReview(state: 'held' | 'released' | 'confirmed', limit: number): Promise<ReadonlyArray<Frozen<ReturnPackage>>>;
}

/** The SQLite indexes package reads ask. */
export interface PackageIndexes {
  unitIndex: (unitId: string, limit: number) => number[];
  serialIndex: (serial: string, limit: number) => number[];
  reviewIndex: (state: string, limit: number) => number[];
}

/** The accounts this station serves. */
export interface AccountReads {
  get(id: number): Promise<Frozen<Account> | undefined>;
  /** Every account, by id. */
  all(): Promise<ReadonlyArray<Frozen<Account>>>;
}

/** Station configuration (carriers, locations): seeded when the station starts, listed by id. */
export interface ConfigReads<R> {
  all(): Promise<ReadonlyArray<Frozen<R>>>;
  /** One page of `perPage` by id (page 1 first), with the total. */
  page(page: number, perPage: number): Promise<{ data: ReadonlyArray<Frozen<R>>; total: number }>;
}

/** The operators (people who receive parcels), by id. */
export interface OperatorReads {
  all(): Promise<ReadonlyArray<Frozen<Operator>>>;
}

/** API tokens. */
export interface TokenReads {
  all(): Promise<ReadonlyArray<Frozen<Token>>>;
  /** The token whose secret hashes to `hash`; undefined: none. */
  byHash(hash: string): Promise<Frozen<Token> | undefined>;
}

const present = <T>(records: Array<T | undefined>): T[] => records.filter((record): record is T => record !== undefined);

export function returnReads(db: StationDexie, memory: EngineReads): ReturnReads {
  return {
    // The engine's memory when it can answer now (no write running on the table, the return hot), else Dexie.
    async get(id) {
      return memory.peek('returns', id) ?? (await db.returns.get(id));
    },
    // All from memory or all through Dexie: a page never waits on a read while it holds engine records.
    async many(ids) {
      return memory.peekEach('returns', ids) ?? present(await db.returns.bulkGet([...ids]));
    },
  };
}

export function packageReads(db: StationDexie, memory: EngineReads, { unitIndex, serialIndex, reviewIndex }: PackageIndexes): PackageReads {
  // An index lists equal keys in primary-key order: line items and media files come back in id order.
  const lineItems = (id: number) => db.package_line_items.where('return_package_id').equals(id).toArray();
  const mediaFiles = (id: number) => db.media_files.where('return_package_id').equals(id).toArray();
  return {
    async get(id) {
      return memory.peek('return_packages', id) ?? (await db.return_packages.get(id));
    },
    async many(ids) {
      return memory.peekEach('return_packages', ids) ?? present(await db.return_packages.bulkGet([...ids]));
    },
    // The engine's own records when memory holds the whole page now and each package carries its
    // count (written since they do): no read at all. Else copies through Dexie, counting what is missing.
    async page(ids) {
      const hot = memory.peekEach('return_packages', ids);
      if (hot?.every((pkg) => pkg.line_items_count !== undefined)) return hot.map((pkg) => ({ pkg, lineItemsCount: pkg.line_items_count ?? 0 }));
      const listed: ListedPackage[] = [];
      for (const pkg of present(await db.return_packages.bulkGet([...ids]))) {
        listed.push({ pkg, lineItemsCount: pkg.line_items_count ?? (await db.package_line_items.where('return_package_id').equals(pkg.id).count()) });
      }
      return listed;
    },
    // From the engine's memory in one turn (so of one moment) when it holds the package and the whole
    // of its records now — they are of its return's cluster (hot-set/rule.ts) — else through Dexie.
    async whole(id) {
      const pkg = memory.peek('return_packages', id);
      if (pkg) {
        const items = memory.peekWhere('package_line_items', 'return_package_id', id, pkg.return_id);
        const files = items && memory.peekWhere('media_files', 'return_package_id', id, pkg.return_id);
        if (items && files) return { pkg, lineItems: items, mediaFiles: files };
      }
      const stored = await db.return_packages.get(id);
      return stored && { pkg: stored, lineItems: await lineItems(id), mediaFiles: await mediaFiles(id) };
    },
    async lineItemsOfUnit(unitId, limit) {
      const ids = unitIndex(unitId, limit);
      if (ids.length === 0) return [];
      return memory.peekEach('package_line_items', ids) ?? present(await db.package_line_items.bulkGet(ids));
    },
    lineItemIdsOfSerial: (serial, limit) => serialIndex(serial, limit),
    async inReview(state, limit) {
      const ids = reviewIndex(state, limit);
      if (ids.length === 0) return [];
      return memory.peekEach('return_packages', ids) ?? present(await db.return_packages.bulkGet(ids));
    },
  };
}

export function accountReads(db: StationDexie): AccountReads {
  return {
    get: (id) => db.accounts.get(id),
    all: () => db.accounts.orderBy('id').toArray(),
  };
}

/** The table of a configuration record, as these reads use it. */
interface ConfigTable<R> {
  count(): PromiseLike<number>;
  orderBy(index: 'id'): { toArray(): PromiseLike<R[]>; offset(n: number): { limit(n: number): { toArray(): PromiseLike<R[]> } } };
}

export function configReads<R>(records: ConfigTable<R>): ConfigReads<R> {
  return {
    // Copies read through Dexie: the caller's own, typed Frozen like every read the store hands out.
    all: async () => (await records.orderBy('id').toArray()) as ReadonlyArray<Frozen<R>>,
    async page(page, perPage) {
      const total = await records.count();
      return {
        data: (await records
          .orderBy('id')
          .offset((page - 1) * perPage)
          .limit(perPage)
          .toArray()) as ReadonlyArray<Frozen<R>>,
        total,
      };
    },
  };
}

export function operatorReads(db: StationDexie): OperatorReads {
  return { all: () => db.operators.orderBy('id').toArray() };
}

export function tokenReads(db: StationDexie): TokenReads {
  return {
    all: () => db.tokens.toArray(),
    byHash: (hash) => db.tokens.where('token_hash').equals(hash).first(),
  };
}
