import { Dexie } from 'dexie';
import type {
  DBCoreCountRequest,
  DBCoreCursor,
  DBCoreGetManyRequest,
  DBCoreGetRequest,
  DBCoreMutateRequest,
  DBCoreMutateResponse,
  DBCoreOpenCursorRequest,
  DBCoreQueryRequest,
  DBCoreQueryResponse,
  DBCoreTable,
  DBCoreTransaction,
} from 'dexie';
import type { ColdReads, StoredRow } from './cold-reads.ts';
import type { ClusterTable } from './rule.ts';

/*
 * A cluster table as the hot set's middleware hands it up (middleware.ts says what for): each
 * method asks the engine first and, where the engine misses a cold record, answers from SQLite (a
 * read) or brings the record's cluster in first (a write). Each method answers with a promise of
 * Dexie's (`.then` of the engine's own request): Dexie finds its transaction through its async
 * zone, which a native promise here would lose.
 */

/** What a cold table needs of the hot set around it (middleware.ts makes it). */
export interface ColdSide {
  readonly enabled: boolean;
  readonly cold: ColdReads;
  /** Whether `trans` is a read-write transaction. */
  writable(trans: DBCoreTransaction): boolean;
  /** Whether the engine holds this return's whole cluster. */
  isPresent(cluster: number): boolean;
  /** The stored record of a key whose cluster the engine does not hold. */
  coldRow(table: ClusterTable, key: unknown): StoredRow | undefined;
  /** The cold records an equality query on an answerable index would also match. */
  coldMatches(table: ClusterTable, request: { query: DBCoreQueryRequest['query'] }): StoredRow[];
  /** Brings the clusters of these cold records into the engine, inside `trans`. */
  faultIn(trans: DBCoreTransaction, table: ClusterTable, rows: readonly StoredRow[]): Promise<void>;
  /** Counts a cluster as present from `trans` on (not if it aborts). */
  markPresent(trans: DBCoreTransaction, cluster: number): void;
}

/** One cluster table: the engine's table below, its name, and how a record's key is read. */
interface ColdTable {
  side: ColdSide;
  table: DBCoreTable;
  name: ClusterTable;
  keyOf(value: unknown): unknown;
}

export function coldTable(side: ColdSide, table: DBCoreTable, name: ClusterTable): DBCoreTable {
  const keyPath = table.schema.primaryKey.keyPath as string;
  const t: ColdTable = { side, table, name, keyOf: (value) => (value as Record<string, unknown>)[keyPath] };
  return {
    ...table,
    get: (request) => get(t, request),
    getMany: (request) => getMany(t, request),
    query: (request) => query(t, request),
    count: (request) => count(t, request),
    openCursor: (request) => openCursor(t, request),
    mutate: (request) => mutate(t, request),
  };
}

function get({ side, table, name }: ColdTable, request: DBCoreGetRequest): Promise<unknown> {
  return table.get(request).then((found: unknown) => {
    if (found !== undefined || !side.enabled) return found;
    const row = side.coldRow(name, request.key);
    if (!row) return undefined;
    if (!side.writable(request.trans)) return row.value;
    return side.faultIn(request.trans, name, [row]).then(() => table.get(request));
  });
}

function getMany({ side, table, name }: ColdTable, request: DBCoreGetManyRequest): Promise<unknown[]> {
  return table.getMany(request).then((found) => {
    if (!side.enabled) return found;
    const rows = new Map<number, StoredRow>();
    found.forEach((value, index) => {
      if (value !== undefined) return;
      const row = side.coldRow(name, request.keys[index]);
      if (row) rows.set(index, row);
    });
    if (rows.size === 0) return found;
    if (!side.writable(request.trans)) return found.map((value, index) => value ?? rows.get(index)?.value);
    return side.faultIn(request.trans, name, [...rows.values()]).then(() => table.getMany(request));
  });
}

function query(t: ColdTable, request: DBCoreQueryRequest): Promise<DBCoreQueryResponse> {
  const { side, table, name } = t;
  // Which clusters are present is asked once the engine has answered, inside this request's
  // transaction: a sweep cannot run in between (its transaction waits for ours), so a cluster
  // shed just before is read from SQLite (or faulted in), never missed. Asked earlier, a sweep
  // queued before this transaction could shed the cluster between the question and the answer.
  return table.query(request).then(async (hot): Promise<DBCoreQueryResponse> => {
    const rows = side.coldMatches(name, request);
    if (rows.length === 0) return hot;
    if (side.writable(request.trans)) return side.faultIn(request.trans, name, rows).then(() => table.query(request));
    const extra = await notInEngine(t, request.trans, rows);
    return extra.length === 0 ? hot : { result: mergeByKey(t, request, hot.result, extra) };
  });
}

