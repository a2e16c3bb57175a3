import { engineTransactionDone } from '../durability/mutations.ts';
import type { HotSetEngine } from './middleware.ts';
import { CHANGE_LOG_TABLE, CLUSTER_TABLES, type HotSetOptions } from './rule.ts';

/** Dexie's DBCoreRangeType.Any: the whole table. */
const ALL = { type: 3, lower: undefined, upper: undefined } as const;

/**
 * What the sweep also does in its transaction, once its deletes are done: compact the engine's
 * trees of these tables (compact-trees.ts; synchronous, so nothing runs in between).
 */
export interface SweepCompaction {
  tables: readonly string[];
  run(): void;
}

/**
 * The sweep: in ONE engine transaction (so no write runs in between), the clusters that left the
 * hot set are deleted from the engine — not from SQLite: the delete goes to the core below the
 * recording middleware, so nothing is written back. It only sheds when every write so far is
 * durable (`settled`): then SQLite holds what the engine holds, so which clusters are hot is asked
 * of SQLite, by the open's own rule and indexes (rule.ts, selectHotReturns), and each shed
 * record's newest version is on disk. The engine is read for its returns' keys alone: reading its
 * records would clone every one of them (≈ 1 s of a blocked event loop at 100,000 hot clusters).
 * The change log's entries go too: they are all in SQLite, where it is read (../change-log-reads.ts).
 * Returns how many returns' clusters were shed. A package whose return is missing (no path of the
 * API makes one) stays until the next start, which judges it by itself.
 */
export async function shedCold(hot: HotSetEngine, options: HotSetOptions, settled: () => boolean, compact?: SweepCompaction): Promise<number> {
  const core = hot.core;
  if (!core || !hot.enabled) return 0;
  const hasLog = core.schema.tables.some((table) => table.name === CHANGE_LOG_TABLE);
  const tables = [...new Set([...CLUSTER_TABLES, 'station_meta', ...(hasLog ? [CHANGE_LOG_TABLE] : []), ...(compact?.tables ?? [])])];
  const trans = core.transaction(tables, 'readwrite');
  const done = engineTransactionDone(trans, 'The hot-set sweep');
  done.catch(() => {});
  const finish = async (shed: number): Promise<number> => {
    compact?.run();
    await done;
    return shed;
  };
  // Read first, then ask whether all is durable: once this transaction runs, every write queued
  // before it has run in the engine, and one not yet committed to SQLite shows as not settled.
  const returnsTable = core.table('returns');
  const held = (await returnsTable.query({ trans, values: false, query: { index: returnsTable.schema.primaryKey, range: ALL } })).result as number[];
  if (!settled()) return finish(0);
  if (hasLog) await core.table(CHANGE_LOG_TABLE).mutate({ type: 'deleteRange', trans, range: ALL });
  const hotNow = hot.cold.hotReturns(options);
  const shed = [...new Set([...held, ...hot.present])].filter((id) => !hotNow.has(id));
  if (shed.length === 0) return finish(0);
  const { packages, items, media } = hot.cold.clusterKeys(shed);
  const links = [...shed.map((id) => `return:${id}`), ...packages.map((id) => `return_package:${id}`)];
  const deletes: Array<[string, unknown[]]> = [
    ['returns', shed],
    ['return_packages', packages],
    ['package_line_items', items],
    ['media_files', media],
    ['upstream_links', links],
    // Slots of a shed cluster (a backlog while no upstream is set) stay on disk, keyed like its links.
    ['outbox', links],
  ];
  for (const id of shed) hot.present.delete(id);
  await Promise.all(deletes.filter(([, keys]) => keys.length > 0).map(([table, keys]) => core.table(table).mutate({ type: 'delete', trans, keys })));
  return finish(shed.length);
}
