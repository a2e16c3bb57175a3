import type { Carrier, Location, StationStore } from '../store/index.ts';

/**
 * Carriers and locations are station configuration, written only when the station starts (seeded
 * defaults); every package view names them. Kept in memory, so a page of 25 packages costs one
 * engine read instead of fifty.
 */
export interface ConfigCache {
  carrier(id: number | null): Carrier | undefined;
  location(id: number | null): Location | undefined;
  reload(): Promise<void>;
}

export async function loadConfigCache(store: StationStore): Promise<ConfigCache> {
  let carriers = new Map<number, Carrier>();
  let locations = new Map<number, Location>();
  const cache: ConfigCache = {
    carrier: (id) => (id === null ? undefined : carriers.get(id)),
    location: (id) => (id === null ? undefined : locations.get(id)),
    async reload() {
      carriers = new Map((await store.carriers.all()).map((c) => [c.id, c]));
      locations = new Map((await store.locations.all()).map((l) => [l.id, l]));
    },
  };
  await cache.reload();
  return cache;
}
