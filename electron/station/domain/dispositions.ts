import { DispositionRulesSchema, type DispositionRules, type DispositionRulesUpdate } from '#shared/api/disposition-rules.ts';
import type { PackageLineItemUpdate, SiteUnit } from '#shared/api/line-items.ts';
import {
  DEFAULT_DISPOSITION_RULES,
  DEFAULT_DISPOSITION_STYLES,
  MAX_BIN_LENGTH,
  firstMatchingRule,
  isInspected,
  sameBin,
  withStationTags,
  type Disposition,
} from '#shared/dispositions.ts';
import { MAX_TAGS } from '#shared/api/line-items.ts';
import { fail } from '../errors.ts';
import type { BoundTables, PackageLineItem, ReadTables, ReturnPackage } from '../store/index.ts';
import { logChange } from './change-log.ts';
import { advance } from './clock.ts';
import { stationInstanceId, unitIdPrefix } from './station-instance.ts';
import { checkOperator } from './references.ts';

/*
 * Dispositions at the station (docs/api-reference.md, Dispositions): the rule table kept
 * with the station settings, applied to an item when it is recorded or its condition (or another
 * fact a rule looks at) changes; a person's override; the put to the bin; and the receive rule.
 */

/** One `station_meta` row beside the station settings (domain/station-settings.ts). */
const RULES_KEY = 'station.disposition_rules';
/** The change log's `station_settings` resource: 1 is the settings, 2 the disposition rules. */
const RULES_RESOURCE_ID = 2;

export const DEFAULT_DISPOSITION_TABLE: DispositionRules = {
  dispositions: DEFAULT_DISPOSITION_STYLES,
  rules: DEFAULT_DISPOSITION_RULES.map((rule) => ({ ...rule, condition: rule.condition ? [...rule.condition] : null })),
  updated_at: null,
};

/** Parsed rows by the stored value (a frozen engine record is the same object until it changes). */
const parsedRows = new WeakMap<object, DispositionRules>();

function parseRow(value: unknown): DispositionRules {
  if (typeof value !== 'object' || value === null) return DEFAULT_DISPOSITION_TABLE;
  const known = parsedRows.get(value);
  if (known) return known;
  const parsed = DispositionRulesSchema.safeParse(value);
  const table = parsed.success ? parsed.data : DEFAULT_DISPOSITION_TABLE;
  parsedRows.set(value, table);
  return table;
}

/** The rules as any read or write sees them; the defaults when never set (or unreadable). */
export async function dispositionRulesIn(t: Pick<ReadTables, 'station_meta'>): Promise<DispositionRules> {
  return parseRow((await t.station_meta.get(RULES_KEY))?.value);
}

/** Inside a write: from the engine's memory without a request when it can. */
async function rulesInWrite(t: BoundTables): Promise<DispositionRules> {
  const peeked = t.peek('station_meta', RULES_KEY);
  if (peeked) return parseRow(peeked.value);
  return dispositionRulesIn(t);
}

/** Replaces the rule table (and the names and colours when given); logged like a settings change. */
export async function replaceDispositionRules(t: BoundTables, now: string, update: DispositionRulesUpdate): Promise<DispositionRules> {
  const before = await dispositionRulesIn(t);
  const candidate: DispositionRules = {
    dispositions: update.dispositions ?? before.dispositions,
    rules: update.rules.map((rule) => ({ ...rule })),
    updated_at: null,
  };
  if (JSON.stringify(candidate) === JSON.stringify({ ...before, updated_at: null })) return before;
  const next: DispositionRules = { ...candidate, updated_at: before.updated_at === null ? now : advance(before.updated_at, now) };
  await t.station_meta.put({ key: RULES_KEY, value: next });
  await logChange(t, { account_id: null, resource: 'station_settings', resource_id: RULES_RESOURCE_ID, action: 'updated', data: next, at: now });
  return next;
}

/** The facts of an item the rules look at (besides its own fields) which a change may touch. */
const RULE_FACTS = ['condition', 'defective', 'merchant_sku', 'return_line_item_id'] as const;

/** Whether a line item PATCH changes what the rules look at. */
export function touchesRuleFacts(patch: PackageLineItemUpdate): boolean {
  return RULE_FACTS.some((field) => patch[field] !== undefined);
}

async function reasonOfReturn(t: BoundTables, pkg: Readonly<ReturnPackage>): Promise<string | null> {
  const ret = t.peek('returns', pkg.return_id) ?? (await t.returns.get(pkg.return_id));
  return ret?.reason_of_return ?? null;
}

