import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { statementCache } from '../sqlite/statement-cache.ts';
import { type ClusterTable, type HotSetOptions, selectHotReturns, UNSENT_RETURNS_SQL, UPSTREAM_SETTINGS_KEY } from './rule.ts';

/** Packages whose return is remembered at most (≈ 5 MB); see PackageReturns. */
const MAX_REMEMBERED_PACKAGE_RETURNS = 50_000;

/** A stored record: its key and its parsed value. */
export interface StoredRow {
  key: number | string;
  value: Record<string, unknown>;
}

/**
 * The engine indexes a cold record must still answer, as SQLite expressions over the stored row
 * (each one backed by an index of rule.ts or sqlite/layout.ts). An equality query on one
 * of them also looks in SQLite; other queries (ranges, full scans) see the hot set only.
 */
const COLD_INDEXES: Partial<Record<ClusterTable, Record<string, readonly string[]>>> = {
  return_packages: {
    return_id: ['return_id'],
    '[account_id+tracking_key]': ['account_id', `json_extract(v, '$.tracking_key')`],
  },
  package_line_items: { return_package_id: [`json_extract(v, '$.return_package_id')`] },
  media_files: {
    return_package_id: [`json_extract(v, '$.return_package_id')`],
    url_token: [`json_extract(v, '$.url_token')`],
    sha256: [`json_extract(v, '$.sha256')`],
  },
  upstream_links: {
    '[account_id+kind+upstream_id]': [`json_extract(v, '$.account_id')`, `json_extract(v, '$.kind')`, `json_extract(v, '$.upstream_id')`],
  },
};

/** Point and index reads of the SQLite copy, synchronous (node:sqlite), for records the engine does not hold. */
export interface ColdReads {
  /** The stored record of `key`, or undefined. */
  row(table: ClusterTable, key: number | string): StoredRow | undefined;
  /** Whether an equality query on this index can be answered from SQLite. */
  answers(table: ClusterTable, index: string): boolean;
  /** The stored records whose index value equals `value` (primary key order). */
  matching(table: ClusterTable, index: string, value: unknown): StoredRow[];
  /**
   * The return whose cluster every match of an equality query on `index` belongs to, when the
   * queried value alone says (a package's items and media: that package's return), else undefined.
   */
  clusterOfMatches(table: ClusterTable, index: string, value: unknown): number | undefined;
  /** The return whose cluster holds this record (undefined for an orphan). */
  clusterOf(table: ClusterTable, value: Record<string, unknown>): number | undefined;
  /** A package was written with this return (a new one is not on disk yet): its records' cluster is known without a read. */
  packageWritten(packageId: number, returnId: number): void;
  /** Every stored record of a return's cluster, by table. */
  cluster(returnId: number): Map<ClusterTable, StoredRow[]>;
  /** The returns whose clusters hold an unsent change (an outbox slot) on disk. */
  unsentClusters(): number[];
  /** Every outbox slot on disk (key order). */
  outboxSlots(): StoredRow[];
  /** Whether upstream settings are stored on disk (then every cluster with a slot is hot). */
  upstreamSet(): boolean;
  /** The returns whose clusters are hot now, by the hot set's rule over what is on disk (rule.ts). */
  hotReturns(options: HotSetOptions): Set<number>;
  /** The keys of the packages, line items and media records of these returns' clusters on disk. */
  clusterKeys(returnIds: readonly number[]): { packages: number[]; items: number[]; media: number[] };
}

/** Runs a statement of stored records (`SELECT k, v …`): their keys and parsed values. */
type RowReader = (sql: string, ...params: SQLInputValue[]) => StoredRow[];

export function createColdReads(sqlite: DatabaseSync): ColdReads {
  const prepared = statementCache(sqlite);
  const read: RowReader = (sql, ...params) =>
    (prepared(sql).all(...params) as Array<{ k: number | string; v: string }>).map((r) => ({ key: r.k, value: JSON.parse(r.v) as Record<string, unknown> }));
  const returns = new PackageReturns(prepared);
  return {
    row: (table, key) => read(`SELECT k, v FROM ${table} WHERE k = ?`, key)[0],
    answers: (table, index) => COLD_INDEXES[table]?.[index] !== undefined,
    matching: (table, index, value) => matching(read, table, index, value),
    clusterOfMatches(table, index, value) {
      if (table === 'return_packages' && index === 'return_id') return typeof value === 'number' ? value : undefined;
      if ((table === 'package_line_items' || table === 'media_files') && index === 'return_package_id') return returns.of(value);
      return undefined;
    },
    clusterOf: (table, value) => clusterOf(returns, table, value),
    packageWritten: (packageId, returnId) => returns.remember(packageId, returnId),
    cluster: (returnId) => cluster(read, returnId),
    outboxSlots: () => read(`SELECT k, v FROM outbox ORDER BY k`),
    upstreamSet: () => prepared(`SELECT 1 AS found FROM station_meta WHERE k = ?`).get(UPSTREAM_SETTINGS_KEY) !== undefined,
    unsentClusters: () => (prepared(UNSENT_RETURNS_SQL).all() as Array<{ k: unknown }>).map((row) => row.k).filter((k): k is number => typeof k === 'number'),
    hotReturns(options) {
      selectHotReturns(sqlite, options);
      try {
        return new Set((sqlite.prepare('SELECT k FROM temp.hot_returns').all() as Array<{ k: number }>).map((row) => row.k));
      } finally {
        sqlite.exec('DROP TABLE IF EXISTS temp.hot_returns');
      }
    },
    clusterKeys: (returnIds) => clusterKeys(prepared, returnIds),
  };
}

