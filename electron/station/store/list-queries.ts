import { SKU_PREFIX_CONDITION } from './sqlite/sku-index.ts';
import { containsCondition, containsPhrase, containsProbe, MIN_CONTAINS_LENGTH, rowSearchable, type TextColumn } from './sqlite/text-search-index.ts';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { statementCache } from './sqlite/statement-cache.ts';
import { isCountedTable, statusCountQuery } from './sqlite/status-counts.ts';
import type { Disposition, PackageStatus, ReturnStatus } from './records.ts';
import { packageDispositionCondition, returnDispositionCondition } from './sqlite/disposition-index.ts';

export type PackageSort = 'created_at' | '-created_at' | 'updated_at' | '-updated_at' | 'id' | '-id';

/** Filters of `GET .../return_packages` (docs/api-reference.md, Lists), plus what station counts need. */
export interface PackageFilters {
  account_id?: number;
  /** Any of these statuses. */
  status?: readonly PackageStatus[];
  return_id?: number;
  /** Exact, case-insensitive. */
  tracking_number?: string;
  /** Tracking numbers starting with this, case-insensitive: a range of the `tracking_lc` index. */
  tracking_number_prefix?: string;
  /** Tracking numbers containing this, case-insensitive (1–2 characters: starting with it; sqlite/text-search-index.ts). */
  tracking_number_contains?: string;
  carrier_id?: number;
  location_id?: number;
  /** Inclusive, an ISO timestamp in UTC (`...Z`). */
  updated_since?: string;
  /** Inclusive; packages processed (received) at or after this time. */
  processed_since?: string;
  /** Exclusive; packages processed (received) before this time. */
  processed_before?: string;
  /** Packages with a line item of any of these dispositions (sqlite/disposition-index.ts). */
  disposition?: readonly Disposition[];
}

/** Filters of the returns list (docs/api-reference.md, Lists). */
export interface ReturnFilters {
  account_id?: number;
  status?: readonly ReturnStatus[];
  /** Exact, case-insensitive. */
  email?: string;
  /** Emails starting with this, case-insensitive: a range of the `email_lc` index. */
  email_prefix?: string;
  /** Returns with a line whose SKU starts with this, case-insensitive: a range of the SKU index (sqlite/sku-index.ts). */
  sku_prefix?: string;
  /** Emails containing this, case-insensitive (1–2 characters: starting with it; sqlite/text-search-index.ts). */
  email_contains?: string;
  /** Returns with a line whose SKU contains this, case-insensitive (1–2 characters: starting with it). */
  sku_contains?: string;
  updated_since?: string;
  /** Returns with a package holding a line item of any of these dispositions. */
  disposition?: readonly Disposition[];
}

export interface Page {
  /** ≥ 1; default 1. */
  page?: number;
  /** ≥ 1; default 25. */
  per_page?: number;
}

export interface ListQueries {
  return_packages: PackageFilters & Page & { sort?: PackageSort };
  /** Returns are listed newest first. */
  returns: ReturnFilters & Page;
}

export interface CountFilters {
  return_packages: PackageFilters;
  returns: ReturnFilters;
}

export type ListableTable = keyof ListQueries;

export interface ListResult {
  /** The page's ids, in order; fetch the records from the engine by id. */
  ids: number[];
  /** Matches across all pages (with `lowerBound`: at least this many). */
  total: number;
  /** `total` is a lower bound: a search by any part that most records match counts within a budget of rows (COUNT_BUDGET). */
  lowerBound?: true;
}

/**
 * The rows a search by any part reads at most to choose its plan and count (the station's setting
 * RETURNS_STATION_LIST_COUNT_BUDGET, this by default), three uses of one number:
 * - a text whose matches in the text index reach it is broad: its condition is checked row by row as
 *   the list's index is walked (a page costs ≈ its rows ÷ the share of rows that match), instead of
 *   reading the table by key from the set of every match (≈ 2–9 µs a match at 1,000,000);
 * - a broad text is read row by row when page 1 fills within this many rows of the list's order;
 * - a list whose every text is broad counts its matches among this many rows of its other filters;
 *   more rows, and its total is a lower bound.
 */
export const COUNT_BUDGET = 1_000;

/**
 * Each sort: its column (null: the id alone), whether its forward order is descending, and its
 * ORDER BY both ways (every sort ends with the unique id, so a (column, id) pair is a position).
 */
