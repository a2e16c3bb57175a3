import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { ClusterTable } from './rule.ts';


/** Packages whose return is remembered at most (≈ 5 MB); see packageReturn. */
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
  /** Every stored record of a return's cluster, by table. */
  cluster(returnId: number): Map<ClusterTable, StoredRow[]>;
}

export function createColdReads(sqlite: DatabaseSync): ColdReads {
  const statements = new Map<string, StatementSync>();
  const prepared = (sql: string): StatementSync => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = sqlite.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const rows = (sql: string, ...params: SQLInputValue[]): StoredRow[] =>
    (prepared(sql).all(...params) as Array<{ k: number | string; v: string }>).map((r) => ({ key: r.k, value: JSON.parse(r.v) as Record<string, unknown> }));

  const reads: ColdReads = {
    row(table, key) {
      return rows(`SELECT k, v FROM ${table} WHERE k = ?`, key)[0];
    },
    answers(table, index) {
      return COLD_INDEXES[table]?.[index] !== undefined;
    },
    matching(table, index, value) {
      const expressions = COLD_INDEXES[table]?.[index];
      if (!expressions) return [];
      const values = expressions.length === 1 ? [value] : Array.isArray(value) ? value : [];
      if (values.length !== expressions.length || values.some((v) => typeof v !== 'number' && typeof v !== 'string')) return [];
      const where = expressions.map((expression) => `${expression} = ?`).join(' AND ');
      return rows(`SELECT k, v FROM ${table} WHERE ${where} ORDER BY k`, ...(values as SQLInputValue[]));
    },
    clusterOfMatches(table, index, value) {
      if (table === 'return_packages' && index === 'return_id') return typeof value === 'number' ? value : undefined;
      if ((table === 'package_line_items' || table === 'media_files') && index === 'return_package_id') return packageReturn(value);
      return undefined;
    },
    clusterOf(table, value) {
      switch (table) {
        case 'returns':
          return value.id as number;
        case 'return_packages':
          return value.return_id as number;
        case 'package_line_items':
        case 'media_files':
          return packageReturn(value.return_package_id);
        case 'upstream_links':
          return value.kind === 'return' ? (value.local_id as number) : packageReturn(value.local_id);
      }
    },
    cluster(returnId) {
      const found = new Map<ClusterTable, StoredRow[]>();
      found.set('returns', rows(`SELECT k, v FROM returns WHERE k = ?`, returnId));
      const packages = rows(`SELECT k, v FROM return_packages WHERE return_id = ? ORDER BY k`, returnId);
      found.set('return_packages', packages);
      const items: StoredRow[] = [];
      const media: StoredRow[] = [];
      const links = rows(`SELECT k, v FROM upstream_links WHERE k = ?`, `return:${returnId}`);
      for (const pkg of packages) {
        items.push(...rows(`SELECT k, v FROM package_line_items WHERE json_extract(v, '$.return_package_id') = ? ORDER BY k`, pkg.key));
        media.push(...rows(`SELECT k, v FROM media_files WHERE json_extract(v, '$.return_package_id') = ? ORDER BY k`, pkg.key));
        links.push(...rows(`SELECT k, v FROM upstream_links WHERE k = ?`, `return_package:${pkg.key}`));
      }
      found.set('package_line_items', items);
      found.set('media_files', media);
      found.set('upstream_links', links);
      return found;
    },
  };

  // A package's return never changes (it is set at creation only): what was read once stays true.
  // Bounded, so memory follows the working set and not the history: past the bound it starts again
  // (a miss is one primary-key read).
  const returnOfPackage = new Map<number, number>();
  function packageReturn(packageId: unknown): number | undefined {
    if (typeof packageId !== 'number') return undefined;
    const known = returnOfPackage.get(packageId);
    if (known !== undefined) return known;
    const found = (prepared(`SELECT return_id FROM return_packages WHERE k = ?`).get(packageId) as { return_id: number } | undefined)?.return_id;
    if (found === undefined) return undefined;
    if (returnOfPackage.size >= MAX_REMEMBERED_PACKAGE_RETURNS) returnOfPackage.clear();
    returnOfPackage.set(packageId, found);
    return found;
  }
  return reads;
}
