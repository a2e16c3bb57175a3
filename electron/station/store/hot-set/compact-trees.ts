/**
 * fake-indexeddb deletes by tombstone: a deleted record's tree node stays, record and value
 * included, until tombstones are two thirds of the tree's nodes; then it rebuilds the tree. A hot
 * set that sheds every day and a change log pruned every hour therefore held up to twice their live
 * records again in dead nodes — memory that rose and fell with that cycle, not with the work
 * (docs/decisions/memory-over-a-year.md). The sweep compacts each tree that holds more than a tenth
 * of tombstones, with the routine fake-indexeddb uses itself (`_rebuild` over the live records).
 *
 * This reads fake-indexeddb 6.x internals, as direct-fill.ts does (`_rawDatabase.rawObjectStores`
 * → `records.records` and `rawIndexes` → `records.records`, trees with `_numNodes`, `_numTombstones`,
 * `getAllRecords` and `_rebuild`). With another shape nothing is compacted (the engine's own rebuild
 * still bounds the tombstones) and the caller logs it once.
 */

import { CLUSTER_TABLES } from './rule.ts';
import type { SweepCompaction } from './shed.ts';

/** Tombstones a tree may hold, as a share of its nodes, before the sweep compacts it. */
const MAX_TOMBSTONE_SHARE = 0.1;

/** What the sweep compacts: what it sheds, and what housekeeping prunes (the change log, idempotency keys). */
const COMPACTED_TABLES: readonly string[] = [...CLUSTER_TABLES, 'change_log', 'idempotency_keys'];

/** The sweep's compaction of the engine `backend()` returns (the open engine's `backendDB()`). */
export function sweepCompaction(backend: () => unknown): SweepCompaction {
  let warned = false;
  return {
    tables: COMPACTED_TABLES,
    run() {
      const trees = searchTreesOf(backend(), COMPACTED_TABLES);
      if (!('mismatch' in trees)) return void compactSearchTrees(trees);
      if (!warned) console.warn(`Returns station store: the hot-set sweep does not compact the engine's trees: fake-indexeddb internals differ (${trees.mismatch}).`);
      warned = true;
    },
  };
}

interface SearchTree {
  _root: unknown;
  _numNodes: number;
  _numTombstones: number;
  getAllRecords(): Iterable<unknown>;
  _rebuild(records: unknown[], parent: undefined, red: boolean): unknown;
}

/** The search trees of these tables (records and indexes), or what differs from the expected shape. */
export function searchTreesOf(backend: unknown, tables: readonly string[]): SearchTree[] | { mismatch: string } {
  const stores = (backend as { _rawDatabase?: { rawObjectStores?: unknown } } | null)?._rawDatabase?.rawObjectStores;
  if (!(stores instanceof Map)) return { mismatch: 'the engine has no _rawDatabase.rawObjectStores map' };
  const trees: SearchTree[] = [];
  for (const table of tables) {
    const store = stores.get(table) as { records?: { records?: unknown }; rawIndexes?: unknown } | undefined;
    if (!store) continue; // a table this schema version does not have
    if (!(store.rawIndexes instanceof Map)) return { mismatch: `object store ${table} has no rawIndexes map` };
    const candidates = [store.records?.records, ...[...(store.rawIndexes as Map<string, { records?: { records?: unknown } }>).values()].map((index) => index.records?.records)];
    for (const tree of candidates) {
      if (!isSearchTree(tree)) return { mismatch: `a tree of ${table} is not the expected search tree` };
      trees.push(tree);
    }
  }
  return trees;
}

/** Rebuilds every tree whose tombstones exceed the share; returns how many it rebuilt. Synchronous: call it inside a write on those tables. */
export function compactSearchTrees(trees: readonly SearchTree[]): number {
  let rebuilt = 0;
  for (const tree of trees) {
    if (tree._numTombstones === 0 || tree._numTombstones <= tree._numNodes * MAX_TOMBSTONE_SHARE) continue;
    const live = [...tree.getAllRecords()];
    tree._root = tree._rebuild(live, undefined, false);
    tree._numNodes = live.length;
    tree._numTombstones = 0;
    rebuilt += 1;
  }
  return rebuilt;
}

function isSearchTree(tree: unknown): tree is SearchTree {
  const candidate = tree as Partial<SearchTree> | null | undefined;
  return (
    typeof candidate?._rebuild === 'function' &&
    typeof candidate.getAllRecords === 'function' &&
    typeof candidate._numNodes === 'number' &&
    typeof candidate._numTombstones === 'number'
  );
}
