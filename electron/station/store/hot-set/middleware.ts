import type { DBCore, DBCoreQueryRequest, DBCoreTable, DBCoreTransaction, Middleware } from 'dexie';
import type { ColdReads, StoredRow } from './cold-reads.ts';
import { type ColdSide, coldTable } from './cold-table.ts';
import { type ClusterTable, isClusterTable } from './rule.ts';
import { type BacklogReads, outboxBacklogTable, upstreamSettingsTable } from './upstream-backlog.ts';

/** Dexie's DBCoreRangeType.Equal (a const enum, not importable as a value). */
const EQUAL = 1;

/**
 * The engine transaction behind a DBCore transaction (fake-indexeddb's IDBTransaction): DBCore has
 * no event for a transaction's end (docs/decisions/store-fast-paths.md).
 */
interface EngineTransaction {
  addEventListener(type: 'abort', listener: () => void): void;
}

export interface HotSetEngine {
  middleware: Middleware<DBCore>;
  /** Returns whose whole cluster the engine holds: a miss there is a missing record, not a cold one. */
  present: Set<number>;
  /** The core below this middleware (for the sweep: nothing it does is recorded or faulted in). */
  readonly core: DBCore | undefined;
  /** The SQLite reads behind it (the sweep asks them which clusters are hot). */
  readonly cold: ColdReads;
  /** Off while the store loads (the load puts rows in itself); on once it is open. */
  enabled: boolean;
  /**
   * Whether the engine alone holds every record an equality query on `index` of `table` matches
   * (not a cluster table, the hot set off, or the matches' cluster present); false when SQLite
   * may hold more of them (or cannot say which cluster they belong to). `cluster`: the return whose
   * cluster the matches belong to, when the caller knows it (a package's items: its `return_id`),
   * so it need not be looked up on disk.
   */
  holdsAllMatches(table: string, index: string, value: unknown, cluster?: number): boolean;
  /** The keys of the stored records an equality query on `index` matches whose cluster the engine does not hold (SQLite asked only when it may hold some). */
  coldKeys(table: string, index: string, value: unknown): Array<number | string>;
}

/**
 * A DBCore middleware below the recording one (docs/decisions/store-hot-set.md). For the cluster
 * tables it makes a cold record (only in SQLite) look like a hot one:
 *
 * - a read outside a write that misses the engine (get, bulkGet, an equality query on an index of
 *   cold-reads.ts, its count) is answered from SQLite as well, without touching the engine;
 * - inside a write, the same miss first brings the record's whole cluster into the engine (in this
 *   transaction, below the recording middleware, so it is not written back), and the write then
 *   runs on the engine as usual. Only missing keys are added: a newer engine copy always wins;
 * - a put of a record whose cluster is cold brings the cluster in first.
 *
 * A record whose cluster is present but which the engine lacks was deleted (maybe not yet
 * durable): SQLite is not asked, so a pending delete is never undone.
 */
export function hotSetMiddleware(cold: ColdReads): HotSetEngine {
  return new HotSet(cold);
}

/** The hot set's state (which clusters the engine holds, the core below) and its steps over it. */
class HotSet implements HotSetEngine, ColdSide {
  readonly present = new Set<number>();
  enabled = false;
  core: DBCore | undefined;
  readonly cold: ColdReads;
  readonly middleware: Middleware<DBCore>;
  /** The clusters each write transaction brought in (or created): an abort takes them out again. */
  readonly #addedBy = new WeakMap<DBCoreTransaction, Set<number>>();

  /**
   * The read-write transactions made through this middleware, with their scope: DBCore's
   * `transaction(stores, mode)` says both, and every request carries the object it returned
   * (docs/decisions/store-fast-paths.md: no cast to the engine's IDBTransaction for them).
   */
  readonly #writes = new WeakMap<DBCoreTransaction, ReadonlySet<string>>();

  constructor(cold: ColdReads) {
    this.cold = cold;
    this.middleware = { stack: 'dbcore', name: 'station-hot-set', level: -200, create: (core) => this.#over(core) };
  }

  /** The core the layers above see: cluster tables as cold tables, station settings watched for an upstream. */
  #over(core: DBCore): DBCore {
    this.core = core;
    return {
      ...core,
      transaction: (stores, mode, options) => {
        const trans = core.transaction(stores, mode, options);
        if (mode === 'readwrite') this.#writes.set(trans, new Set(stores));
        return trans;
      },
      table: (name: string): DBCoreTable => {
        const table = core.table(name);
        if (name === 'station_meta')
          return upstreamSettingsTable(
            table,
            () => this.enabled,
            this.writable,
            (trans) => this.#faultInClusters(trans, this.cold.unsentClusters()),
          );
        if (name === 'outbox') return outboxBacklogTable(coldTable(this, table, name), this.#backlogReads);
        return isClusterTable(name) ? coldTable(this, table, name) : table;
      },
    };
  }

  /** What a read of the whole outbox merges from disk: the slots of clusters the engine does not hold. */
  readonly #backlogReads: BacklogReads = {
    // With an upstream set every slot's cluster is hot: nothing to merge, the disk is not read.
    enabled: () => this.enabled && !this.cold.upstreamSet(),
    slots: () => this.cold.outboxSlots(),
    presentFor: (slot) => {
      const cluster = this.cold.clusterOf('outbox', slot.value);
      return cluster !== undefined && this.present.has(cluster);
    },
  };

