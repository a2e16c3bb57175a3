/**
 * The parts of fake-indexeddb 6.x that direct-fill.ts (building an empty engine's trees in one pass),
 * the hot-set sweep's compaction (hot-set/compact-trees.ts) and the get-one reads (engine-reads.ts)
 * reach past its public API: an open database's object stores in
 * `IDBDatabase._rawDatabase.rawObjectStores`, and the red-black search trees of records and index
 * entries, rebuilt balanced by the engine's own `_rebuild` and walked by `treeGet`/`treeMatches`. Each caller
 * checks the rest of the shape it needs and falls back when it differs
 * (docs/decisions/store-fast-paths.md).
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

/** A node of a fake-indexeddb search tree (red-black; `deleted` marks a tombstone). */
interface TreeNode {
  record: TreeRecord;
  left?: TreeNode | null;
  right?: TreeNode | null;
  deleted?: boolean;
}

/** The search tree of a fake-indexeddb RecordStore (an object store's `records`, an index's `records`), or undefined when it is not shaped so. */
export function searchTreeOf(recordStore: unknown): { _root: unknown } | undefined {
  const tree = (recordStore as { records?: unknown } | null)?.records;
  if (typeof tree !== 'object' || tree === null || !('_root' in tree)) return undefined;
  const root = (tree as { _root: unknown })._root;
  if (root !== null && root !== undefined && typeof (root as { record?: { key?: unknown } }).record?.key === 'undefined') return undefined;
  return tree as { _root: unknown };
}

/** IndexedDB's order of key types: numbers, dates, strings, binary, arrays. */
function keyRank(key: unknown): number {
  if (typeof key === 'number') return 1;
  if (key instanceof Date) return 2;
  if (typeof key === 'string') return 3;
  return Array.isArray(key) ? 5 : 4;
}

/** Where `key` (a number or string) sorts against a tree key, in IndexedDB's order. */
function compareKey(key: number | string, treeKey: unknown): number {
  const rank = keyRank(key) - keyRank(treeKey);
  if (rank !== 0) return rank;
  return key < (treeKey as typeof key) ? -1 : key > (treeKey as typeof key) ? 1 : 0;
}

/**
 * The live record under `key` in a tree of unique keys, walked directly: fake-indexeddb's own
 * lookup goes through a generator per tree level and a key range, several times the cost at
 * 100,000 records. Its value is the engine's own object: not a copy.
 */
export function treeGet(tree: { _root: unknown }, key: number | string): TreeRecord | undefined {
  let node = tree._root as TreeNode | null | undefined;
  while (node) {
    const order = compareKey(key, node.record.key);
    if (order === 0) return node.deleted ? undefined : node.record;
    node = order < 0 ? node.left : node.right;
  }
  return undefined;
}

/** Every live record whose key equals `key`, in tree order (an index's: by primary key). */
export function treeMatches(tree: { _root: unknown }, key: number | string): TreeRecord[] {
  const found: TreeRecord[] = [];
  const visit = (node: TreeNode | null | undefined): void => {
    if (!node) return;
    const order = compareKey(key, node.record.key);
    // Equal keys may sit on both sides of an equal node (a non-unique tree orders them by value).
    if (order <= 0) visit(node.left);
    if (order === 0 && !node.deleted) found.push(node.record);
    if (order >= 0) visit(node.right);
  };
  visit(tree._root as TreeNode | null | undefined);
  return found;
}
