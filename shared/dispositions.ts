import { PACKAGE_STATUSES } from './package-status.ts';

/*
 * Where an inspected unit goes next: the station's dispositions, its ordered rule table
 * and what a rule set must be to be saved. Pure functions over plain values, shared by the station
 * (which evaluates the rules when an item is recorded or its condition changes) and the UI (which
 * may show the same answer before the station confirms it). docs/operator-guide.md, Dispositions.
 */

/** The station's dispositions; a station may rename and colour each, never add or remove one. */
export const DISPOSITIONS = ['restock', 'refurbish', 'return_to_vendor', 'liquidate', 'quarantine', 'dispose'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

/** Item conditions (grades): `new` unopened, `like_new` A, `good` B, `fair` C, `damaged` D, `unsellable`. */
export const CONDITIONS = ['new', 'like_new', 'good', 'fair', 'damaged', 'unsellable'] as const;
export type ItemCondition = (typeof CONDITIONS)[number];

/** How an item got its disposition: the first matching rule, or a person's override. */
export const DISPOSITION_SOURCES = ['rule', 'override'] as const;
export type DispositionSource = (typeof DISPOSITION_SOURCES)[number];

/** A bin or tote code: 1–20 visible ASCII characters, no spaces (it is printed and scanned). */
export const MAX_BIN_LENGTH = 20;
export const BIN_PATTERN = '^[\\x21-\\x7E]{1,20}$';
/** Bins compare without regard to case: a scanned `a-12` confirms bin `A-12`. */
export const sameBin = (a: string, b: string): boolean => a.toUpperCase() === b.toUpperCase();

export interface DispositionStyle {
  label: string;
  /** `#rrggbb`. */
  color: string;
}
export type DispositionStyles = Record<Disposition, DispositionStyle>;

export const DEFAULT_DISPOSITION_STYLES: DispositionStyles = {
  restock: { label: 'Restock', color: '#2e7d32' },
  refurbish: { label: 'Refurbish', color: '#1565c0' },
  return_to_vendor: { label: 'Return to vendor', color: '#6a1b9a' },
  liquidate: { label: 'Liquidate', color: '#ef6c00' },
  quarantine: { label: 'Quarantine', color: '#f9a825' },
  dispose: { label: 'Dispose', color: '#c62828' },
};

/** A rule's conditions; null: any value. */
export interface RuleConditions {
  /** The item's condition is one of these; an item with no condition matches only null (any). */
  condition: readonly ItemCondition[] | null;
  defective: boolean | null;
  /** The return's `reason_of_return` contains this text, case-insensitive. */
  reason_contains: string | null;
  /** The item's SKU starts with this, case-insensitive; an item with no SKU matches only null. */
  sku_prefix: string | null;
  /** The package's status (when the rule is applied) is one of these. */
  package_status: readonly (typeof PACKAGE_STATUSES)[number][] | null;
}

export interface DispositionRuleLike extends RuleConditions {
  disposition: Disposition;
  bin: string;
}

/** What the rules look at: the item, its return and its package as the item is recorded or changed. */
export interface ItemFacts {
  condition: ItemCondition | null;
  defective: boolean;
  reason_of_return: string | null;
  merchant_sku: string | null;
  package_status: (typeof PACKAGE_STATUSES)[number];
}

const lower = (text: string): string => text.toLowerCase();

export function ruleMatches(rule: RuleConditions, facts: ItemFacts): boolean {
  if (rule.condition !== null && (facts.condition === null || !rule.condition.includes(facts.condition))) return false;
  if (rule.defective !== null && rule.defective !== facts.defective) return false;
  if (rule.reason_contains !== null && (facts.reason_of_return === null || !lower(facts.reason_of_return).includes(lower(rule.reason_contains)))) return false;
  if (rule.sku_prefix !== null && (facts.merchant_sku === null || !lower(facts.merchant_sku).startsWith(lower(rule.sku_prefix)))) return false;
  if (rule.package_status !== null && !rule.package_status.includes(facts.package_status)) return false;
  return true;
}

/**
 * Whether the rules apply to an item yet: once it has been inspected — it has a condition, or it is
 * marked defective. An item only scanned has no disposition (and receives as the station's
 * `unset_conditions` setting says).
 */
export const isInspected = (facts: Pick<ItemFacts, 'condition' | 'defective'>): boolean => facts.condition !== null || facts.defective;

/** The first rule that matches an inspected item (first match wins), with its index; null when none does or the item is not inspected. */
export function firstMatchingRule<R extends DispositionRuleLike>(rules: readonly R[], facts: ItemFacts): { index: number; rule: R } | null {
  if (!isInspected(facts)) return null;
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index];
    if (rule && ruleMatches(rule, facts)) return { index, rule };
  }
  return null;
}

/**
 * Whether `earlier`'s text conditions hold for every text `later`'s hold for: any reason containing
 * `later`'s text contains `earlier`'s when `earlier`'s is a part of it; a SKU starting with `later`'s
 * prefix starts with `earlier`'s when `earlier`'s is a prefix of it. A condition left out (null) holds
 * for every text, and is covered only by another left out.
 */
