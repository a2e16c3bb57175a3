import type { Dexie, EntityTable, Transaction } from 'dexie';
import type {
  Account,
  Carrier,
  ChangeLogEntry,
  IdempotencyKey,
  Location,
  MediaFile,
  Operator,
  OutboxEntry,
  PackageLineItem,
  PrintJobRecord,
  ReturnPackage,
  ReturnRecord,
  StationMeta,
  SyncAccountState,
  SyncConflict,
  Token,
  UpstreamLink,
} from './records.ts';

/**
 * One Dexie version of the station schema. `stores` uses Dexie's syntax; `upgrade` transforms
 * existing data and its mutations are written through to SQLite like any other transaction.
 * Every primary key is inbound (a field of the record): the SQLite copy stores the record alone.
 */
export interface SchemaVersion {
  version: number;
  stores: Record<string, string | null>;
  upgrade?: (tx: Transaction) => Promise<void> | void;
}

/**
 * Dexie indexes are kept to what Dexie's own work needs (primary keys, uniqueness, point lookups);
 * list filters and sorts are answered by SQLite (see sqlite/layout.ts), which keeps opening fast.
 */
export const STATION_SCHEMA: readonly SchemaVersion[] = [
  {
    version: 1,
    stores: {
      accounts: '++id',
      tokens: '++id, &token_hash',
      returns: '++id, *sku_keys',
      return_packages: '++id, return_id, &[account_id+tracking_key]',
      package_line_items: '++id, return_package_id',
      media_files: '++id, return_package_id, sha256, &url_token',
      carriers: '++id, &code',
      locations: '++id, &code',
      operators: '++id, &badge_code',
      idempotency_keys: 'key, created_at',
      change_log: '++seq',
      station_meta: 'key',
    },
  },
  {
    // Sync with the upstream returns service (docs/decisions/sync.md). Additive: no upgrade step.
    version: 2,
    stores: {
      outbox: 'key, account_id',
      upstream_links: 'key, &[account_id+kind+upstream_id]',
      sync_state: 'account_id',
      sync_conflicts: '++id, account_id',
    },
  },
  {
    // The label print queue (docs/decisions/labels-and-print-queue.md). Additive: no upgrade step.
    version: 3,
    stores: {
      print_jobs: '++id, state, unit_id, updated_at',
    },
  },
];

export type StationDexie = Dexie & {
  accounts: EntityTable<Account, 'id'>;
  tokens: EntityTable<Token, 'id'>;
  returns: EntityTable<ReturnRecord, 'id'>;
  return_packages: EntityTable<ReturnPackage, 'id'>;
  package_line_items: EntityTable<PackageLineItem, 'id'>;
  media_files: EntityTable<MediaFile, 'id'>;
  carriers: EntityTable<Carrier, 'id'>;
  locations: EntityTable<Location, 'id'>;
  operators: EntityTable<Operator, 'id'>;
  idempotency_keys: EntityTable<IdempotencyKey, 'key'>;
  change_log: EntityTable<ChangeLogEntry, 'seq'>;
  station_meta: EntityTable<StationMeta, 'key'>;
  outbox: EntityTable<OutboxEntry, 'key'>;
  upstream_links: EntityTable<UpstreamLink, 'key'>;
  sync_state: EntityTable<SyncAccountState, 'account_id'>;
  sync_conflicts: EntityTable<SyncConflict, 'id'>;
  print_jobs: EntityTable<PrintJobRecord, 'id'>;
};

/** Every table of the newest schema version: one list for types, scopes and bound transactions. */
export const STATION_TABLES = [
  'accounts',
  'tokens',
  'returns',
  'return_packages',
  'package_line_items',
  'media_files',
  'carriers',
  'locations',
  'operators',
  'idempotency_keys',
  'change_log',
  'station_meta',
  'outbox',
  'upstream_links',
  'sync_state',
  'sync_conflicts',
  'print_jobs',
] as const satisfies ReadonlyArray<keyof StationDexie>;

export type StationTableName = (typeof STATION_TABLES)[number];

/** The tables of the newest version in `schema` (a table whose stores value is null is dropped). */
export function tablesOf(schema: readonly SchemaVersion[]): Map<string, string> {
  const tables = new Map<string, string>();
  for (const version of [...schema].sort((a, b) => a.version - b.version)) {
    for (const [name, spec] of Object.entries(version.stores)) {
      if (spec === null) tables.delete(name);
      else tables.set(name, spec);
    }
  }
  return tables;
}

export function latestVersion(schema: readonly SchemaVersion[]): number {
  return Math.max(...schema.map((v) => v.version));
}