interface SortOrder {
  column: 'created_at' | 'updated_at' | null;
  descending: boolean;
  forward: string;
  reverse: string;
  /** The same, by the result columns of a compound select (the sort column is `s`). */
  merged: { forward: string; reverse: string };
}

const sortOrder = (column: SortOrder['column'], descending: boolean): SortOrder => {
  const by = (keys: string[], desc: boolean) => keys.map((key) => `${key} ${desc ? 'DESC' : 'ASC'}`).join(', ');
  const keys = column ? [column, 'k'] : ['k'];
  const merged = column ? ['s', 'k'] : ['k'];
  return {
    column,
    descending,
    forward: by(keys, descending),
    reverse: by(keys, !descending),
    merged: { forward: by(merged, descending), reverse: by(merged, !descending) },
  };
};

const ORDER_BY: Record<PackageSort, SortOrder> = {
  created_at: sortOrder('created_at', false),
  '-created_at': sortOrder('created_at', true),
  updated_at: sortOrder('updated_at', false),
  '-updated_at': sortOrder('updated_at', true),
  id: sortOrder(null, false),
  '-id': sortOrder(null, true),
};

/** A row of a listed order whose position is known: where a later page can seek from. */
interface Landmark {
  position: number;
  /** The sort column's value (undefined for the id sorts). */
  value: SQLInputValue | undefined;
  k: number;
}

/** Landmarks kept per listed query (the pages' first and last rows); the oldest go first. */
const MAX_LANDMARKS_PER_QUERY = 64;

/** Counts (and landmark sets) remembered between commits, at most. */
const MAX_REMEMBERED_COUNTS = 1000;

interface PageRow {
  k: number;
  s?: SQLInputValue;
}

/** A search by any part among a list's filters: the text index's column and the text. */
export interface TextSearch {
  of: ListableTable;
  column: TextColumn;
  text: string;
}

interface Where {
  /** The table, as the FROM clause names it. */
  from: string;
  where: string;
  params: SQLInputValue[];
  /** The searches by any part among the filters (none: the filters' indexes alone answer). */
  texts: TextSearch[];
  /** The searches asked row by row (they end `where`, after every other condition), and the columns they read. */
  rowChecks: { sql: string; params: SQLInputValue[]; reads: string[] } | null;
}

/** How a search by any part is asked (sqlite/text-search-index.ts, containsCondition): as a match set unless told. */
type TextForm = (text: TextSearch) => 'set' | 'row';

/**
 * The FROM and WHERE clauses (with their parameters) of a list's or count's filters, over the
 * generated columns. A search by any part asked as a match set drives the query: the table is read by
 * key from the set (NOT INDEXED keeps the key, and keeps the planner from walking a whole account's
 * index instead and looking each row up in the set: 65–80 ms for 1,111 matches at 1,000,000).
 */
