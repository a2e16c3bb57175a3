import type { DatabaseSync } from 'node:sqlite';

/*
 * The hot set (docs/decisions/store-hot-set.md): the engine holds the records a working day needs;
 * the rest lives only in SQLite. The unit is a return's cluster — the return, its packages, their
 * line items and media records, and the upstream links and outbox slots of the return and its
 * packages — because the domain code reads them together (a receipt recounts the return from its
 * packages). A cluster is hot when it is work at hand — its return is not fully received, any of
 * its packages is open (not received or cancelled), or the return or a package has an unsent sync
 * change (an outbox slot) — or when the return or a package changed inside the window; of the
 * clusters hot for a recent change alone, at most `recentLimit`, the most recently changed (a
 * peak-season day's volume times the window must not outgrow the dock PC). The change log is never loaded and each
 * sweep sheds what of it is durable (it is read from SQLite: ../change-log-reads.ts). Every other
 * table is small and always hot.
 */

export interface HotSetOptions {
  /** Days a changed record stays hot; 0 keeps only open and unsent records hot. */
  days: number;
  /** Most returns' clusters kept hot for a recent change alone, the most recently changed first; null: no limit. */
  recentLimit: number | null;
  /** The station's clock: where the window ends. */
  now: () => string;
}

export const DEFAULT_HOT_DAYS = 14;

/**
 * 100,000 returns' clusters ≈ 300 MiB of JS heap (≈ 2.9 KB each in the year bench's work): 36 days
 * at the 1,000,000-a-year rate, so the window rules there; 5 days at a peak 20,000 parcels a day.
 */
export const DEFAULT_HOT_RECENT_LIMIT = 100_000;

/**
 * The `station_meta` key of the upstream settings (sync/settings.ts). Unsent changes are hot only
 * while an upstream is set: without one the outbox is a backlog for a later upstream, and sync
 * reads cold records through the same paths as the API when it does run.
 */
export const UPSTREAM_SETTINGS_KEY = 'sync.upstream';

/**
 * The tables whose records may be cold (only in SQLite). The outbox is one of them: without an
 * upstream every local change leaves a slot (a backlog for a later upstream), so it grows with the
 * history, two slots per parcel; with an upstream set every slot's cluster is hot anyway.
 */
export const CLUSTER_TABLES = ['returns', 'return_packages', 'package_line_items', 'media_files', 'upstream_links', 'outbox'] as const;

/** The change log: appended to in the engine (its seq is handed out there), read from SQLite. */
export const CHANGE_LOG_TABLE = 'change_log';

export type ClusterTable = (typeof CLUSTER_TABLES)[number];

export function isClusterTable(name: string): name is ClusterTable {
  return (CLUSTER_TABLES as readonly string[]).includes(name);
}

const OPEN_PACKAGE_STATUSES = ['pending', 'in_transit', 'delivered', 'exception'] as const;
const CLOSED_PACKAGE_STATUSES = ['received', 'cancelled'] as const;

/** Where the window starts: a record changed at or after this instant is hot. */
export function windowStart(options: HotSetOptions): string {
  const now = Date.parse(options.now());
  // A clock that cannot be read must not keep the station from opening: the system clock stands in.
  return new Date((Number.isNaN(now) ? Date.now() : now) - options.days * 86_400_000).toISOString();
}

/**
 * SQLite indexes the hot set reads by (expression indexes, so they are added to a database of any
 * age at open without rewriting a row): the selection at open, a cold record's cluster, and the
 * engine indexes a cold record must still answer (tracking numbers, media tokens, upstream ids).
 */
