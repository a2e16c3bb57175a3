import type { StationDexie } from './schema.ts';

/** Sequences that are not a table's auto-increment key (embedded records with their own ids). */
export type SequenceName = 'return_line_items';

/**
 * Hands out `count` new ids of a sequence kept in station_meta. Call it inside a store write that
 * includes `station_meta`: the counter moves in the same transaction as the records that use it.
 */
export async function allocateIds(db: Pick<StationDexie, 'station_meta'>, sequence: SequenceName, count: number): Promise<number[]> {
  const key = `sequence:${sequence}`;
  const row = await db.station_meta.get(key);
  const last = typeof row?.value === 'number' ? row.value : 0;
  await db.station_meta.put({ key, value: last + count });
  return Array.from({ length: count }, (_unused, index) => last + 1 + index);
}
