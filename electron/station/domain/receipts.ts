import { deriveReturnStatus } from '#shared/api/returns.ts';
import type { ReturnRecord, BoundTables } from '../store/index.ts';
import { logChange } from './change-log.ts';
import { advance } from './clock.ts';

/**
 * Recounts a return's lines from the packages received against it (docs/api-reference.md, Manual returns), inside the
 * caller's write: `unreceived_quantity = unreceived at create − quantity recorded on that line in
 * received packages`, floored at 0, and the derived status. Logs `return.updated` when it changed.
 */
export async function recountReturn(t: BoundTables, returnId: number, now: string): Promise<ReturnRecord | undefined> {
  const record = await t.returns.get(returnId);
  if (!record) return undefined;
  const received = new Map<number, number>();
  const packages = await t.return_packages.ofReturn(returnId);
  for (const pkg of packages) {
    if (pkg.status !== 'received') continue;
    const items = await t.package_line_items.ofPackage(pkg.id);
    for (const item of items) {
      if (item.return_line_item_id === null) continue;
      received.set(item.return_line_item_id, (received.get(item.return_line_item_id) ?? 0) + item.quantity);
    }
  }
  const lines = record.return_line_items.map((line) => ({
    ...line,
    unreceived_quantity: Math.max(0, line.unreceived_quantity_at_create - (received.get(line.id) ?? 0)),
  }));
  const status = deriveReturnStatus(lines);
  const changed = status !== record.status || lines.some((line, i) => line.unreceived_quantity !== record.return_line_items[i]?.unreceived_quantity);
  if (!changed) return record;
  const updated: ReturnRecord = { ...record, return_line_items: lines, status, updated_at: advance(record.updated_at, now) };
  await t.returns.put(updated);
  await logChange(t, { account_id: record.account_id, resource: 'return', resource_id: record.id, action: 'updated', data: updated, at: now });
  return updated;
}