const HOT_SET_INDEXES: ReadonlyArray<readonly [table: string, sql: string]> = [
  ['returns', 'CREATE INDEX IF NOT EXISTS ret_status_updated ON returns (status, updated_at)'],
  ['return_packages', 'CREATE INDEX IF NOT EXISTS rp_return ON return_packages (return_id)'],
  // Covers selectHotReturns' reads of packages (open ones, closed ones in the window: their return):
  // without it each match reads its row and parses its JSON (≈ 3 µs a package, at every sweep).
  ['return_packages', 'CREATE INDEX IF NOT EXISTS rp_status_updated_return ON return_packages (status, updated_at, return_id)'],
  ['return_packages', `CREATE INDEX IF NOT EXISTS rp_account_tracking_key ON return_packages (account_id, json_extract(v, '$.tracking_key'))`],
  ['package_line_items', `CREATE INDEX IF NOT EXISTS pli_package ON package_line_items (json_extract(v, '$.return_package_id'))`],
  ['media_files', `CREATE INDEX IF NOT EXISTS mf_package ON media_files (json_extract(v, '$.return_package_id'))`],
  ['media_files', `CREATE INDEX IF NOT EXISTS mf_url_token ON media_files (json_extract(v, '$.url_token'))`],
  ['media_files', `CREATE INDEX IF NOT EXISTS mf_sha256 ON media_files (json_extract(v, '$.sha256'))`],
  [
    'upstream_links',
    `CREATE INDEX IF NOT EXISTS ul_upstream ON upstream_links (json_extract(v, '$.account_id'), json_extract(v, '$.kind'), json_extract(v, '$.upstream_id'))`,
  ],
];

/** Creates the hot set's indexes on the tables the database has (once; a no-op afterwards). */
export function ensureHotSetIndexes(sqlite: DatabaseSync): void {
  const exists = sqlite.prepare(`SELECT 1 AS found FROM sqlite_schema WHERE type = 'table' AND name = ?`);
  for (const [table, sql] of HOT_SET_INDEXES) if (exists.get(table)) sqlite.exec(sql);
}

/** The tables the hot set needs: the clusters' (the outbox with them: unsent changes) and the settings. */
export function hasHotSetTables(tables: ReadonlySet<string> | ReadonlyMap<string, unknown>): boolean {
  return [...CLUSTER_TABLES, 'station_meta'].every((table) => tables.has(table));
}

/** The returns whose clusters hold an unsent change (an outbox slot): hot while an upstream is set. */
export const UNSENT_RETURNS_SQL = `SELECT json_extract(v, '$.local_id') AS k FROM outbox WHERE json_extract(v, '$.kind') = 'return'
  UNION SELECT p.return_id AS k FROM outbox o JOIN return_packages p ON p.k = json_extract(o.v, '$.local_id')
  WHERE json_extract(o.v, '$.kind') = 'return_package'`;

const quoted = (values: readonly string[]): string => values.map((value) => `'${value}'`).join(', ');

/**
 * Selects the returns whose clusters are hot into the temporary table `temp.hot_returns(k)`, by
 * indexed queries: the one rule of the hot set, for the open (selectHotKeys) and for the sweep
 * (../hot-set/shed.ts), so the two never disagree. Every key exists once selectHotKeys is done.
 */
export function selectHotReturns(sqlite: DatabaseSync, options: HotSetOptions): void {
  const since = windowStart(options);
  sqlite.exec(`DROP TABLE IF EXISTS temp.hot_returns; CREATE TEMP TABLE hot_returns (k INTEGER PRIMARY KEY);`);
  const hotReturns = `INSERT OR IGNORE INTO temp.hot_returns (k)`;
  // The work at hand first: open returns and packages, and unsent changes while an upstream is set.
  sqlite.prepare(`${hotReturns} SELECT k FROM returns WHERE status IN ('awaiting', 'partially_received')`).run();
  // INDEXED BY: the planner cannot tell that this index covers a generated column, and would read rows.
  sqlite
    .prepare(`${hotReturns} SELECT return_id FROM return_packages INDEXED BY rp_status_updated_return WHERE status IN (${quoted(OPEN_PACKAGE_STATUSES)})`)
    .run();
  if (sqlite.prepare('SELECT 1 AS found FROM station_meta WHERE k = ?').get(UPSTREAM_SETTINGS_KEY)) {
    sqlite.prepare(`${hotReturns} ${UNSENT_RETURNS_SQL}`).run();
  }
  // Then the clusters hot for a recent change alone, the most recently changed first, up to the limit
  // (a cluster's last change: its return's or a package's, whichever is later; -1: no limit).
  sqlite
    .prepare(
      `${hotReturns} SELECT id FROM (
         SELECT k AS id, updated_at AS at FROM returns WHERE status = 'received' AND updated_at >= ?1
         UNION ALL
         SELECT return_id AS id, updated_at AS at FROM return_packages INDEXED BY rp_status_updated_return
           WHERE status IN (${quoted(CLOSED_PACKAGE_STATUSES)}) AND updated_at >= ?1
       ) WHERE id NOT IN (SELECT k FROM temp.hot_returns) GROUP BY id ORDER BY max(at) DESC LIMIT ?2`,
    )
    .run(since, options.recentLimit ?? -1);
}

