import { randomBytes } from 'node:crypto';
import type { BoundTables } from '../store/index.ts';

/*
 * The station's instance id: random, made once per data directory, kept in `station_meta`. Sync names
 * its idempotency keys with it (sync/sync-engine.ts); unit ids carry its short form, so two stations never
 * hand out the same unit id.
 */

export const INSTANCE_KEY = 'sync.instance';

/** A new instance id (as sync has always made them: 9 random bytes, base64url). */
export function newInstanceId(): string {
  return randomBytes(9).toString('base64url');
}

/** The instance id inside a write, made (and stored in the same write) when the station has none yet. */
export async function stationInstanceId(t: BoundTables): Promise<string> {
  const row = t.peek('station_meta', INSTANCE_KEY) ?? (await t.station_meta.get(INSTANCE_KEY));
  if (typeof row?.value === 'string') return row.value;
  const id = newInstanceId();
  await t.station_meta.put({ key: INSTANCE_KEY, value: id });
  return id;
}

/** Crockford's base32: no I, L, O, U — a unit id read aloud or typed is not mistaken. */
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The station's short form: the instance id's first 40 bits as 8 base32 characters. */
export function stationShortId(instanceId: string): string {
  const bytes = Buffer.from(instanceId, 'base64url');
  let bits = 0n;
  for (let i = 0; i < 5; i++) bits = (bits << 8n) | BigInt(bytes[i] ?? 0);
  let out = '';
  for (let i = 7; i >= 0; i--) out += BASE32[Number((bits >> BigInt(i * 5)) & 31n)];
  return out;
}

/**
 * `RS-<station short id>-` and then the line item's id: unique across stations by the first part,
 * within the station by the second (line item ids are a per-station sequence, never reused), and a
 * scanned unit id names its item without an index (docs/decisions/unit-ids.md).
 */
export function unitIdPrefix(instanceId: string): string {
  return `RS-${stationShortId(instanceId)}-`;
}

/** The line item a unit id names, when it is this station's; else null. */
export function lineItemIdOfUnit(unitId: string, instanceId: string): number | null {
  const prefix = unitIdPrefix(instanceId);
  if (unitId.toUpperCase().startsWith(prefix) === false) return null;
  const rest = unitId.slice(prefix.length);
  return /^[1-9][0-9]{0,15}$/.test(rest) ? Number(rest) : null;
}