/** Keys of a statement's rows (`SELECT k …`). */
const keysOf = (rows: unknown[]): number[] => (rows as Array<{ k: number }>).map((row) => row.k);

/** The keys of the packages, items and media of these returns' clusters, by the indexes the open joins on (rule.ts). */
function clusterKeys(prepared: ReturnType<typeof statementCache>, returnIds: readonly number[]): { packages: number[]; items: number[]; media: number[] } {
  if (returnIds.length === 0) return { packages: [], items: [], media: [] };
  const packages = keysOf(prepared(`SELECT p.k FROM json_each(?) j CROSS JOIN return_packages p ON p.return_id = +j.value`).all(JSON.stringify(returnIds)));
  const ofPackages = JSON.stringify(packages);
  const items = keysOf(
    prepared(`SELECT i.k FROM json_each(?) j CROSS JOIN package_line_items i ON json_extract(i.v, '$.return_package_id') = +j.value`).all(ofPackages),
  );
  const media = keysOf(
    prepared(`SELECT m.k FROM json_each(?) j CROSS JOIN media_files m ON json_extract(m.v, '$.return_package_id') = +j.value`).all(ofPackages),
  );
  return { packages, items, media };
}

/** The stored records whose value on an index of COLD_INDEXES equals `value`, in key order. */
function matching(read: RowReader, table: ClusterTable, index: string, value: unknown): StoredRow[] {
  const expressions = COLD_INDEXES[table]?.[index];
  if (!expressions) return [];
  const values = expressions.length === 1 ? [value] : Array.isArray(value) ? value : [];
  if (values.length !== expressions.length || values.some((v) => typeof v !== 'number' && typeof v !== 'string')) return [];
  const where = expressions.map((expression) => `${expression} = ?`).join(' AND ');
  return read(`SELECT k, v FROM ${table} WHERE ${where} ORDER BY k`, ...(values as SQLInputValue[]));
}

/** The return whose cluster holds this record (undefined for an orphan). */
function clusterOf(returns: PackageReturns, table: ClusterTable, value: Record<string, unknown>): number | undefined {
  switch (table) {
    case 'returns':
      return value.id as number;
    case 'return_packages':
      return value.return_id as number;
    case 'package_line_items':
    case 'media_files':
      return returns.of(value.return_package_id);
    case 'upstream_links':
    case 'outbox':
      return value.kind === 'return' ? (value.local_id as number) : returns.of(value.local_id);
  }
}

/** Every stored record of a return's cluster: the return, its packages, their items, media, upstream links and outbox slots. */
function cluster(read: RowReader, returnId: number): Map<ClusterTable, StoredRow[]> {
  const found = new Map<ClusterTable, StoredRow[]>();
  found.set('returns', read(`SELECT k, v FROM returns WHERE k = ?`, returnId));
  const packages = read(`SELECT k, v FROM return_packages WHERE return_id = ? ORDER BY k`, returnId);
  found.set('return_packages', packages);
  const items: StoredRow[] = [];
  const media: StoredRow[] = [];
  const links = read(`SELECT k, v FROM upstream_links WHERE k = ?`, `return:${returnId}`);
  const slots = read(`SELECT k, v FROM outbox WHERE k = ?`, `return:${returnId}`);
  for (const pkg of packages) {
    items.push(...read(`SELECT k, v FROM package_line_items WHERE json_extract(v, '$.return_package_id') = ? ORDER BY k`, pkg.key));
    media.push(...read(`SELECT k, v FROM media_files WHERE json_extract(v, '$.return_package_id') = ? ORDER BY k`, pkg.key));
    links.push(...read(`SELECT k, v FROM upstream_links WHERE k = ?`, `return_package:${pkg.key}`));
    slots.push(...read(`SELECT k, v FROM outbox WHERE k = ?`, `return_package:${pkg.key}`));
  }
  found.set('package_line_items', items);
  found.set('media_files', media);
  found.set('upstream_links', links);
  found.set('outbox', slots);
  return found;
}

/**
 * The return of a package, remembered: a package's return never changes (it is set at creation
 * only), so what was read once stays true. Bounded, so memory follows the working set and not the
 * history: past the bound it starts again (a miss is one primary-key read).
 */
class PackageReturns {
  readonly #known = new Map<number, number>();
  readonly #prepared: (sql: string) => StatementSync;

  constructor(prepared: (sql: string) => StatementSync) {
    this.#prepared = prepared;
  }

  of(packageId: unknown): number | undefined {
    if (typeof packageId !== 'number') return undefined;
    const known = this.#known.get(packageId);
    if (known !== undefined) return known;
    const found = (this.#prepared(`SELECT return_id FROM return_packages WHERE k = ?`).get(packageId) as { return_id: number } | undefined)?.return_id;
    if (found === undefined) return undefined;
    this.remember(packageId, found);
    return found;
  }

  /**
   * Remembers a package's return as it is written, before it is on disk: a package's outbox slot,
   * written in the same write as the new package, would otherwise ask SQLite (and miss). Kept even
   * if that write aborts: the id is then never used again (ids are not reused).
   */
  remember(packageId: number, returnId: number): void {
    if (this.#known.size >= MAX_REMEMBERED_PACKAGE_RETURNS) this.#known.clear();
    this.#known.set(packageId, returnId);
  }
}