/**
 * Selects the hot set at open into temporary tables `temp.hot_<table>(k)`, one per cluster table,
 * each filled by indexed queries (at 1,000,000 packages of which 20,000 are hot, the open reads
 * the hot rows, not the history). The load then joins each table with its key list.
 */
export function selectHotKeys(sqlite: DatabaseSync, options: HotSetOptions): void {
  const since = windowStart(options);
  selectHotReturns(sqlite, options);
  sqlite.exec(`
    DROP TABLE IF EXISTS temp.hot_return_packages; DROP TABLE IF EXISTS temp.hot_package_line_items;
    DROP TABLE IF EXISTS temp.hot_media_files; DROP TABLE IF EXISTS temp.hot_upstream_links;
    DROP TABLE IF EXISTS temp.hot_outbox;
    CREATE TEMP TABLE hot_return_packages (k INTEGER PRIMARY KEY);
    CREATE TEMP TABLE hot_package_line_items (k INTEGER PRIMARY KEY);
    CREATE TEMP TABLE hot_media_files (k INTEGER PRIMARY KEY);
    CREATE TEMP TABLE hot_upstream_links (k TEXT PRIMARY KEY);
    CREATE TEMP TABLE hot_outbox (k TEXT PRIMARY KEY);
  `);
  // Every listed key exists (the load reads the lists in chunks and stops at a short one). CROSS
  // JOIN keeps SQLite driving from the short key list into the index, never scanning the history;
  // `+h.k` drops the key's INTEGER affinity, which would otherwise keep SQLite off the index of an
  // untyped (JSON) column and scan it once per key.
  sqlite.exec(`
    DELETE FROM temp.hot_returns WHERE NOT EXISTS (SELECT 1 FROM returns r WHERE r.k = temp.hot_returns.k);
    INSERT INTO temp.hot_return_packages (k) SELECT p.k FROM temp.hot_returns h CROSS JOIN return_packages p ON p.return_id = +h.k;
    -- A package whose return is missing (no path of the API makes one) is judged by itself.
    INSERT OR IGNORE INTO temp.hot_return_packages (k) SELECT k FROM return_packages WHERE status IN (${quoted(OPEN_PACKAGE_STATUSES)});
    INSERT OR IGNORE INTO temp.hot_return_packages (k) SELECT p.k FROM return_packages p
      WHERE p.status IN (${quoted(CLOSED_PACKAGE_STATUSES)}) AND p.updated_at >= '${since}' AND NOT EXISTS (SELECT 1 FROM returns r WHERE r.k = p.return_id);
    INSERT INTO temp.hot_package_line_items (k)
      SELECT i.k FROM temp.hot_return_packages h CROSS JOIN package_line_items i ON json_extract(i.v, '$.return_package_id') = +h.k;
    INSERT INTO temp.hot_media_files (k)
      SELECT m.k FROM temp.hot_return_packages h CROSS JOIN media_files m ON json_extract(m.v, '$.return_package_id') = +h.k;
    INSERT OR IGNORE INTO temp.hot_upstream_links (k)
      SELECT l.k FROM temp.hot_returns h CROSS JOIN upstream_links l ON l.k = 'return:' || h.k;
    INSERT OR IGNORE INTO temp.hot_upstream_links (k)
      SELECT l.k FROM temp.hot_return_packages h CROSS JOIN upstream_links l ON l.k = 'return_package:' || h.k;
    INSERT OR IGNORE INTO temp.hot_outbox (k)
      SELECT o.k FROM temp.hot_returns h CROSS JOIN outbox o ON o.k = 'return:' || h.k;
    INSERT OR IGNORE INTO temp.hot_outbox (k)
      SELECT o.k FROM temp.hot_return_packages h CROSS JOIN outbox o ON o.k = 'return_package:' || h.k;
  `);
}

/** Drops the key lists once the load is done. */
export function dropHotKeys(sqlite: DatabaseSync): void {
  for (const table of CLUSTER_TABLES) sqlite.exec(`DROP TABLE IF EXISTS temp.hot_${table}`);
}