type DispositionFields = Pick<
  PackageLineItem,
  'disposition' | 'bin' | 'unit_id' | 'disposition_source' | 'disposition_override' | 'put_confirmed_at' | 'put_by' | 'tags'
>;

/** The unit id, given once: with the item's first disposition. */
async function unitIdFor(t: BoundTables, item: Pick<PackageLineItem, 'id' | 'unit_id' | 'tags'>): Promise<string> {
  if (item.unit_id) return item.unit_id;
  // A unit that arrives with its id (another station's item synced here: its `unit:` tag) keeps it,
  // so its label scans to the same unit everywhere.
  const arrived = item.tags.find((tag) => ARRIVED_UNIT.test(tag));
  if (arrived) return arrived.slice('unit:'.length);
  return `${unitIdPrefix(await stationInstanceId(t))}${item.id}`;
}

/** A unit id as a station makes them (`RS-` + 8 of its instance id + `-` + the item's id), in a tag. */
const ARRIVED_UNIT = /^unit:RS-[A-Z0-9]{8}-[1-9][0-9]{0,15}$/;

/** The fields that follow from a disposition and bin: the unit id, the put (cleared by a new bin) and the station's tags. */
async function settle(
  t: BoundTables,
  item: PackageLineItem,
  disposition: Disposition | null,
  bin: string | null,
  source: 'rule' | 'override' | null,
  override: PackageLineItem['disposition_override'],
): Promise<DispositionFields> {
  const unitId = disposition === null ? (item.unit_id ?? null) : await unitIdFor(t, item);
  const sameBinAsBefore = bin !== null && (item.bin ?? null) !== null && bin === item.bin;
  const fields: DispositionFields = {
    disposition,
    bin,
    unit_id: unitId,
    disposition_source: disposition === null ? null : source,
    disposition_override: override ?? null,
    put_confirmed_at: sameBinAsBefore ? (item.put_confirmed_at ?? null) : null,
    put_by: sameBinAsBefore ? (item.put_by ?? null) : null,
    tags: withStationTags(item.tags, { disposition, bin, unit_id: unitId }),
  };
  if (fields.tags.length > MAX_TAGS) {
    const message = `At most ${MAX_TAGS} tags, the station's disposition:, bin: and unit: tags included (${fields.tags.length} with them).`;
    throw fail('VALIDATION_FAILED', `tags: ${message}`, { fields: [{ path: 'tags', message }] });
  }
  return fields;
}

/** The rules' answer for an item now (its package's status and its return's reason as they are). */
async function byRules(t: BoundTables, pkg: Readonly<ReturnPackage>, item: PackageLineItem): Promise<{ disposition: Disposition; bin: string } | null> {
  const table = await rulesInWrite(t);
  const match = firstMatchingRule(table.rules, {
    condition: item.condition,
    defective: item.defective,
    merchant_sku: item.merchant_sku,
    reason_of_return: await reasonOfReturn(t, pkg),
    package_status: pkg.status,
  });
  return match ? { disposition: match.rule.disposition, bin: match.rule.bin } : null;
}

/**
 * An item after the rules were applied to it (a new item, or one whose facts changed): its
 * disposition and bin unless a person overrode them, its unit id, its tags. The station's tags in
 * `item.tags` are replaced either way (a client echoing the tags it was given, or sending others).
 */
export async function applyRules(t: BoundTables, pkg: Readonly<ReturnPackage>, item: PackageLineItem, factsChanged: boolean): Promise<PackageLineItem> {
  if (item.disposition_source === 'override' || !factsChanged) {
    return {
      ...item,
      ...(await settle(t, item, item.disposition ?? null, item.bin ?? null, item.disposition_source ?? null, item.disposition_override ?? null)),
    };
  }
  const answer = await byRules(t, pkg, item);
  return { ...item, ...(await settle(t, item, answer?.disposition ?? null, answer?.bin ?? null, answer ? 'rule' : null, null)) };
}

/**
 * A unit's decision as the site's station that made it recorded it (`site_unit`): taken as given,
 * without this station's rules — one unit has one disposition and bin on every station of a site.
 */