function textCovers(earlier: RuleConditions, later: RuleConditions): boolean {
  const reason = earlier.reason_contains === null || (later.reason_contains !== null && lower(later.reason_contains).includes(lower(earlier.reason_contains)));
  const sku = earlier.sku_prefix === null || (later.sku_prefix !== null && lower(later.sku_prefix).startsWith(lower(earlier.sku_prefix)));
  return reason && sku;
}

const CONDITION_CELLS: readonly (ItemCondition | null)[] = [...CONDITIONS, null];

/** Every (condition, defective, package status) of an inspected item a rule accepts. */
function cellsOf(rule: RuleConditions): string[] {
  const cells: string[] = [];
  for (const condition of rule.condition ?? CONDITION_CELLS) {
    for (const defective of rule.defective === null ? [false, true] : [rule.defective]) {
      if (!isInspected({ condition, defective })) continue;
      for (const status of rule.package_status ?? PACKAGE_STATUSES) cells.push(`${condition}|${defective}|${status}`);
    }
  }
  return cells;
}

const sameConditions = (a: RuleConditions, b: RuleConditions): boolean => {
  const norm = (r: RuleConditions) =>
    JSON.stringify([
      r.condition ? [...r.condition].sort() : null,
      r.defective,
      r.reason_contains === null ? null : lower(r.reason_contains),
      r.sku_prefix === null ? null : lower(r.sku_prefix),
      r.package_status ? [...r.package_status].sort() : null,
    ]);
  return norm(a) === norm(b);
};

/**
 * The rules that can never apply because earlier rules match every item they would (first match
 * wins), each with why. Exact: for each (condition, defective, package status) a rule accepts, some
 * earlier rule must accept it with text conditions that hold wherever the rule's hold — the item
 * whose reason is exactly the rule's text and whose SKU is exactly its prefix is matched by an
 * earlier rule only if that rule's text is a part of it, so a union of earlier rules covers a rule
 * only when, cell by cell, one of them does.
 */
export function unreachableRules(rules: readonly RuleConditions[]): Array<{ index: number; message: string }> {
  const found: Array<{ index: number; message: string }> = [];
  rules.forEach((rule, index) => {
    const twin = rules.findIndex((earlier, i) => i < index && sameConditions(earlier, rule));
    if (twin >= 0) {
      found.push({ index, message: `Duplicate: rules[${twin}] has the same conditions, so this rule never applies (first match wins).` });
      return;
    }
    const cells = cellsOf(rule);
    const coveredBy = new Set<number>();
    const covered = cells.every((cell) => {
      const i = rules.findIndex((earlier, j) => j < index && textCovers(earlier, rule) && cellsOf(earlier).includes(cell));
      if (i >= 0) coveredBy.add(i);
      return i >= 0;
    });
    if (covered) {
      const by = [...coveredBy]
        .sort((a, b) => a - b)
        .map((i) => `rules[${i}]`)
        .join(', ');
      found.push({
        index,
        message: `Never applies: ${by} before it ${coveredBy.size === 1 ? 'matches' : 'match'} every item it would (first match wins). Move it up or narrow the rules before it.`,
      });
    }
  });
  return found;
}

/** The tags the station keeps on an item for its disposition, bin and unit (replaced, never added twice). */
export const STATION_TAG_PREFIXES = ['disposition:', 'bin:', 'unit:'] as const;
export const isStationTag = (tag: string): boolean => STATION_TAG_PREFIXES.some((prefix) => tag.startsWith(prefix));

/** `tags` without the station's own, then the station's for this disposition, bin and unit. */
export function withStationTags(tags: readonly string[], item: { disposition: Disposition | null; bin: string | null; unit_id: string | null }): string[] {
  const own = tags.filter((tag) => !isStationTag(tag));
  if (item.disposition !== null) own.push(`disposition:${item.disposition}`);
  if (item.bin !== null) own.push(`bin:${item.bin}`);
  if (item.unit_id !== null) own.push(`unit:${item.unit_id}`);
  return own;
}

type DefaultRule = Omit<DispositionRuleLike, 'condition' | 'package_status'> & { condition: ItemCondition[] | null; package_status: null; name: string };
const rule = (name: string, when: Partial<Pick<DefaultRule, 'condition' | 'defective'>>, disposition: Disposition, bin: string): DefaultRule => ({
  name,
  condition: when.condition ?? null,
  defective: when.defective ?? null,
  reason_contains: null,
  sku_prefix: null,
  package_status: null,
  disposition,
  bin,
});

/**
 * Out of the box: every inspected item has a disposition. They leave nothing for a last catch-all
 * (a rule with no conditions after them would never apply, and is refused), so a station that adds
 * narrower rules puts them first; `quarantine` is for those (a recall, a reason to look again) and
 * for overrides.
 */
export const DEFAULT_DISPOSITION_RULES: readonly DefaultRule[] = [
  rule('As new, working', { condition: ['new', 'like_new'], defective: false }, 'restock', 'RESTOCK'),
  rule('Defective', { defective: true }, 'return_to_vendor', 'RTV'),
  rule('Unsellable', { condition: ['unsellable'] }, 'dispose', 'DISPOSE'),
  rule('Damaged', { condition: ['damaged'] }, 'liquidate', 'LIQUIDATE'),
  rule('Used, working', { condition: ['good', 'fair'] }, 'refurbish', 'REFURB'),
];
