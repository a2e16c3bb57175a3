import type { PackageLineItemCreate, PackageLineItemUpdate, PutConfirmation } from '#shared/api/line-items.ts';
import { advance } from './clock.ts';
import { fail } from '../errors.ts';
import type { PackageLineItem, ReturnPackage, BoundTables, ReadTables } from '../store/index.ts';
import { packageOfAccount, touchPackage } from './packages.ts';
import { checkOperator, invalidReference } from './references.ts';
import { applyOverride, applyRecorded, applyRules, confirmPutOf, touchesRuleFacts } from './dispositions.ts';
import { labelJobOfUnit, unitIdOf } from './print-jobs.ts';
import { skuKey } from './returns.ts';
import { heldUnit } from './reviews.ts';
import { assertSerialFits, checkSerialIn, holdOnDuplicate, serialOfCreate, serialOfUpdate, type SerialSeen, withSerial } from './serials.ts';

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

/**
 * A line whose put was confirmed, or whose unit has a label job that was not cancelled (waiting, sent,
 * printed or handed to the browser), is held by that put and that label: one label and one put stand
 * for exactly this line's units. Its quantity cannot change and it cannot be removed (409), whether it
 * is a dock unit of 1 or an integrator's line of N; before its label or put it is free to change.
 */
async function refuseIfLabelledOrPut(t: BoundTables, item: PackageLineItem, change: 'quantity' | 'delete'): Promise<void> {
  const unitId = unitIdOf(item);
  const why = item.put_confirmed_at
    ? `its put into ${item.bin ?? 'its bin'} was confirmed`
    : unitId !== null && (await labelJobOfUnit(t, unitId))
      ? 'its label was made'
      : null;
  if (why === null) return;
  const name = unitId === null ? `Line item ${item.id}` : `Unit ${unitId} (line item ${item.id})`;
  const units = item.quantity === 1 ? 'this one unit' : `these ${item.quantity} units`;
  const message =
    change === 'quantity'
      ? `${name} cannot change its quantity: ${why}, and they stand for ${units}. Record other units as line items of their own.`
      : `${name} cannot be removed: ${why}, and they stand for ${units}. A label still waiting can be cancelled first (its print job).`;
  throw fail('UNIT_LABELLED_OR_PUT', message, unitId === null ? {} : { unit_id: unitId });
}

/**
 * Records an inspected item; name and SKU default to those of the return line it is received against.
 * A serial (given, or in a `serial:` tag) is checked against `seen`, what the serial index held for it.
 */
export async function createLineItem(
  t: BoundTables,
  now: string,
  accountId: number,
  packageId: number,
  input: PackageLineItemCreate,
  seen: SerialSeen | null = null,
): Promise<PackageLineItem> {
  const pkg = await packageOfAccount(t, accountId, packageId);
  const line = input.return_line_item_id === null ? undefined : await returnLine(t, pkg, input.return_line_item_id);
  // Who set the condition and a site's recorded decision are not kept as given: the fields below come from them.
  const { condition_by, site_unit: recorded, ...given } = input;
  await checkOperator(t, 'condition_by', condition_by);
  const draft: Omit<PackageLineItem, 'id'> = {
    account_id: accountId,
    return_package_id: pkg.id,
    ...given,
    merchant_sku: given.merchant_sku ?? line?.merchant_sku ?? null,
    name: given.name ?? line?.name ?? null,
    disposition: null,
    bin: null,
    unit_id: null,
    disposition_source: null,
    disposition_override: null,
    put_confirmed_at: null,
    put_by: null,
    ...conditionSet(given.condition, condition_by, now),
    serial_check: null,
    created_at: now,
    updated_at: now,
  };
  const id = await t.package_line_items.add(draft as PackageLineItem);
  // The unit id carries the item's id: the rules are applied once the id is known, in the same write.
  await assertSerialFits(t, draft, input.serial);
  const serialed = withSerial({ ...draft, id } as PackageLineItem, serialOfCreate(input));
  const decided = recorded ? applyRecorded(serialed, recorded) : await applyRules(t, pkg, serialed, true);
  // A unit received on a package held for review waits in quarantine with the others.
  const held = recorded ? decided : await heldUnit(t, now, pkg, decided, condition_by ?? null);
  const item = await checkSerialIn(t, now, held, null, seen);
  await t.package_line_items.put(item);
  await touchPackage(t, pkg, now, true, 1);
  // A serial another unit has holds the package for review (a site's recorded unit was held where it was received).
  return recorded ? item : holdOnDuplicate(t, now, item, null, condition_by ?? null);
}

/** Who set a condition and when; both null for an unset condition. */
function conditionSet(
  condition: PackageLineItem['condition'],
  by: number | null | undefined,
  now: string,
): Pick<PackageLineItem, 'condition_by' | 'condition_at'> {
  return condition === null ? { condition_by: null, condition_at: null } : { condition_by: by ?? null, condition_at: now };
}

