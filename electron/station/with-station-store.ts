import { lockDataDir } from './data-dir-lock.ts';
import { newStoreRefusal } from './data-dir-check.ts';
import { systemClock } from './domain/clock.ts';
import { loadConfigCache } from './domain/config-cache.ts';
import type { DomainContext } from './domain/context.ts';
import { openStore } from './store/index.ts';
import { upgradeUpstreamSettings } from './sync/settings.ts';

/**
 * Runs a CLI command against a data directory's store, holding the directory's lock like `serve`
 * does: a directory held by a running station is refused with the holder's name.
 */
export async function withStationStore<T>(dataDir: string, command: string, fn: (ctx: DomainContext) => Promise<T>): Promise<T> {
  const lock = lockDataDir(dataDir, command);
  try {
    const store = await openStore({ dataDir, refuseNewBecause: newStoreRefusal(dataDir, lock.previousHolder) });
    try {
      // As at serve's start: upstream settings stored with one URL take the two addresses' shape.
      await upgradeUpstreamSettings(store);
      return await fn({ store, clock: systemClock, config: await loadConfigCache(store) });
    } finally {
      await store.close();
    }
  } finally {
    lock.release();
  }
}
