import type { ChangeLogEntry, ChangeResource, BoundTables } from '../store/index.ts';
import { markChanged } from './outbox.ts';

/**
 * Who made a change: the station (a person or a local integration), sync applying the upstream's, or
 * a fact of this station alone (a unit's label made or withdrawn): told to those following its
 * events, never sent upstream.
 */
export type ChangeOrigin = 'local' | 'upstream' | 'station';

/**
 * Appends to the change log inside the caller's write: the entry commits with the change it
 * describes. It feeds live events; a local change to a return or package also marks the record's
 * sync outbox slot in the same write, so nothing recorded can miss the upstream.
 */
export async function logChange(
  t: BoundTables,
  entry: { account_id: number | null; resource: ChangeResource; resource_id: number; action: ChangeLogEntry['action']; data: unknown; at: string },
  origin: ChangeOrigin = 'local',
): Promise<void> {
  const logged = t.change_log.add({
    account_id: entry.account_id,
    resource: entry.resource,
    resource_id: entry.resource_id,
    action: entry.action,
    data: entry.data,
    created_at: entry.at,
  });
  if (origin === 'local' && entry.account_id !== null && (entry.resource === 'return' || entry.resource === 'return_package')) {
    // Both requests are queued at once (the engine runs them in order): one wait instead of two.
    await Promise.all([logged, markChanged(t, entry.resource, entry.resource_id, entry.account_id, entry.at, entry.action === 'created')]);
  } else {
    await logged;
  }
}