function whereOf(table: ListableTable, filters: PackageFilters | ReturnFilters, formOf: TextForm = () => 'set', withTexts = true): Where {
  const conditions: string[] = [];
  const params: SQLInputValue[] = [];
  const texts: TextSearch[] = [];
  const rowChecks: { sql: string[]; params: SQLInputValue[]; reads: Set<string> } = { sql: [], params: [], reads: new Set(['k']) };
  let bySet = false;
  // A prefix is the index range [prefix, prefix + U+10FFFF]: every lower-cased value that starts with
  // it sorts there (U+10FFFF is the highest code point), so the index is walked, not the table.
  const startsWith = (column: string, prefix: string | undefined): void => {
    if (prefix === undefined) return;
    conditions.push(`${column} BETWEEN lower(?) AND lower(?) || char(1114111)`);
    params.push(prefix, prefix);
  };
  const skuStartsWith = (prefix: string | undefined): void => {
    if (prefix === undefined) return;
    // SKUs are kept trimmed and lower-cased as JavaScript does it (domain/returns.ts, skuKey).
    const key = prefix.trim().toLowerCase();
    conditions.push(SKU_PREFIX_CONDITION);
    params.push(key, key);
  };
  // A text of 3 or more characters is found from the trigram index; a shorter one has no trigram and
  // is searched as a start instead.
  const contains = (of: ListableTable, column: TextColumn, text: string, asPrefix: () => void): void => {
    if (Array.from(text).length < MIN_CONTAINS_LENGTH) return asPrefix();
    if (!withTexts) return;
    const search = { of, column, text };
    const form = formOf(search);
    const condition = containsCondition(of, column, form);
    texts.push(search);
    bySet ||= form === 'set';
    if (form === 'set') {
      conditions.push(condition.sql);
      params.push(...condition.params(text));
      return;
    }
    rowChecks.sql.push(condition.sql);
    rowChecks.params.push(...condition.params(text));
    rowChecks.reads.add(condition.reads);
  };
  const equal = (column: string, value: SQLInputValue | undefined): void => {
    if (value === undefined) return;
    conditions.push(`${column} = ?`);
    params.push(value);
  };
  equal('account_id', filters.account_id);
  if (filters.status !== undefined) {
    conditions.push(filters.status.length ? `status IN (${filters.status.map(() => '?').join(', ')})` : '0');
    params.push(...filters.status);
  }
  if (filters.updated_since !== undefined) {
    conditions.push('updated_at >= ?');
    params.push(filters.updated_since);
  }
  if (table === 'return_packages') {
    const f = filters as PackageFilters;
    equal('return_id', f.return_id);
    if (f.tracking_number !== undefined) {
      conditions.push('tracking_lc = lower(?)');
      params.push(f.tracking_number);
    }
    startsWith('tracking_lc', f.tracking_number_prefix);
    if (f.tracking_number_contains !== undefined)
      contains('return_packages', 'tracking', f.tracking_number_contains, () => startsWith('tracking_lc', f.tracking_number_contains));
    equal('carrier_id', f.carrier_id);
    equal('location_id', f.location_id);
    if (f.processed_since !== undefined) {
      conditions.push('processed_at >= ?');
      params.push(f.processed_since);
    }
    if (f.processed_before !== undefined) {
      conditions.push('processed_at < ?');
      params.push(f.processed_before);
    }
    if (f.disposition !== undefined) {
      conditions.push(f.disposition.length ? packageDispositionCondition(f.disposition.length) : '0');
      params.push(...f.disposition);
    }
  } else {
    const f = filters as ReturnFilters;
    if (f.email !== undefined) {
      conditions.push('email_lc = lower(?)');
      params.push(f.email);
    }
    startsWith('email_lc', f.email_prefix);
    skuStartsWith(f.sku_prefix);
    if (f.email_contains !== undefined) contains('returns', 'email', f.email_contains, () => startsWith('email_lc', f.email_contains));
    if (f.sku_contains !== undefined) contains('returns', 'skus', f.sku_contains, () => skuStartsWith(f.sku_contains));
    if (f.disposition !== undefined) {
      conditions.push(f.disposition.length ? returnDispositionCondition(f.disposition.length) : '0');
      params.push(...f.disposition);
    }
  }
  const all = [...conditions, ...rowChecks.sql];
  return {
    from: bySet ? `${table} NOT INDEXED` : table,
    where: all.length ? ` WHERE ${all.join(' AND ')}` : '',
    params: [...params, ...rowChecks.params],
    texts,
    rowChecks: rowChecks.sql.length ? { sql: rowChecks.sql.join(' AND '), params: rowChecks.params, reads: [...rowChecks.reads] } : null,
  };
}

/**
 * The count of a list whose searches are all asked row by row, from the first `budget` rows its
 * other filters select (in whichever order their index gives): exact when no more rows are left, else
 * a lower bound. The rows are read as a table of the list's own name, so the checks find their columns.
 */
function budgetedCountOf(
  table: ListableTable,
  filters: PackageFilters | ReturnFilters,
  rowChecks: NonNullable<Where['rowChecks']>,
  budget: number,
): { sql: string; params: SQLInputValue[] } {
  const { where, params } = whereOf(table, filters, () => 'row', false);
  return {
    sql: `SELECT count(*) AS seen, total(CASE WHEN ${rowChecks.sql} THEN 1 ELSE 0 END) AS n FROM (SELECT ${rowChecks.reads.join(', ')} FROM ${table}${where} LIMIT ?) AS ${table}`,
    params: [...rowChecks.params, ...params, budget + 1],
  };
}

/**
 * What a list remembers between two commits to its table: each query's count (a count walks every
 * match of its index, a third of the time of a list request at 100,000 packages) and the landmarks
 * its pages found. Neither can change until the next commit, which forgets them all.
 */