  // An arrow: the store hands it on unbound (engine-reads.ts).
  readonly holdsAllMatches = (table: string, index: string, value: unknown, knownCluster?: number): boolean => {
    if (!this.enabled || !isClusterTable(table)) return true;
    if (!this.cold.answers(table, index)) return true; // SQLite is not asked for it anyway: the engine's answer is the answer
    const cluster = knownCluster ?? this.cold.clusterOfMatches(table, index, value);
    return cluster !== undefined && this.present.has(cluster);
  };

  // An arrow: cold tables call it unbound.
  readonly writable = (trans: DBCoreTransaction): boolean => this.#writes.has(trans);

  /** Whether the write `trans` may touch `table` (its scope). */
  #inScope(trans: DBCoreTransaction, table: string): boolean {
    return this.#writes.get(trans)?.has(table) ?? false;
  }

  isPresent(cluster: number): boolean {
    return this.present.has(cluster);
  }

  coldRow(table: ClusterTable, key: unknown): StoredRow | undefined {
    if (typeof key !== 'number' && typeof key !== 'string') return undefined;
    const row = this.cold.row(table, key);
    if (!row) return undefined;
    const cluster = this.cold.clusterOf(table, row.value);
    return cluster !== undefined && this.present.has(cluster) ? undefined : row;
  }

  coldMatches(table: ClusterTable, request: { query: DBCoreQueryRequest['query'] }): StoredRow[] {
    const { index, range } = request.query;
    if (range.type !== EQUAL || index.isPrimaryKey || !index.name) return [];
    return this.#coldMatching(table, index.name, range.lower);
  }

  // An arrow: the store hands it on unbound (engine-reads.ts).
  readonly coldKeys = (table: string, index: string, value: unknown): Array<number | string> =>
    isClusterTable(table) ? this.#coldMatching(table, index, value).map((row) => row.key) : [];

  /** The stored records an equality query on `index` matches whose cluster the engine does not hold. */
  #coldMatching(table: ClusterTable, index: string, value: unknown): StoredRow[] {
    if (!this.enabled || !this.cold.answers(table, index)) return [];
    // The common case, a hot package's items or media: its cluster is in memory, SQLite is not asked.
    if (this.holdsAllMatches(table, index, value)) return [];
    return this.cold.matching(table, index, value).filter((row) => {
      const cluster = this.cold.clusterOf(table, row.value);
      return cluster === undefined || !this.present.has(cluster);
    });
  }

  // A transaction that aborts takes its fault-ins (and new returns) with it: they are not present then.
  markPresent(trans: DBCoreTransaction, cluster: number): void {
    let added = this.#addedBy.get(trans);
    if (!added) {
      const clusters = new Set<number>();
      this.#addedBy.set(trans, (added = clusters));
      (trans as unknown as EngineTransaction).addEventListener('abort', () => {
        for (const id of clusters) this.present.delete(id);
      });
    }
    added.add(cluster);
    this.present.add(cluster);
  }

  async faultIn(trans: DBCoreTransaction, table: ClusterTable, rows: readonly StoredRow[]): Promise<void> {
    if (!this.core) return;
    const clusters = new Set<number>();
    for (const row of rows) {
      const cluster = this.cold.clusterOf(table, row.value);
      if (cluster === undefined) await this.#addMissing(trans, table, [row]);
      else if (!this.present.has(cluster)) clusters.add(cluster);
    }
    await this.#faultInClusters(trans, clusters);
  }

  /** Brings these clusters, whole, into the engine inside `trans` (only the keys it lacks). */
  async #faultInClusters(trans: DBCoreTransaction, clusters: Iterable<number>): Promise<void> {
    if (!this.core) return;
    for (const cluster of clusters) {
      if (this.present.has(cluster)) continue;
      let whole = true;
      for (const [name, clusterRows] of this.cold.cluster(cluster)) {
        if (!this.#inScope(trans, name)) {
          whole = false;
          continue;
        }
        await this.#addMissing(trans, name, clusterRows);
      }
      if (whole) this.markPresent(trans, cluster);
    }
  }

  /** Adds the rows whose keys the engine lacks, below the recording middleware (so they are not written back). */
  async #addMissing(trans: DBCoreTransaction, table: string, rows: readonly StoredRow[]): Promise<void> {
    if (!this.core || rows.length === 0) return;
    const target = this.core.table(table);
    const existing = await target.getMany({ trans, keys: rows.map((row) => row.key) });
    const missing = rows.filter((_row, index) => existing[index] === undefined).map((row) => row.value);
    if (missing.length > 0) await target.mutate({ type: 'add', trans, values: missing });
  }
}
