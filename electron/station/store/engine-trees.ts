/**
 * The parts of fake-indexeddb 6.x that direct-fill.ts (building an empty engine's trees in one pass)
 * and the hot-set sweep's compaction (hot-set/compact-trees.ts) reach past its public API: an open
 * database's object stores in `IDBDatabase._rawDatabase.rawObjectStores`, and the red-black search
 * trees of records and index entries, rebuilt balanced by the engine's own `_rebuild`. Each caller
 * checks the rest of the shape it needs and falls back when it differs
 * (docs/decisions/store-dexie-internals.md).
 */

/** A record of a fake-indexeddb tree: an object store's {key, value} or an index's {key, primaryKey}. */
export interface TreeRecord {
  key: unknown;
  value: unknown;
}

export interface SearchTree {
  _root: unknown;
  _numNodes: number;
  _numTombstones: number;
  _rebuild(records: TreeRecord[], parent: undefined, red: boolean): unknown;
}

/** The engine's object stores by name, or undefined when the engine is not shaped as expected. */
export function engineObjectStores(backend: unknown): Map<string, unknown> | undefined {
  const stores = (backend as { _rawDatabase?: { rawObjectStores?: unknown } } | null)?._rawDatabase?.rawObjectStores;
  return stores instanceof Map ? (stores as Map<string, unknown>) : undefined;
}

export const NO_OBJECT_STORES = 'the engine has no _rawDatabase.rawObjectStores map';

/** Makes `tree` hold exactly `sorted` (in key order), balanced, with no tombstones. */
export function rebuildTree(tree: SearchTree, sorted: TreeRecord[]): void {
  tree._root = tree._rebuild(sorted, undefined, false);
  tree._numNodes = sorted.length;
  tree._numTombstones = 0;
}