class QueryMemory {
  /** A count, or what a count statement answered (its rows seen and matches). */
  readonly #counts = new Map<string, number | { seen: number; n: number }>();
  readonly #landmarks = new Map<string, Landmark[]>();

  count<T extends number | { seen: number; n: number }>(key: string, read: () => T): T {
    const known = this.#counts.get(key) as T | undefined;
    if (known !== undefined) return known;
    const counted = read();
    if (this.#counts.size >= MAX_REMEMBERED_COUNTS) this.#counts.clear();
    this.#counts.set(key, counted);
    return counted;
  }

  /** The landmarks of a query (its own list, which the caller adds to). */
  landmarks(key: string): Landmark[] {
    let known = this.#landmarks.get(key);
    if (!known) {
      if (this.#landmarks.size >= MAX_REMEMBERED_COUNTS) this.#landmarks.clear();
      known = [];
      this.#landmarks.set(key, known);
    }
    return known;
  }

  forget(): void {
    this.#counts.clear();
    this.#landmarks.clear();
  }
}

/** Keys of a list query that are not filters. */
const NOT_FILTERS: ReadonlySet<string> = new Set(['page', 'per_page', 'sort']);

/** Whether a list's filters are at most an account and statuses: its count is kept (sqlite/status-counts.ts). */
function byStatusOnly(table: ListableTable, filters: PackageFilters | ReturnFilters): boolean {
  if (!isCountedTable(table)) return false;
  for (const [name, value] of Object.entries(filters))
    if (value !== undefined && name !== 'account_id' && name !== 'status' && !NOT_FILTERS.has(name)) return false;
  return true;
}

/** What a count or a query's landmarks are remembered by: its table and filters. */
const queryKey = (table: ListableTable, where: string, params: SQLInputValue[]): string => `${table}${where}\u0000${JSON.stringify(params)}`;

/** Runs a page statement: its rows' ids and sort values. */
type PageReader = (sql: string, ...params: SQLInputValue[]) => PageRow[];

/** One status's part of a list (or the whole list): its FROM and WHERE clauses (whereOf). */
type Arm = Pick<Where, 'from' | 'where' | 'params'>;

/** The rows [offset, end) of a filtered, ordered table of `total` matches. */
interface PageRequest {
  /** The list, or one part per status it asks for (merged in the order: listArms). */
  arms: readonly Arm[];
  order: SortOrder;
  offset: number;
  end: number;
  /** Undefined when the count stopped at a cap: the page is then read from the front or a landmark only. */
  total: number | undefined;
}

/**
 * The rows of `arms` in an order (forward or reverse), each with the condition `extra` (and its
 * parameters), as one statement ending in `LIMIT ? OFFSET ?`. Several arms are one UNION ALL whose
 * ORDER BY SQLite merges: each arm walks its status's own index in the order (`status, created_at,
 * k`), so a page reads its rows and the skipped ones only, where `status IN (…)` would read every
 * match of each status into a sorter.
 */
function orderedSelect(arms: readonly Arm[], columns: string, order: SortOrder, forward: boolean, extra = ''): { sql: string; params: SQLInputValue[] } {
  const armSql = ({ from, where }: Arm) => `SELECT ${columns} FROM ${from}${extra ? `${where ? `${where} AND` : ' WHERE'} ${extra}` : where}`;
  const params = arms.flatMap((arm) => arm.params);
  const [only] = arms;
  if (arms.length === 1 && only) return { sql: `${armSql(only)} ORDER BY ${forward ? order.forward : order.reverse} LIMIT ? OFFSET ?`, params };
  return { sql: `${arms.map(armSql).join(' UNION ALL ')} ORDER BY ${forward ? order.merged.forward : order.merged.reverse} LIMIT ? OFFSET ?`, params };
}

/**
 * A list's arms: one per status when it asks for several (merged in its order by orderedSelect),
 * else the list itself; `whereFor` makes each one's clauses.
 */
function armsOf(filters: PackageFilters | ReturnFilters, whereFor: (filters: PackageFilters | ReturnFilters) => Arm): Arm[] {
  const statuses = [...new Set<string>(filters.status ?? [])];
  if (statuses.length < 2) return [whereFor(filters)];
  return statuses.map((status) => whereFor({ ...filters, status: [status] } as PackageFilters | ReturnFilters));
}

/**
 * The rows at positions [offset, end) of the order. OFFSET walks every skipped row of the index,
 * so the page is read from whichever start skips the fewest: the front, the back (in the reverse
 * order, turned round), or a landmark — a row whose position an earlier page of the same query
 * found since the last commit that touched the table — sought by its (column, id) value.
 */
function readPage(read: PageReader, request: PageRequest, known: readonly Landmark[]): PageRow[] {
  const { arms, order, offset, end, total } = request;
  const size = end - offset;
  const columns = `k${order.column ? `, ${order.column} AS s` : ''}`;
  const run = (forward: boolean, skip: number, extra = '', values: SQLInputValue[] = []): PageRow[] => {
    const { sql, params } = orderedSelect(
      arms.map((arm) => ({ ...arm, params: [...arm.params, ...values] })),
      columns,
      order,
      forward,
      extra,
    );
    const rows = read(sql, ...params, size, skip);
    return forward ? rows : rows.reverse();
  };
  let best: { skip: number; run: () => PageRow[] } = { skip: offset, run: () => run(true, offset) };
  const consider = (skip: number, go: () => PageRow[]): void => {
    if (skip < best.skip) best = { skip, run: go };
  };
  if (total !== undefined) consider(total - end, () => run(false, total - end));
  // Rows from the landmark on (itself included) in this direction: greater ones in an ascending walk.
  const seek = (mark: Landmark, forward: boolean, skip: number): PageRow[] => {
    const from = forward !== order.descending ? '>=' : '<=';
    const condition = order.column ? `(${order.column}, k) ${from} (?, ?)` : `k ${from} ?`;
    const values = order.column ? [mark.value as SQLInputValue, mark.k] : [mark.k];
    return run(forward, skip, condition, values);
  };
  for (const mark of known) {
    if (mark.position <= offset) consider(offset - mark.position, () => seek(mark, true, offset - mark.position));
    else if (mark.position >= end - 1) consider(mark.position - (end - 1), () => seek(mark, false, mark.position - (end - 1)));
  }
  return best.run();
}

/** Keeps a page's first and last rows as landmarks of its query. */
function rememberLandmarks(known: Landmark[], order: SortOrder, offset: number, rows: readonly PageRow[]): void {
  const first = rows[0];
  const last = rows[rows.length - 1];
  for (const [row, position] of [
    [first, offset],
    [last, offset + rows.length - 1],
  ] as const) {
    if (!row || known.some((mark) => mark.position === position)) continue;
    // A NULL sort value has no place in a (column, id) comparison: not a landmark.
    if (order.column && (row.s === null || row.s === undefined)) continue;
    if (known.length >= MAX_LANDMARKS_PER_QUERY) known.shift();
    known.push({ position, value: row.s, k: row.k });
  }
}

/**
 * List pages and counts from the SQLite copy's generated columns and indexes (sqlite/layout.ts):
 * one indexed query for the count and one for the page's ids (none past the last page). SQLite
 * holds exactly what has been acknowledged, so a list never shows a write that could still fail.
 */
export function createListQueries(db: DatabaseSync, budget: number = COUNT_BUDGET) {
  const prepared = statementCache(db);
  const memory = new QueryMemory();
  const read: PageReader = (sql, ...params) => prepared(sql).all(...params) as unknown as PageRow[];
  const counted = (sql: string, params: readonly SQLInputValue[]): number => (prepared(sql).get(...params) as { n: number }).n;
  // By account and status only (or neither): a sum of the counts the triggers keep; else count(*) of the index.
  const countWith = (table: ListableTable, filters: PackageFilters | ReturnFilters, { from, where, params }: Where): number =>
    memory.count(queryKey(table, where, params), () => {
      const { sql, params: values } = byStatusOnly(table, filters)
        ? statusCountQuery(table, filters.account_id, filters.status)
        : { sql: `SELECT count(*) AS n FROM ${from}${where}`, params };
      return counted(sql, values);
    });
  // A text is broad when its matches in the text index reach the budget (a walk of the index that stops there).
  const formOf: TextForm = ({ of, column, text }) => {
    if (!rowSearchable(text)) return 'set';
    const phrase = containsPhrase(text);
    const probed = memory.count(`probe\u0000${of}\u0000${column}\u0000${phrase}`, () => counted(containsProbe(of, column), [phrase, budget]));
    return probed >= budget ? 'row' : 'set';
  };

  /**
   * Row by row only where it pays: page 1 fills within the first `budget` rows of the list's order
   * (every order has an index, with the account or without: sqlite/layout.ts), since matches of a
   * broad text may all lie deep in it ("omer.123" of 1,111 emails sits under 219,000 newer rows of
   * an account). Else every text is a match set.
   */
  const planOf = (table: ListableTable, filters: PackageFilters | ReturnFilters, order: SortOrder, perPage: number): { plan: Where; form: TextForm } => {
    const sets = { plan: whereOf(table, filters), form: () => 'set' as const };
    const plan = whereOf(table, filters, formOf);
    if (plan.from !== table || plan.rowChecks === null) return { plan, form: formOf };
    const { rowChecks } = plan;
    const reads = [...rowChecks.reads, ...(order.column ? [`${order.column} AS s`] : [])].join(', ');
    const front = memory.count(`front\u0000${queryKey(table, plan.where, plan.params)}\u0000${order.forward}\u0000${perPage}`, () => {
      const rows = orderedSelect(
        armsOf(filters, (part) => whereOf(table, part, () => 'row', false)),
        reads,
        order,
        true,
      );
      return counted(`SELECT count(*) AS n FROM (SELECT 1 FROM (${rows.sql}) AS ${table} WHERE ${rowChecks.sql} LIMIT ${perPage})`, [
        ...rows.params,
        budget,
        0,
        ...rowChecks.params,
      ]);
    });
    return front >= perPage ? { plan, form: formOf } : sets;
  };

  return {
    listIds<K extends ListableTable>(table: K, query: ListQueries[K]): ListResult {
      const perPage = Math.max(1, Math.floor(query.per_page ?? 25));
      const page = Math.max(1, Math.floor(query.page ?? 1));
      // A selective text is a match set, which bounds the list (counted exactly); when every text is
      // broad (planOf), each is checked row by row in the list's own order, counted within the budget.
      const order = table === 'return_packages' ? ORDER_BY[(query as ListQueries['return_packages']).sort ?? '-created_at'] : ORDER_BY['-created_at'];
      const { plan, form } = planOf(table, query, order, perPage);
      const { from, where, params, rowChecks } = plan;
      const key = queryKey(table, where, params);
      // A match set bounds the list: counted exactly. Searches all asked row by row: counted within a budget of rows.
      const budgeted = from === table && rowChecks !== null;
      let lowerBound = false;
      let total: number;
      if (budgeted) {
        const { sql, params: values } = budgetedCountOf(table, query, rowChecks, budget);
        const { seen, n } = memory.count(key, () => ({ ...(prepared(sql).get(...values) as { seen: number; n: number }) }));
        lowerBound = seen > budget;
        total = n;
      } else total = countWith(table, query, plan);
      const offset = (page - 1) * perPage;
      if (!lowerBound && offset >= total) return { ids: [], total };
      const end = lowerBound ? offset + perPage : Math.min(total, offset + perPage);
      const known = memory.landmarks(`${key}\u0000${order.forward}`);
      const arms = armsOf(query, (part) => whereOf(table, part, form));
      const rows = readPage(read, { arms, order, offset, end, total: lowerBound ? undefined : total }, known);
      rememberLandmarks(known, order, offset, rows);
      const ids = rows.map((row) => row.k);
      if (!lowerBound) return { ids, total };
      // A short page is the last: the matches end on it. A full one: at least the rows up to it. An
      // empty one (past the end) says only that they end before it.
      if (ids.length > 0 && ids.length < perPage) return { ids, total: offset + ids.length };
      return { ids, total: ids.length ? Math.max(total, offset + ids.length) : total, lowerBound: true };
    },
    /** The exact count of the filters' matches (a search by any part counted from its match set, whatever it costs). */
    count<K extends ListableTable>(table: K, filters: CountFilters[K]): number {
      return countWith(table, filters, whereOf(table, filters));
    },
    /** Called after every commit that touched `table`: its counts and positions may have changed. */
    forgetCounts(table: string): void {
      // A line item's disposition is a filter of both lists (sqlite/disposition-index.ts).
      if (table === 'returns' || table === 'return_packages' || table === 'package_line_items') memory.forget();
    },
  };
}

export type ListQueryRunner = ReturnType<typeof createListQueries>;
