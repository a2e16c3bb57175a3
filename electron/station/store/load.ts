import type { DatabaseSync } from 'node:sqlite';
import type { DBCore } from 'dexie';
import { directFillTargets, fillObjectStore } from './direct-fill.ts';
import { engineTransactionDone } from './durability/mutations.ts';
import { DamagedRowError } from './errors.ts';
import { quoteIdent } from './sqlite/layout.ts';

// fake-indexeddb shifts its request queue per request (O(queue length)): issuing all rows at once is
// quadratic, so each chunk is issued only when the previous one has been stored.
const CHUNK = 2_000;
const READ_CHUNK = 5_000;

/** Where the rows come from: each stored record (parsed) of a table, and the highest id ever handed out. */
export interface StoredTable {
  name: string;
  rows(): Iterable<unknown>;
  lastIssuedId: number;
}

/**
 * Reads each table in key order, 5,000 records per query, as one JSON array text per chunk:
 * one string and one JSON.parse per chunk instead of a row object and a parse per record, which
 * halves the read time of a large store. A table in `leftOnDisk` gives no rows: only its key
 * generator is moved on (past its highest key as well, for a database older than `_sequences`).
 */
export function storedTables(
  db: DatabaseSync,
  tables: readonly string[],
  onlyListed: ReadonlySet<string> = new Set(),
  leftOnDisk: ReadonlySet<string> = new Set(),
): StoredTable[] {
  const sequence = db.prepare('SELECT last FROM _sequences WHERE name = ?');
  const issued = (name: string): number => (sequence.get(name) as { last: number } | undefined)?.last ?? 0;
  return tables.map((name) => ({
    name,
    *rows() {
      if (leftOnDisk.has(name)) return;
      // A table of the hot set reads only the keys listed in temp.hot_<table> (hot-set/rule.ts).
      const listed = onlyListed.has(name);
      const keys = listed ? `temp.${quoteIdent(`hot_${name}`)}` : quoteIdent(name);
      const source = listed
        ? `SELECT t.k AS k, t.v AS v FROM ${keys} h CROSS JOIN ${quoteIdent(name)} t ON t.k = h.k WHERE h.k > ? ORDER BY h.k LIMIT ${READ_CHUNK}`
        : `SELECT k, v FROM ${quoteIdent(name)} WHERE k > ? ORDER BY k LIMIT ${READ_CHUNK}`;
      const chunk = db.prepare(`SELECT '[' || group_concat(v, ',') || ']' AS records, max(k) AS last, count(*) AS n FROM (${source})`);
      const first = db.prepare(`SELECT min(k) AS k FROM ${keys}`).get() as { k: unknown };
      if (first.k === null) return;
      // Keys are numbers or strings; start below the smallest one of its kind.
      let after: number | string = typeof first.k === 'string' ? '' : Number.MIN_SAFE_INTEGER;
      for (;;) {
        const row = chunk.get(after) as { records: string | null; last: number | string | null; n: number };
        if (row.n === 0 || row.records === null || row.last === null) return;
        yield* parseChunk(db, name, row.records, after);
        after = row.last;
        if (row.n < READ_CHUNK) return;
      }
    },
    lastIssuedId: leftOnDisk.has(name)
      ? Math.max(issued(name), (db.prepare(`SELECT coalesce(max(k), 0) AS k FROM ${quoteIdent(name)}`).get() as { k: number }).k)
      : issued(name),
  }));
}

/** Parses a chunk of rows; a row that is not JSON is named (table and key) for the operator. */
function parseChunk(db: DatabaseSync, table: string, records: string, after: number | string): unknown[] {
  try {
    return JSON.parse(records) as unknown[];
  } catch {
    const bad = db.prepare(`SELECT k FROM ${quoteIdent(table)} WHERE k > ? AND json_valid(v) = 0 ORDER BY k LIMIT 1`).get(after) as { k: unknown } | undefined;
    throw new DamagedRowError(table, bad?.k ?? '?');
  }
}

