import type { ChangeLogEntry, ChangeResource, StationTables } from '../store/index.ts';

/**
 * Appends to the change log inside the caller's write: the entry commits with the change it
 * describes. It feeds live events now and the sync outbox later.
 */
export async function logChange(
  db: StationTables,
  entry: { account_id: number | null; resource: ChangeResource; resource_id: number; action: ChangeLogEntry['action']; data: unknown; at: string },
): Promise<void> {
  await db.change_log.add({
    account_id: entry.account_id,
    resource: entry.resource,
    resource_id: entry.resource_id,
    action: entry.action,
    data: entry.data,
    created_at: entry.at,
  });
}
