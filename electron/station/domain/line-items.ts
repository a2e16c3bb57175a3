import type { PackageLineItemCreate, PackageLineItemUpdate } from '#shared/api/line-items.ts';
import { advance } from './clock.ts';
import { fail } from '../errors.ts';
import type { PackageLineItem, ReturnPackage, BoundTables, ReadTables } from '../store/index.ts';
import { packageOfAccount, touchPackage } from './packages.ts';
import { invalidReference } from './references.ts';

async function returnLine(t: BoundTables, pkg: ReturnPackage, returnLineItemId: number) {
  const ret = await t.returns.get(pkg.return_id);
  const line = ret?.return_line_items.find((candidate) => candidate.id === returnLineItemId);
  if (!line) throw invalidReference('return_line_item_id', `Return ${pkg.return_id} has no line ${returnLineItemId}.`);
  return line;
}

async function lineItemOfPackage(t: BoundTables, pkg: ReturnPackage, id: number): Promise<PackageLineItem> {
  const item = await t.package_line_items.get(id);
  if (!item || item.return_package_id !== pkg.id) throw fail('NOT_FOUND', `Return package ${pkg.id} has no line item ${id}.`);
  return item;
}

/** Records an inspected item; name and SKU default to those of the return line it is received against. */
export async function createLineItem(t: BoundTables, now: string, accountId: number, packageId: number, input: PackageLineItemCreate): Promise<PackageLineItem> {
  const pkg = await packageOfAccount(t, accountId, packageId);
  const line = input.return_line_item_id === null ? undefined : await returnLine(t, pkg, input.return_line_item_id);
  const draft: Omit<PackageLineItem, 'id'> = {
    account_id: accountId,
    return_package_id: pkg.id,
    return_line_item_id: input.return_line_item_id,
    quantity: input.quantity,
    merchant_sku: input.merchant_sku ?? line?.merchant_sku ?? null,
    name: input.name ?? line?.name ?? null,
    condition: input.condition,
    defective: input.defective,
    notes: input.notes,
    barcode: input.barcode,
    tags: input.tags,
    created_at: now,
    updated_at: now,
  };
  const id = await t.package_line_items.add(draft as PackageLineItem);
  await touchPackage(t, pkg, now, true, 1);
  return { ...draft, id };
}

export async function updateLineItem(t: BoundTables, now: string, accountId: number, packageId: number, id: number, patch: PackageLineItemUpdate): Promise<PackageLineItem> {
  const pkg = await packageOfAccount(t, accountId, packageId);
  const item = await lineItemOfPackage(t, pkg, id);
  if (patch.return_line_item_id != null) await returnLine(t, pkg, patch.return_line_item_id);
  const next: PackageLineItem = { ...item, ...patch };
  if (JSON.stringify(next) === JSON.stringify(item)) return item;
  next.updated_at = advance(item.updated_at, now);
  await t.package_line_items.put(next);
  await touchPackage(t, pkg, now, true);
  return next;
}

export async function deleteLineItem(t: BoundTables, now: string, accountId: number, packageId: number, id: number): Promise<void> {
  const pkg = await packageOfAccount(t, accountId, packageId);
  await lineItemOfPackage(t, pkg, id);
  await t.package_line_items.delete(id);
  await touchPackage(t, pkg, now, true, -1);
}

export async function lineItemsOf(tables: ReadTables, packageId: number): Promise<PackageLineItem[]> {
  // An index lists equal keys in primary-key order: the items come back in id order.
  return tables.package_line_items.where('return_package_id').equals(packageId).toArray();
}