/** How the last load went: which way the records went into the engine, and where the time went. */
export interface LoadReport {
  /** `direct` unless the fast path is off (fast-paths.ts) or fake-indexeddb's internals differ from what direct-fill.ts expects. */
  path: 'direct' | 'portable';
  /** Reading the SQLite rows and parsing their JSON (direct path only; the portable path interleaves). */
  readMs: number;
  /** Putting the records into the engine (everything, on the portable path). */
  fillMs: number;
  /** Returns whose records (the cluster) the engine holds after the load: the hot set. */
  hotReturns?: number;
  /** Outbox slots (unsent changes) the engine holds after the load: those of the hot set's clusters. */
  outboxSlots?: number;
}

/**
 * Loads the SQLite copy into the empty, just-opened engine, before anybody else can use it.
 *
 * Fast path (direct-fill.ts): each table's parsed records and their index entries go straight
 * into fake-indexeddb's search trees, each tree built in one pass — skipping the request
 * machinery, a structured clone and a tree insertion per record and index entry. The records are
 * freshly parsed, so nothing else holds a reference to them. If the engine's internals are not
 * the expected shape (another fake-indexeddb version), or `direct` is false (the fast path is off:
 * fast-paths.ts), the portable path loads through the DBCore below the recording middleware instead.
 *
 * Either way nothing is written back, and each auto-increment generator is moved past the highest
 * id ever handed out, so a deleted record's id is never given again.
 */
export async function loadIntoEngine(core: DBCore, backend: unknown, tables: readonly StoredTable[], direct = true): Promise<LoadReport> {
  const check: ReturnType<typeof directFillTargets> = direct
    ? directFillTargets(
        backend,
        tables.map((table) => table.name),
      )
    : { mismatch: 'off' };
  if ('mismatch' in check) {
    // Slower at a large store: an operator (or the bench) should know why, unless it was asked for.
    if (direct) console.warn(`Returns station store: loading through the engine's public API (slower): fake-indexeddb internals differ (${check.mismatch}).`);
    const started = performance.now();
    await loadThroughCore(core, tables);
    return { path: 'portable', readMs: 0, fillMs: performance.now() - started };
  }
  const targets = check.targets;
  const report: LoadReport = { path: 'direct', readMs: 0, fillMs: 0 };
  for (const table of tables) {
    const target = targets.get(table.name);
    if (!target) continue;
    const started = performance.now();
    const values = [...table.rows()];
    const read = performance.now();
    fillObjectStore(target, values, table.lastIssuedId);
    report.readMs += read - started;
    report.fillMs += performance.now() - read;
  }
  return report;
}

/** The portable path: the public engine API, one transaction, chunked. */
export async function loadThroughCore(core: DBCore, tables: readonly StoredTable[]): Promise<void> {
  const trans = core.transaction(
    tables.map((table) => table.name),
    'readwrite',
  );
  const done = engineTransactionDone(trans, 'Loading the store');
  done.catch(() => {});
  for (const table of tables) {
    const target = core.table(table.name);
    let chunk: unknown[] = [];
    for (const value of table.rows()) {
      chunk.push(value);
      if (chunk.length === CHUNK) {
        checkNoFailures(table.name, await target.mutate({ type: 'add', trans, values: chunk }));
        chunk = [];
      }
    }
    if (chunk.length > 0) checkNoFailures(table.name, await target.mutate({ type: 'add', trans, values: chunk }));
    const primaryKey = target.schema.primaryKey;
    if (primaryKey.autoIncrement && typeof primaryKey.keyPath === 'string' && table.lastIssuedId > 0) {
      // An explicit key at or above the generator moves it; deleting the placeholder does not move it back.
      const placeholder = { [primaryKey.keyPath]: table.lastIssuedId };
      const existing = await target.get({ trans, key: table.lastIssuedId });
      if (existing === undefined) {
        await target.mutate({ type: 'add', trans, values: [placeholder] });
        await target.mutate({ type: 'delete', trans, keys: [table.lastIssuedId] });
      }
    }
  }
  await done;
}

function checkNoFailures(table: string, response: { numFailures: number; failures: Record<number, Error> }): void {
  if (response.numFailures > 0) {
    const first = Object.values(response.failures)[0];
    throw new Error(`Loading ${table}: ${response.numFailures} record(s) were refused by the engine (${first?.message ?? 'unknown'}).`);
  }
}
