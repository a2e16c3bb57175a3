import type { Transaction } from 'dexie';
import { STATION_TABLES, type StationDexie, type StationTableName } from './schema.ts';

/** The station's tables, as the engine or as one transaction sees them. */
export type StationTables = Pick<StationDexie, StationTableName>;

/**
 * The tables bound to one transaction. Dexie otherwise finds the running transaction through its
 * async "zone", which a plain native `await` (of a helper that did no IndexedDB work) can lose —
 * the next operation then silently runs in a transaction of its own. Bound tables cannot stray.
 */
export function boundTables(tx: Transaction): StationTables {
  const tables = {} as Record<StationTableName, unknown>;
  for (const name of STATION_TABLES) tables[name] = tx.table(name);
  return tables as StationTables;
}
