import { Dexie } from 'dexie';
import type { DBCoreMutateRequest, DBCoreQueryRequest, DBCoreQueryResponse, DBCoreTable, DBCoreTransaction } from 'dexie';
import type { StoredRow } from './cold-reads.ts';
import { UPSTREAM_SETTINGS_KEY } from './rule.ts';

/** Dexie's DBCoreRangeType.Any (a const enum, not importable as a value). */
const ANY = 3;

/** What the outbox's whole-table read needs of the hot set. */
export interface BacklogReads {
  enabled(): boolean;
  /** Every slot on disk. */
  slots(): StoredRow[];
  /** Whether the engine holds this slot's cluster whole (then the engine's answer is the answer). */
  presentFor(slot: StoredRow): boolean;
}

/**
 * The outbox as the hot set sees it, for a read of the whole table (the sync screen's list of
 * waiting changes): without an upstream the slots of cold clusters stay on disk, so the engine's
 * answer is merged with the slots on disk that it lacks, in key order, as if they were hot. Every
 * other read is the cluster table's (cold-table.ts); with an upstream set no slot is cold.
 */
export function outboxBacklogTable(table: DBCoreTable, reads: BacklogReads): DBCoreTable {
  return {
    ...table,
    query(request: DBCoreQueryRequest) {
      const whole = request.query.index.isPrimaryKey && request.query.range.type === ANY && (request.limit === undefined || request.limit === Infinity);
      return table.query(request).then((hot): DBCoreQueryResponse => {
        if (!whole || !reads.enabled()) return hot;
        const keyOf = (item: unknown): unknown => (request.values ? (item as { key: unknown }).key : item);
        const held = new Set(hot.result.map(keyOf));
        const extra = reads.slots().filter((slot) => !held.has(slot.key) && !reads.presentFor(slot));
        if (extra.length === 0) return hot;
        const merged = [...hot.result, ...extra.map((slot) => (request.values ? slot.value : slot.key))];
        // Slot keys are strings (`kind:id`), ordered as IndexedDB orders them (by code unit).
        merged.sort((a, b) => (String(keyOf(a)) < String(keyOf(b)) ? -1 : String(keyOf(a)) > String(keyOf(b)) ? 1 : 0));
        return { result: request.direction?.startsWith('prev') ? merged.reverse() : merged };
      });
    },
  };
}

/**
 * `station_meta` as the hot set sees it. Setting an upstream makes every cluster with an unsent
 * change hot (the open's rule): the write that stores the settings first brings those clusters in
 * (`bringInBacklog`), so sync finds the whole backlog in the engine's outbox, as it would after a
 * restart. Without an upstream the backlog stays on disk with its clusters
 * (docs/decisions/store-hot-set.md, "The outbox belongs to the cluster").
 */
export function upstreamSettingsTable(
  table: DBCoreTable,
  enabled: () => boolean,
  writable: (trans: DBCoreTransaction) => boolean,
  bringInBacklog: (trans: DBCoreTransaction) => Promise<void>,
): DBCoreTable {
  return {
    ...table,
    mutate(request: DBCoreMutateRequest) {
      const setsUpstream =
        enabled() &&
        request.type === 'put' &&
        writable(request.trans) &&
        request.values.some((value) => (value as { key?: unknown }).key === UPSTREAM_SETTINGS_KEY);
      if (!setsUpstream) return table.mutate(request);
      // A promise of Dexie's: Dexie finds its transaction through its async zone.
      return Dexie.Promise.resolve().then(() => bringInBacklog(request.trans).then(() => table.mutate(request)));
    },
  };
}
