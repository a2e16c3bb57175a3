import type { DBCore, DBCoreTransaction } from 'dexie';
import { engineTransactionDone } from '../durability/mutations.ts';
import type { HotSetEngine } from './middleware.ts';
import { CHANGE_LOG_TABLE, CLUSTER_TABLES, clusterHeat, pastRecentLimit, type HotSetOptions, UPSTREAM_SETTINGS_KEY, windowStart } from './rule.ts';

interface ClusterRecord {
  id: number;
  status: string;
  updated_at: string;
}

/** Dexie's DBCoreRangeType.Any: the whole table. */
const ALL = { type: 3, lower: undefined, upper: undefined } as const;

async function all<T>(core: DBCore, trans: DBCoreTransaction, table: string): Promise<T[]> {
  const target = core.table(table);
  return (await target.query({ trans, values: true, query: { index: target.schema.primaryKey, range: ALL } })).result as T[];
}

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
 * durable (`settled`), so SQLite holds each shed record's newest version; otherwise it waits for
 * the next sweep. Then the change log's entries go too: they are all in SQLite, where it is read
 * (../change-log-reads.ts). Returns how many returns' clusters were shed.
 */
export async function shedCold(hot: HotSetEngine, options: HotSetOptions, settled: () => boolean, compact?: SweepCompaction): Promise<number> {
  const core = hot.core;
  if (!core || !hot.enabled) return 0;
  const hasLog = core.schema.tables.some((table) => table.name === CHANGE_LOG_TABLE);
  const tables = [...new Set([...CLUSTER_TABLES, 'station_meta', ...(hasLog ? [CHANGE_LOG_TABLE] : []), ...(compact?.tables ?? [])])];
  const trans = core.transaction(tables, 'readwrite');
  const done = engineTransactionDone(trans, 'The hot-set sweep');
  done.catch(() => {});
  const [returns, packages, items, media, queued, upstream] = await Promise.all([
    all<ClusterRecord>(core, trans, 'returns'),
    all<ClusterRecord & { return_id: number }>(core, trans, 'return_packages'),
    all<{ id: number; return_package_id: number }>(core, trans, 'package_line_items'),
    all<{ id: number; return_package_id: number }>(core, trans, 'media_files'),
    all<{ kind: string; local_id: number }>(core, trans, 'outbox'),
    core.table('station_meta').get({ trans, key: UPSTREAM_SETTINGS_KEY }),
  ]);
  // Without an upstream nothing is sent: the outbox is a backlog for a later upstream, not work at hand.
  const outbox = upstream === undefined ? [] : queued;
  const since = windowStart(options);
  const packagesOf = new Map<number, Array<ClusterRecord & { return_id: number }>>();
  for (const pkg of packages) packagesOf.set(pkg.return_id, [...(packagesOf.get(pkg.return_id) ?? []), pkg]);
  const unsentReturns = new Set(outbox.filter((entry) => entry.kind === 'return').map((entry) => entry.local_id));
  const unsentPackages = new Set(outbox.filter((entry) => entry.kind === 'return_package').map((entry) => entry.local_id));
  const returnIds = new Set([...returns.map((ret) => ret.id), ...packagesOf.keys()]);
  const byId = new Map(returns.map((ret) => [ret.id, ret]));
  const shed = new Set<number>();
  const recent: Array<{ id: number; changedAt: string }> = [];
  for (const id of returnIds) {
    const own = packagesOf.get(id) ?? [];
    const unsent = unsentReturns.has(id) || own.some((pkg) => unsentPackages.has(pkg.id));
    const heat = clusterHeat(byId.get(id), own, unsent, since);
    if (heat.kind === 'cold') shed.add(id);
    else if (heat.kind === 'recent') recent.push({ id, changedAt: heat.changedAt });
  }
  for (const id of pastRecentLimit(recent, options.recentLimit)) shed.add(id);
  if (!settled()) {
    compact?.run();
    await done;
    return 0;
  }
  if (hasLog) await core.table(CHANGE_LOG_TABLE).mutate({ type: 'deleteRange', trans, range: ALL });
  if (shed.size === 0) {
    compact?.run();
    await done;
    return 0;
  }
  const shedPackages = new Set(packages.filter((pkg) => shed.has(pkg.return_id)).map((pkg) => pkg.id));
  const links = [...[...shed].map((id) => `return:${id}`), ...[...shedPackages].map((id) => `return_package:${id}`)];
  const deletes: Array<[string, unknown[]]> = [
    ['returns', [...shed]],
    ['return_packages', [...shedPackages]],
    ['package_line_items', items.filter((item) => shedPackages.has(item.return_package_id)).map((item) => item.id)],
    ['media_files', media.filter((file) => shedPackages.has(file.return_package_id)).map((file) => file.id)],
    ['upstream_links', links],
    // Slots of a shed cluster (a backlog while no upstream is set) stay on disk, keyed like its links.
    ['outbox', links],
  ];
  for (const id of shed) hot.present.delete(id);
  await Promise.all(deletes.filter(([, keys]) => keys.length > 0).map(([table, keys]) => core.table(table).mutate({ type: 'delete', trans, keys })));
  compact?.run();
  await done;
  return shed.size;
}
