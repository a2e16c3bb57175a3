import type { EngineReads } from './engine-reads.ts';
import type { StationDexie } from './schema.ts';
import type { StationStore } from './station-store.ts';

/*
 * The store's insides: the Dexie instance and the engine's own records. No caller of the store sees
 * them (`StationStore` has neither, and lint lets the core import the store only through
 * store/index.ts, which does not export this file); the store's own tests and the bench reach them
 * here, to look beneath the interface they test.
 */

export interface StoreInsides {
  readonly db: StationDexie;
  readonly inMemory: EngineReads;
}

const insides = new WeakMap<StationStore, StoreInsides>();

/** Called once by the store as it opens (open/assemble.ts). */
export function keepInsides(store: StationStore, parts: StoreInsides): StationStore {
  insides.set(store, parts);
  return store;
}

/** For tests and the bench only: the Dexie instance and engine reads behind `store`. */
export function insidesOf(store: StationStore): StoreInsides {
  const parts = insides.get(store);
  if (!parts) throw new Error('insidesOf: not a store opened by openStore');
  return parts;
}