export function applyRecorded(item: PackageLineItem, recorded: SiteUnit): PackageLineItem {
  const unitId = recorded.unit_id ?? item.unit_id ?? null;
  const samePut = recorded.put_confirmed_at !== null && recorded.put_confirmed_at === (item.put_confirmed_at ?? null);
  const fields: DispositionFields = {
    disposition: recorded.disposition,
    bin: recorded.bin,
    unit_id: unitId,
    disposition_source: recorded.disposition === null ? null : recorded.disposition_source,
    disposition_override: recorded.disposition_override
      ? { by: null, reason: recorded.disposition_override.reason, at: recorded.disposition_override.at }
      : null,
    put_confirmed_at: recorded.put_confirmed_at,
    put_by: samePut ? (item.put_by ?? null) : null,
    tags: withStationTags(item.tags, { disposition: recorded.disposition, bin: recorded.bin, unit_id: unitId }),
  };
  const conditionAt = item.condition === null ? null : (recorded.condition_at ?? item.condition_at ?? null);
  return { ...item, ...fields, condition_at: conditionAt, tags: fields.tags.slice(0, MAX_TAGS) };
}

/**
 * A person's override (`disposition` with a reason), or back to the rules (`disposition: null`). The
 * bin defaults to the bin of the first rule with that disposition, else the item's own when the
 * disposition stays, else none.
 */
export async function applyOverride(
  t: BoundTables,
  now: string,
  pkg: Readonly<ReturnPackage>,
  item: PackageLineItem,
  patch: Pick<PackageLineItemUpdate, 'disposition' | 'bin' | 'disposition_reason' | 'disposition_by'>,
): Promise<PackageLineItem> {
  if (patch.disposition === null) {
    const answer = await byRules(t, pkg, item);
    return { ...item, ...(await settle(t, item, answer?.disposition ?? null, answer?.bin ?? null, answer ? 'rule' : null, null)) };
  }
  const disposition = patch.disposition as Disposition;
  await checkOperator(t, 'disposition_by', patch.disposition_by);
  const table = await rulesInWrite(t);
  const bin =
    patch.bin ?? (item.disposition === disposition ? (item.bin ?? null) : null) ?? table.rules.find((rule) => rule.disposition === disposition)?.bin ?? null;
  const override = { by: patch.disposition_by ?? null, reason: (patch.disposition_reason ?? '').trim(), at: now };
  return { ...item, ...(await settle(t, item, disposition, bin !== null ? bin.slice(0, MAX_BIN_LENGTH) : null, 'override', override)) };
}

/** `POST …/put`: the bin scanned matches the item's (case-insensitive) — or 409 and nothing changes. `by` put it (or null). */
export function confirmPutOf(item: PackageLineItem, scanned: string, now: string, by: number | null): PackageLineItem {
  const bin = item.bin ?? null;
  if (bin === null || !item.disposition) {
    throw fail('DISPOSITION_MISSING', `Line item ${item.id} has no disposition and bin yet: set its condition or override its disposition first.`, {
      expected_bin: null,
    });
  }
  if (!sameBin(bin, scanned)) throw fail('WRONG_BIN', `Wrong bin: ${scanned} scanned, line item ${item.id} goes to ${bin}.`, { expected_bin: bin });
  if (item.put_confirmed_at) return item;
  return { ...item, put_confirmed_at: now, put_by: by };
}

/**
 * The receive rule: every unit has a disposition before its package is received. In an `exception`
 * package every item must have one (the dock already asks for every item's condition there); elsewhere
 * an item not inspected (no condition, not defective) is received as the station's `unset_conditions`
 * setting says, so only inspected items need one. Nothing is written when refused.
 */
export function assertReceivable(pkg: Readonly<ReturnPackage>, items: ReadonlyArray<Readonly<PackageLineItem>>): void {
  const missing = items.filter((item) => !item.disposition && (pkg.status === 'exception' || isInspected(item)));
  if (missing.length === 0) return;
  const names = missing.slice(0, 5).map((item) => `${item.id}${item.merchant_sku ? ` (${item.merchant_sku})` : item.name ? ` (${item.name})` : ''}`);
  const more = missing.length > 5 ? ` and ${missing.length - 5} more` : '';
  throw fail(
    'DISPOSITION_MISSING',
    `Return package ${pkg.id} cannot be received: line item${missing.length === 1 ? '' : 's'} ${names.join(', ')}${more} ${missing.length === 1 ? 'has' : 'have'} no disposition (set the condition, or override the disposition).`,
    { line_item_ids: missing.map((item) => item.id) },
  );
}
