import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { openMediaFiles } from '../../media/index.ts';
import { type ChangeLogReads, createChangeLogReads } from '../change-log-reads.ts';
import { accountReads, configReads, operatorReads, packageReads, returnReads, tokenReads } from '../aggregates.ts';
import { changeEvents } from '../changes.ts';
import { engineReadsOf, PUBLIC_READS_ONLY } from '../engine-reads.ts';
import type { FastPath } from '../fast-paths.ts';
import { keepInsides } from '../insides.ts';
import { StoreClosedError } from '../errors.ts';
import type { HotSetOptions } from '../hot-set/rule.ts';
import { createListQueries, type ListQueryRunner } from '../list-queries.ts';
import { mediaReferences } from '../media-references.ts';
import { lineItemIdsOfUnit } from '../sqlite/unit-index.ts';
import { packageIdsInReview } from '../sqlite/review-index.ts';
import { lineItemIdsOfSerial } from '../sqlite/serial-index.ts';
import { readTablesOf } from '../station-tables.ts';
import type { OpenStoreOptions, StationStore } from '../station-store.ts';
import type { SchemaPlan } from './create.ts';
import type { Durability } from './durability.ts';
import type { OpenedEngine } from './engine.ts';
import { type HotSetSweeper, hotSetSweeper } from './hot-set-sweeper.ts';
import { type StoreLifecycle, StoreWrites } from './store-writes.ts';

/** Step "assemble": the opened engine, SQLite and the commit loop become one StationStore. */
export async function assembleStore(
  options: OpenStoreOptions,
  plan: SchemaPlan,
  sqlite: DatabaseSync,
  durability: Durability,
  engine: OpenedEngine,
  hotSet: HotSetOptions,
  fastPaths: ReadonlySet<FastPath>,
): Promise<StationStore> {
  const { db } = engine;
  const { loop } = durability;
  const media = await openMediaFiles(join(options.dataDir, 'media'), {
    isReferenced: mediaReferences(db, sqlite),
    budgetBytes: options.mediaBudgetBytes ?? null,
  });
  // Open: from now on every write goes through the commit loop, which fsyncs the WAL itself off
  // the event loop before it acknowledges (durability/wal-sync.ts); SQLite's own fsync at each
  // COMMIT would block the loop. Until here (creation, upgrades) SQLite synced every commit.
  sqlite.exec('PRAGMA synchronous = NORMAL');
  const lists = listQueries(sqlite, durability, options.listCountBudget);
  const changeLog = createChangeLogReads(sqlite);
  const lifecycle: StoreLifecycle = { closed: false };
  const writes = new StoreWrites(db, durability, [...plan.tables.keys()], lifecycle);
  const sweeper = hotSetSweeper(engine, loop, hotSet, options.hotSet, lifecycle, fastPaths.has('tree-compaction'));
  const open = (): void => {
    if (lifecycle.closed) throw new StoreClosedError();
  };
  let closing: Promise<void> | undefined;

  // The fast path `tree-reads` (fast-paths.ts); without it every read goes through Dexie.
  const inMemory = fastPaths.has('tree-reads')
    ? engineReadsOf(db.backendDB(), { holdsAllMatches: engine.hot.holdsAllMatches, coldKeys: engine.hot.coldKeys, isClosed: () => lifecycle.closed })
    : PUBLIC_READS_ONLY;

  const store: StationStore = {
    dataDir: options.dataDir,
    returns: returnReads(db, inMemory),
    packages: packageReads(db, inMemory, {
      unitIndex: lineItemIdsOfUnit(sqlite),
      serialIndex: lineItemIdsOfSerial(sqlite),
      reviewIndex: packageIdsInReview(sqlite),
    }),
    accounts: accountReads(db),
    carriers: configReads(db.carriers),
    locations: configReads(db.locations),
    operators: operatorReads(db),
    tokens: tokenReads(db),
    // The store's tables over the engine's, read only (read-tables.ts).
    tables: readTablesOf(db),
    media,
    write: writes.write,
    listIds(table, query) {
      open();
      return lists.listIds(table, query);
    },
    count(table, filters) {
      open();
      return lists.count(table, filters);
    },
    changeLog: {
      after(seq, limit) {
        open();
        return changeLog.after(seq, limit);
      },
      madeBefore(cutoff) {
        open();
        return changeLog.madeBefore(cutoff);
      },
    } satisfies ChangeLogReads,
    subscribe(listener) {
      durability.listeners.add(listener);
      return () => durability.listeners.delete(listener);
    },
    onChange(tables, listener) {
      const report = changeEvents(tables, listener);
      durability.onTablesChanged.add(report);
      return () => durability.onTablesChanged.delete(report);
    },
    shedCold: sweeper.sweep,
    flush() {
      return loop.idle();
    },
    committedSoFar() {
      return loop.committedSoFar();
    },
    close() {
      closing ??= closeStore({ lifecycle, writes, sweeper, durability, engine, sqlite });
      return closing;
    },
  };
  return keepInsides(store, { db, inMemory });
}

/** The list queries over SQLite, which forget what they remembered of a table once a commit to it is durable. */
function listQueries(sqlite: DatabaseSync, durability: Durability, budget: number | undefined): ListQueryRunner {
  const lists = createListQueries(sqlite, budget);
  durability.onTablesChanged.add((tables) => {
    for (const table of tables) lists.forgetCounts(table);
  });
  return lists;
}

/** Closing: no new writes or sweeps; the writes already started finish and commit; then the engine and SQLite close. */
async function closeStore(parts: {
  lifecycle: StoreLifecycle;
  writes: StoreWrites;
  sweeper: HotSetSweeper;
  durability: Durability;
  engine: OpenedEngine;
  sqlite: DatabaseSync;
}): Promise<void> {
  const { loop } = parts.durability;
  parts.lifecycle.closed = true;
  await parts.sweeper.stop();
  while (parts.writes.inFlight > 0 || loop.active > 0) {
    await loop.idle();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await loop.idle();
  parts.engine.db.close();
  parts.durability.wal.close();
  parts.sqlite.close();
}
