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

import { engineObjectStores, NO_OBJECT_STORES, rebuildTree, type SearchTree as EngineTree, type TreeRecord } from '../engine-trees.ts';
import { CLUSTER_TABLES } from './rule.ts';
import type { SweepCompaction } from './shed.ts';

/** Tombstones a tree may hold, as a share of its nodes, before the sweep compacts it. */
const MAX_TOMBSTONE_SHARE = 0.1;

/** What the sweep compacts: what it sheds, and what housekeeping prunes (the change log, idempotency keys). */
const COMPACTED_TABLES: readonly string[] = [...CLUSTER_TABLES, 'change_log', 'idempotency_keys'];

/** What differs in the engine `backend` from the shape compaction needs, or undefined when it can compact (checked at open for the start's log line). */
export function compactionMismatch(backend: unknown): string | undefined {
  const trees = searchTreesOf(backend, COMPACTED_TABLES);
  return 'mismatch' in trees ? trees.mismatch : undefined;
}

/** The sweep's compaction of the engine `backend()` returns (the open engine's `backendDB()`). */
export function sweepCompaction(backend: () => unknown): SweepCompaction {
  let warned = false;
  return {
    tables: COMPACTED_TABLES,
    run() {
      const trees = searchTreesOf(backend(), COMPACTED_TABLES);
      if (!('mismatch' in trees)) return void compactSearchTrees(trees);
      if (!warned)
        console.warn(`Returns station store: the hot-set sweep does not compact the engine's trees: fake-indexeddb internals differ (${trees.mismatch}).`);
      warned = true;
    },
  };
}

/** A tree with its records still in it: the live ones are read back to rebuild it. */
interface SearchTree extends EngineTree {
  getAllRecords(): Iterable<TreeRecord>;
}

/** The search trees of these tables (records and indexes), or what differs from the expected shape. */
export function searchTreesOf(backend: unknown, tables: readonly string[]): SearchTree[] | { mismatch: string } {
  const stores = engineObjectStores(backend);
  if (!stores) return { mismatch: NO_OBJECT_STORES };
  const trees: SearchTree[] = [];
  for (const table of tables) {
    const store = stores.get(table) as { records?: { records?: unknown }; rawIndexes?: unknown } | undefined;
    if (!store) continue; // a table this schema version does not have
    if (!(store.rawIndexes instanceof Map)) return { mismatch: `object store ${table} has no rawIndexes map` };
    const candidates = [
      store.records?.records,
      ...[...(store.rawIndexes as Map<string, { records?: { records?: unknown } }>).values()].map((index) => index.records?.records),
    ];
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
    rebuildTree(tree, [...tree.getAllRecords()]);
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
