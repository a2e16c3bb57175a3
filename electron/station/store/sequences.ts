import type { BoundTables } from './bound-tables.ts';

/** Sequences that are not a table's auto-increment key (embedded records with their own ids). */
export type SequenceName = 'return_line_items';

/**
 * Hands out `count` new ids of a sequence kept in station_meta. Call it inside a store write that
 * includes `station_meta`: the counter moves in the same transaction as the records that use it.
 */
export async function allocateIds(t: BoundTables, sequence: SequenceName, count: number): Promise<number[]> {
  const key = `sequence:${sequence}`;
  const row = await t.station_meta.get(key);
  const last = typeof row?.value === 'number' ? row.value : 0;
  await t.station_meta.put({ key, value: last + count });
  return Array.from({ length: count }, (_unused, index) => last + 1 + index);
}
