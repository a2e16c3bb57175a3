import type { IndexableType, Table, Transaction, UpdateSpec } from 'dexie';
import { engineReadsFor } from './engine-reads.ts';
import type { ReadTables } from './read-tables.ts';
import type {
  ChangeLogEntry,
  IdempotencyKey,
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
import { STATION_TABLES, type StationDexie, type StationTableName } from './schema.ts';

/*
 * The store's tables (read-tables.ts, bound-tables.ts say what they offer) over Dexie's: the one
 * place outside the engine's set-up where the core's questions become Dexie queries. Every method
 * hands back Dexie's own promise, never one of an `async` function: inside a write, Dexie's promise
 * keeps the write's zone and adds no native hop (docs/decisions/dexie-transactions.md).
 *
 * The deletes use only index ranges and value-reading filters. Dexie's `until()` must not be used
 * before `delete()`, `modify()`, `keys()` or `primaryKeys()`: those walk a key-only cursor (`until`
 * does not mark the collection as needing values, unlike `filter`), so the callback is handed
 * `undefined`. That is what stopped every restart of a station whose change log held anything
 * (docs/decisions/dexie-until-key-cursors.md); lint bans `until`.
 */

type PrintJobState = PrintJobRecord['state'];

/** A table's records by key, over one Dexie table (the engine's own, or one bound to a write's transaction). */
class StoreTable<T, Key, Insert = T> {
  protected readonly table: Table<T, Key, Insert>;
  constructor(table: Table<T, Key, Insert>) {
    this.table = table;
  }
  get(key: Key): Promise<T | undefined> {
    return this.table.get(key);
  }
  bulkGet(keys: readonly Key[]): Promise<Array<T | undefined>> {
    return this.table.bulkGet([...keys]);
  }
  count(): Promise<number> {
    return this.table.count();
  }
  all(): Promise<T[]> {
    return this.table.toArray();
  }
  put(record: Insert): Promise<Key> {
    return this.table.put(record);
  }
  add(record: Insert): Promise<Key> {
    return this.table.add(record);
  }
  bulkAdd(records: readonly Insert[]): Promise<Key> {
    return this.table.bulkAdd([...records]);
  }
  bulkPut(records: readonly Insert[]): Promise<Key> {
    return this.table.bulkPut([...records]);
  }
  update(key: Key, changes: Partial<T>): Promise<number> {
    return this.table.update(key as Key & IndexableType, changes as UpdateSpec<Insert>);
  }
  delete(key: Key): Promise<void> {
    return this.table.delete(key);
  }
  bulkDelete(keys: readonly Key[]): Promise<void> {
    return this.table.bulkDelete([...keys]);
  }
  clear(): Promise<void> {
    return this.table.clear();
  }
}

class TokenTable extends StoreTable<Token, number> {
  activeNamed(name: string): Promise<Token | undefined> {
    return this.table.filter((token) => token.revoked_at === null && token.name === name).first();
  }
  deleteExpiredBefore(cutoff: string): Promise<number> {
    return this.table.filter((token) => token.expires_at !== null && token.expires_at < cutoff).delete();
  }
  revokeOfOperator(operatorId: number, now: string): Promise<number> {
    return this.table.filter((token) => token.operator_id === operatorId && token.revoked_at === null).modify({ revoked_at: now });
  }
}

class ReturnTable extends StoreTable<ReturnRecord, number> {
  withSkuKey(skuKey: string, limit: number): Promise<ReturnRecord[]> {
    return this.table.where('sku_keys').equals(skuKey).limit(limit).toArray();
  }
}

const TRACKING_INDEX = '[account_id+tracking_key]';

class ReturnPackageTable extends StoreTable<ReturnPackage, number> {
  readonly #tx: Transaction | undefined;
  constructor(table: Table<ReturnPackage, number>, tx: Transaction | undefined) {
    super(table);
    this.#tx = tx;
  }
  ofReturn(returnId: number): Promise<ReturnPackage[]> {
    return this.table.where('return_id').equals(returnId).toArray();
  }
  withTracking(accountId: number, trackingKey: string): Promise<ReturnPackage | undefined> {
    return this.table.where(TRACKING_INDEX).equals([accountId, trackingKey]).first();
  }
  idWithTracking(accountId: number, trackingKey: string): Promise<number | undefined> {
    const key: [number, string] = [accountId, trackingKey];
    // Keys only: the package itself is not needed, and the engine would clone it. From memory (and
    // SQLite for cold packages) without a request once the engine runs this write.
    const inMemory = this.#tx && engineReadsFor(this.#tx.db.backendDB())?.peekKeysInWrite(this.#tx, 'return_packages', TRACKING_INDEX, key);
    if (inMemory) return Promise.resolve(inMemory.find((id): id is number => typeof id === 'number'));
    return this.table
      .where(TRACKING_INDEX)
      .equals(key)
      .limit(1)
      .primaryKeys()
      .then(([id]) => id);
  }
}

class LineItemTable extends StoreTable<PackageLineItem, number> {
  ofPackage(packageId: number): Promise<PackageLineItem[]> {
    return this.table.where('return_package_id').equals(packageId).toArray();
  }
  countOfPackage(packageId: number): Promise<number> {
    return this.table.where('return_package_id').equals(packageId).count();
  }
}

class MediaFileTable extends StoreTable<MediaFile, number> {
  ofPackage(packageId: number): Promise<MediaFile[]> {
    return this.table.where('return_package_id').equals(packageId).toArray();
  }
  withUrlToken(urlToken: string): Promise<MediaFile | undefined> {
    return this.table.where('url_token').equals(urlToken).first();
  }
}

class IdempotencyKeyTable extends StoreTable<IdempotencyKey, string> {
  deleteCreatedBefore(cutoff: string): Promise<number> {
    return this.table.where('created_at').below(cutoff).delete();
  }
}

class ChangeLogTable extends StoreTable<ChangeLogEntry, number> {
  deleteUpTo(seq: number): Promise<number> {
    return this.table.where('seq').belowOrEqual(seq).delete();
  }
}

class OutboxTable extends StoreTable<OutboxEntry, string> {
  ofAccount(accountId: number): Promise<OutboxEntry[]> {
    return this.table.where('account_id').equals(accountId).toArray();
  }
}

class UpstreamLinkTable extends StoreTable<UpstreamLink, string> {
  ofUpstream(accountId: number, kind: SyncKind, upstreamId: number): Promise<UpstreamLink | undefined> {
    return this.table.where('[account_id+kind+upstream_id]').equals([accountId, kind, upstreamId]).first();
  }
}

class SyncConflictTable extends StoreTable<SyncConflict, number> {
  newest(limit: number): Promise<SyncConflict[]> {
    return this.table.orderBy('id').reverse().limit(limit).toArray();
  }
}

class PrintJobTable extends StoreTable<PrintJobRecord, number> {
  oldestIn(state: PrintJobState): Promise<PrintJobRecord | undefined> {
    return this.table.where('state').equals(state).first();
  }
  countIn(state: PrintJobState): Promise<number> {
    return this.table.where('state').equals(state).count();
  }
  idsIn(state: PrintJobState): Promise<number[]> {
    return this.table.where('state').equals(state).primaryKeys();
  }
  ofUnit(unitId: string): Promise<PrintJobRecord[]> {
    return this.table.where('unit_id').equals(unitId).toArray();
  }
  newestFirst(): Promise<PrintJobRecord[]> {
    return this.table.orderBy('id').reverse().toArray();
  }
  deleteChangedBefore(cutoff: string, states: readonly PrintJobState[]): Promise<number> {
    return this.table
      .where('updated_at')
      .below(cutoff)
      .filter((job) => states.includes(job.state))
      .delete();
  }
}

// The table classes take Dexie's table of their own record type; the map below is typed loosely
// (a table's name picks its class), checked once here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TableClass = new (table: Table<any, any>, tx: Transaction | undefined) => AnyStoreTable;

/** A store table of any record type (`BoundTables` and `ReadTables` type each by its name). */
export type AnyStoreTable = object;

const TABLE_CLASSES: Partial<Record<StationTableName, TableClass>> = {
  tokens: TokenTable,
  returns: ReturnTable,
  return_packages: ReturnPackageTable,
  package_line_items: LineItemTable,
  media_files: MediaFileTable,
  idempotency_keys: IdempotencyKeyTable,
  change_log: ChangeLogTable,
  outbox: OutboxTable,
  upstream_links: UpstreamLinkTable,
  sync_conflicts: SyncConflictTable,
  print_jobs: PrintJobTable,
};

/** The store's table `name` over Dexie's `table`; `tx`: the write it is bound to, if any. */
export function storeTableOf(name: StationTableName, table: Table, tx: Transaction | undefined): AnyStoreTable {
  const Made = TABLE_CLASSES[name] ?? StoreTable;
  return new Made(table, tx);
}

/**
 * Every table, read only, each operation in a transaction of its own (`store.tables`): the engine's
 * tables behind the store's interface, each made when first used and kept.
 */
export function readTablesOf(db: StationDexie): ReadTables {
  return new EngineReadTables(db) as unknown as ReadTables;
}

class EngineReadTables {
  readonly #db: StationDexie;
  readonly #made: Partial<Record<StationTableName, AnyStoreTable>> = {};
  constructor(db: StationDexie) {
    this.#db = db;
  }
  static {
    for (const name of STATION_TABLES) {
      Object.defineProperty(this.prototype, name, {
        get(this: EngineReadTables) {
          return (this.#made[name] ??= storeTableOf(name, this.#db.table(name), undefined));
        },
      });
    }
  }
}
