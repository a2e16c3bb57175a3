import { serialKey, serialOfTags, serialProblem, serialRuleFor, withSerialTag } from '#shared/serials.ts';
import { fail } from '../errors.ts';
import type { BoundTables, PackageLineItem, ReturnPackage } from '../store/index.ts';
import { holdForReview } from './reviews.ts';
import { settingsIn } from './station-settings.ts';

/*
 * A unit's serial (docs/decisions/serials.md): kept in the line item's `serial` field and, for the
 * upstream, in its `serial:<value>` tag; checked against the account's other units when it is
 * recorded; and needed before a package is received when the station's serial rules say its SKU
 * needs one.
 */

/** The line items the serial index held for a serial before the write (the route asks it: SQLite, outside the write). */
export interface SerialSeen {
  serial: string;
  ids: readonly number[];
}

/** How many other units with one serial the check reads: one is a duplicate. */
export const SERIAL_SEEN_LIMIT = 20;

/** The serial a create body records: its `serial`, else the `serial:` tag of its tags (another station's unit). */
export function serialOfCreate(body: { serial?: string | null | undefined; tags?: readonly string[] | undefined }): string | null {
  return body.serial ?? serialOfTags(body.tags ?? []);
}

/** The serial an update body sets: its `serial` (null takes it off), else a `serial:` tag of its tags; undefined: it says nothing of one. */
export function serialOfUpdate(body: { serial?: string | null | undefined; tags?: readonly string[] | undefined }): string | null | undefined {
  if (body.serial !== undefined) return body.serial;
  return body.tags === undefined ? undefined : (serialOfTags(body.tags) ?? undefined);
}

/** An item's serial: its field, else its tag (an item synced from another station carries the tag alone). */
export function serialOfItem(item: { readonly serial?: string | null; readonly tags: readonly string[] }): string | null {
  return item.serial ?? serialOfTags(item.tags);
}

/** `item` with its serial tag in step with its serial (the worker's other tags kept). */
export function withSerial(item: PackageLineItem, serial: string | null): PackageLineItem {
  return { ...item, serial, tags: withSerialTag(item.tags, serial) };
}

/**
 * A serial given for a unit whose SKU a serial rule names must be of the rule's kind (an IMEI: 15
 * digits, Luhn): else 422 on `serial`, and nothing is written. A serial that arrived in a tag
 * (another station's unit) was checked where it was recorded.
 */
export async function assertSerialFits(t: BoundTables, item: Pick<PackageLineItem, 'merchant_sku'>, given: string | null | undefined): Promise<void> {
  if (given === undefined || given === null) return;
  const rule = serialRuleFor((await settingsIn(t)).serial_rules, item.merchant_sku);
  const problem = rule === null ? null : serialProblem(rule, given);
  if (problem !== null) throw fail('VALIDATION_FAILED', `serial: ${problem}`, { fields: [{ path: 'serial', message: problem }] });
}

/** Another unit of the account holding `serial`: one the index found, or one of the same package (maybe not durable yet). */
async function otherUnitWith(t: BoundTables, item: PackageLineItem, serial: string, seen: SerialSeen | null): Promise<PackageLineItem | null> {
  const key = serialKey(serial);
  const ids = new Set(seen !== null && serialKey(seen.serial) === key ? seen.ids : []);
  for (const sibling of await t.package_line_items.ofPackage(item.return_package_id)) ids.add(sibling.id);
  for (const id of [...ids].sort((a, b) => a - b)) {
    if (id === item.id) continue;
    const other = await t.package_line_items.get(id);
    if (!other || other.account_id !== item.account_id) continue;
    const theirs = serialOfItem(other);
    if (theirs !== null && serialKey(theirs) === key) return other;
  }
  return null;
}

/**
 * `item` (just made, or changed from `before`) with its serial checked when it is new or changed:
 * a serial another unit of the account has is a duplicate. The same serial again on the same unit
 * is no change, and no duplicate.
 */
export async function checkSerialIn(
  t: BoundTables,
  now: string,
  item: PackageLineItem,
  before: PackageLineItem | null,
  seen: SerialSeen | null,
): Promise<PackageLineItem> {
  const serial = item.serial ?? null;
  const had = before === null ? null : (before.serial ?? null);
  if (serial !== null && had !== null && serialKey(serial) === serialKey(had)) return { ...item, serial_check: before?.serial_check ?? null };
  if (serial === null) return { ...item, serial_check: null };
  const other = await otherUnitWith(t, item, serial, seen);
  if (other === null) {
    return { ...item, serial_check: { result: 'unique', scope: 'station', duplicate_of: null, message: `Serial ${serial}: no other unit has it.`, at: now } };
  }
  const otherPkg = await t.return_packages.get(other.return_package_id);
  const where = other.return_package_id === item.return_package_id ? 'in this parcel' : `in parcel ${otherPkg?.tracking_number ?? other.return_package_id}`;
  const unit = other.unit_id ?? `line item ${other.id}`;
  return {
    ...item,
    serial_check: {
      result: 'duplicate',
      scope: 'station',
      duplicate_of: {
        unit_id: other.unit_id ?? null,
        return_package_id: other.return_package_id,
        tracking_number: otherPkg?.tracking_number ?? null,
        line_item_id: other.id,
      },
      message: `Serial ${serial} is already recorded on unit ${unit} ${where}.`,
      at: now,
    },
  };
}

/**
 * A serial newly found on another unit holds the package for review (docs/decisions/serials.md),
 * in the write that recorded it: the finding is the check's sentence. Answers the item as it then is
 * (in quarantine with its package's other units).
 */
export async function holdOnDuplicate(
  t: BoundTables,
  now: string,
  item: PackageLineItem,
  before: PackageLineItem | null,
  operatorId: number | null,
): Promise<PackageLineItem> {
  const check = item.serial_check ?? null;
  if (check?.result !== 'duplicate' || JSON.stringify(check) === JSON.stringify(before?.serial_check ?? null)) return item;
  await holdForReview(t, item.return_package_id, { check: 'serial', text: check.message, at: now, operator_id: operatorId });
  return (await t.package_line_items.get(item.id)) ?? item;
}

/**
 * The receive rule for serials: every unit whose SKU the station's serial rules name has its serial.
 * Refused (409 SERIAL_MISSING, the items listed) before anything is written.
 */
export async function assertSerialsRecorded(t: BoundTables, pkg: Readonly<ReturnPackage>, items: ReadonlyArray<Readonly<PackageLineItem>>): Promise<void> {
  const { serial_rules: rules } = await settingsIn(t);
  if (rules.length === 0) return;
  const missing = items.filter((item) => serialOfItem(item) === null && serialRuleFor(rules, item.merchant_sku) !== null);
  if (missing.length === 0) return;
  const names = missing.slice(0, 5).map((item) => `${item.id}${item.merchant_sku ? ` (${item.merchant_sku})` : ''}`);
  const more = missing.length > 5 ? ` and ${missing.length - 5} more` : '';
  throw fail(
    'SERIAL_MISSING',
    `Return package ${pkg.id} cannot be received: line item${missing.length === 1 ? '' : 's'} ${names.join(', ')}${more} need${missing.length === 1 ? 's' : ''} ${missing.length === 1 ? 'its' : 'their'} serial (scan it after the item).`,
    { line_item_ids: missing.map((item) => item.id) },
  );
}