export async function updateLineItem(
  t: BoundTables,
  now: string,
  accountId: number,
  packageId: number,
  id: number,
  patch: PackageLineItemUpdate,
  seen: SerialSeen | null = null,
): Promise<PackageLineItem> {
  const pkg = await packageOfAccount(t, accountId, packageId);
  const item = await lineItemOfPackage(t, pkg, id);
  const { disposition, bin, disposition_reason, disposition_by, condition_by, site_unit: recorded, ...fields } = patch;
  if (fields.return_line_item_id != null) await returnLine(t, pkg, fields.return_line_item_id);
  await checkOperator(t, 'condition_by', condition_by);
  if (fields.quantity !== undefined && fields.quantity !== item.quantity) await refuseIfLabelledOrPut(t, item, 'quantity');
  let next: PackageLineItem = { ...item, ...fields };
  // The serial and its tag stay in step: a body's serial, else its tags' serial tag, else the item's own.
  if (fields.serial !== undefined && fields.serial !== item.serial) await assertSerialFits(t, next, fields.serial);
  const serial = serialOfUpdate(fields);
  if (serial !== undefined || fields.tags !== undefined) next = withSerial(next, serial === undefined ? (item.serial ?? null) : serial);
  // Who set the condition, and when: recorded when it changes (the same condition again keeps the first).
  if (fields.condition !== undefined && fields.condition !== item.condition) next = { ...next, ...conditionSet(fields.condition, condition_by, now) };
  if (recorded) next = applyRecorded(next, recorded);
  else next = await applyRules(t, pkg, next, touchesRuleFacts(fields));
  if (disposition !== undefined) next = await applyOverride(t, now, pkg, next, { disposition, bin, disposition_reason, disposition_by });
  next = await checkSerialIn(t, now, next, item, seen);
  if (JSON.stringify(next) === JSON.stringify(item)) return item;
  next.updated_at = advance(item.updated_at, now);
  await t.package_line_items.put(next);
  await touchPackage(t, pkg, now, true);
  return recorded ? next : holdOnDuplicate(t, now, next, item, condition_by ?? null);
}

/** The put of a unit into its bin, confirmed by the bin's scanned code; a wrong bin changes nothing (409). */
export async function confirmPut(
  t: BoundTables,
  now: string,
  accountId: number,
  packageId: number,
  id: number,
  body: PutConfirmation,
): Promise<PackageLineItem> {
  const pkg = await packageOfAccount(t, accountId, packageId);
  const item = await lineItemOfPackage(t, pkg, id);
  await checkOperator(t, 'put_by', body.put_by);
  const next = confirmPutOf(item, body.bin, now, body.put_by ?? null);
  if (next === item) return item;
  next.updated_at = advance(item.updated_at, now);
  await t.package_line_items.put(next);
  await touchPackage(t, pkg, now, false);
  return next;
}

export async function deleteLineItem(t: BoundTables, now: string, accountId: number, packageId: number, id: number): Promise<void> {
  const pkg = await packageOfAccount(t, accountId, packageId);
  const item = await lineItemOfPackage(t, pkg, id);
  await refuseIfLabelledOrPut(t, item, 'delete');
  await t.package_line_items.delete(id);
  await touchPackage(t, pkg, now, true, -1);
}

export async function lineItemsOf(tables: ReadTables, packageId: number): Promise<PackageLineItem[]> {
  // An index lists equal keys in primary-key order: the items come back in id order.
  return tables.package_line_items.ofPackage(packageId);
}

/**
 * A package found to belong to another return (a parcel the upstream already had under its own return,
 * adopted by tracking number): its items are received against that return's lines, by SKU; an item
 * whose SKU that return does not list becomes an unexpected item. Without it an item kept a line of
 * the return the package left, which the new return does not have.
 */
export async function rehomeLineItems(t: BoundTables, pkg: ReturnPackage, fromReturnId: number, now: string): Promise<void> {
  const [from, to] = await Promise.all([t.returns.get(fromReturnId), t.returns.get(pkg.return_id)]);
  const skuOfLine = new Map((from?.return_line_items ?? []).map((line) => [line.id, skuKey(line.merchant_sku)]));
  const lineOfSku = new Map<string, number>();
  for (const line of to?.return_line_items ?? []) if (!lineOfSku.has(skuKey(line.merchant_sku))) lineOfSku.set(skuKey(line.merchant_sku), line.id);
  for (const item of await lineItemsOf(t, pkg.id)) {
    if (item.return_line_item_id === null) continue;
    const sku = skuOfLine.get(item.return_line_item_id) ?? (item.merchant_sku === null ? undefined : skuKey(item.merchant_sku));
    const line = sku === undefined ? null : (lineOfSku.get(sku) ?? null);
    if (line === item.return_line_item_id) continue;
    await t.package_line_items.put({ ...item, return_line_item_id: line, updated_at: advance(item.updated_at, now) });
  }
}