/** The engine's answer and the cold rows it lacks, in key order, up to the query's limit. */
function mergeByKey({ keyOf }: ColdTable, request: DBCoreQueryRequest, hot: readonly unknown[], extra: readonly StoredRow[]): unknown[] {
  const merged = [
    ...hot.map((item) => ({ key: request.values ? keyOf(item) : item, item })),
    ...extra.map((row) => ({ key: row.key, item: request.values ? row.value : row.key })),
  ];
  merged.sort((a, b) => compareKeys(a.key, b.key));
  const limited = request.limit !== undefined ? merged.slice(0, request.limit) : merged;
  return limited.map((entry) => entry.item);
}

function count(t: ColdTable, request: DBCoreCountRequest): Promise<number> {
  const { side, table, name } = t;
  // As in `query`: present clusters are asked after the engine answered, in this transaction.
  return table.count(request).then(async (hot) => {
    const rows = side.coldMatches(name, request);
    if (rows.length === 0) return hot;
    if (side.writable(request.trans)) return side.faultIn(request.trans, name, rows).then(() => table.count(request));
    return hot + (await notInEngine(t, request.trans, rows)).length;
  });
}

function openCursor({ side, table, name }: ColdTable, request: DBCoreOpenCursorRequest): Promise<DBCoreCursor | null> {
  if (!side.writable(request.trans)) return table.openCursor(request);
  // As in `query`: asked again once this transaction runs (a count is the cheapest engine answer).
  return table.count({ trans: request.trans, query: request.query }).then(() => {
    const rows = side.coldMatches(name, request);
    if (rows.length === 0) return table.openCursor(request);
    return side.faultIn(request.trans, name, rows).then(() => table.openCursor(request));
  });
}

/** A put or add of a record whose cluster is cold brings the cluster in first; a new return is present at once. */
function mutate(t: ColdTable, request: DBCoreMutateRequest): Promise<DBCoreMutateResponse> {
  const { side, table, name } = t;
  const coldRows = side.enabled && (request.type === 'put' || request.type === 'add') ? coldRowsOf(t, request.trans, request.values) : [];
  const run = () =>
    table.mutate(request).then((response) => {
      if (side.enabled && name === 'returns' && request.type === 'add') {
        for (const key of response.results ?? []) if (typeof key === 'number') side.markPresent(request.trans, key);
      }
      if (name === 'return_packages' && request.type === 'add') packagesAdded(side, request.values, response);
      return response;
    });
  if (coldRows.length === 0) return run();
  return Dexie.Promise.resolve().then(() => side.faultIn(request.trans, name, coldRows).then(run));
}

/** New packages' returns, remembered: their outbox slots, written next in the same write, find their cluster without asking SQLite. */
function packagesAdded(side: ColdSide, values: readonly unknown[], response: DBCoreMutateResponse): void {
  values.forEach((value, index) => {
    const key = response.results?.[index];
    const returnId = (value as Record<string, unknown>).return_id;
    if (typeof key === 'number' && typeof returnId === 'number' && response.failures[index] === undefined) side.cold.packageWritten(key, returnId);
  });
}

/** The stored records of the written values whose cluster is cold (a new return's cluster is marked present). */
function coldRowsOf({ side, name, keyOf }: ColdTable, trans: DBCoreTransaction, values: readonly unknown[]): StoredRow[] {
  const rows: StoredRow[] = [];
  for (const value of values) {
    const key = keyOf(value);
    if (key === undefined) continue;
    const cluster = side.cold.clusterOf(name, value as Record<string, unknown>);
    if (cluster === undefined || side.isPresent(cluster)) continue;
    const stored = side.cold.row(name, key as number | string);
    if (stored) rows.push(stored);
    else if (name === 'returns') side.markPresent(trans, cluster); // a new return: nothing of it is cold
  }
  return rows;
}

/** Cold rows the engine does not hold (a partly present cluster after a repair keeps its engine copy). */
async function notInEngine({ table }: ColdTable, trans: DBCoreTransaction, rows: StoredRow[]): Promise<StoredRow[]> {
  if (rows.length === 0) return rows;
  const existing = await table.getMany({ trans, keys: rows.map((row) => row.key) });
  return rows.filter((_row, index) => existing[index] === undefined);
}

/** IndexedDB's order for the keys the station uses (numbers before strings). */
function compareKeys(a: unknown, b: unknown): number {
  if (typeof a === typeof b) return (a as number | string) < (b as number | string) ? -1 : (a as number | string) > (b as number | string) ? 1 : 0;
  return typeof a === 'number' ? -1 : 1;
}
