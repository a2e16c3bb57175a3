import type { ManualReturnCreate } from '#shared/api/returns.ts';
import { deriveReturnStatus } from '#shared/api/returns.ts';
import { allocateIds, type ListResult, type ReturnFilters, type ReturnRecord, type BoundTables } from '../store/index.ts';
import { logChange } from './change-log.ts';
import type { DomainContext } from './context.ts';

/** The lookup key of a SKU (case-insensitive: scanners upper-case what they read). */
export function skuKey(sku: string): string {
  return sku.trim().toLowerCase();
}

/** `POST /returns`: stores a manual return with its lines, each given a station id. */
export async function createReturn(t: BoundTables, now: string, accountId: number, input: Omit<ManualReturnCreate, 'account_id'>): Promise<ReturnRecord> {
  const ids = await allocateIds(t, 'return_line_items', input.return_line_items.length);
  // A line's keys in the order sync/links/apply-upstream.ts makes them: an unchanged return then compares equal.
  const lines = input.return_line_items.map(({ quantity, unreceived_quantity, ...rest }, index) => ({
    id: ids[index] ?? 0,
    quantity,
    unreceived_quantity_at_create: unreceived_quantity,
    unreceived_quantity,
    ...rest,
  }));
  const draft: Omit<ReturnRecord, 'id'> = {
    account_id: accountId,
    status: deriveReturnStatus(lines),
    ...input,
    return_line_items: lines,
    sku_keys: [...new Set(lines.map((line) => skuKey(line.merchant_sku)))],
    created_at: now,
    updated_at: now,
  };
  const id = await t.returns.add(draft as ReturnRecord);
  const record: ReturnRecord = { ...draft, id };
  await logChange(t, { account_id: accountId, resource: 'return', resource_id: id, action: 'created', data: record, at: now });
  return record;
}

/** One page of returns, newest first: their ids, in order, and the count of every match, from SQLite's indexes. */
export function findReturns(ctx: DomainContext, filters: ReturnFilters, page: number, perPage: number): ListResult {
  return ctx.store.listIds('returns', { ...filters, page, per_page: perPage });
}
