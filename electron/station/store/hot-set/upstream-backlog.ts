import { Dexie } from 'dexie';
import type { DBCoreMutateRequest, DBCoreTable, DBCoreTransaction } from 'dexie';
import { UPSTREAM_SETTINGS_KEY } from './rule.ts';

const writable = (trans: DBCoreTransaction): boolean => (trans as unknown as { mode: string }).mode === 'readwrite';

/**
 * `station_meta` as the hot set sees it. Setting an upstream makes every cluster with an unsent
 * change hot (the open's rule): the write that stores the settings first brings those clusters in
 * (`bringInBacklog`), so sync finds the whole backlog in the engine's outbox, as it would after a
 * restart. Without an upstream the backlog stays on disk with its clusters
 * (docs/decisions/store-hot-set.md, "The outbox belongs to the cluster").
 */
export function upstreamSettingsTable(table: DBCoreTable, enabled: () => boolean, bringInBacklog: (trans: DBCoreTransaction) => Promise<void>): DBCoreTable {
  return {
    ...table,
    mutate(request: DBCoreMutateRequest) {
      const setsUpstream =
        enabled() && request.type === 'put' && writable(request.trans) && request.values.some((value) => (value as { key?: unknown }).key === UPSTREAM_SETTINGS_KEY);
      if (!setsUpstream) return table.mutate(request);
      // A promise of Dexie's: Dexie finds its transaction through its async zone.
      return Dexie.Promise.resolve().then(() => bringInBacklog(request.trans).then(() => table.mutate(request)));
    },
  };
}
