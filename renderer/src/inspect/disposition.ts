import type { ItemFacts } from '#shared/dispositions.ts';
import { type Disposition, type DispositionRuleLike, firstMatchingRule, isInspected, sameBin } from '#shared/dispositions.ts';
import type { Draft } from './drafts.ts';

/*
 * Where each unit goes next, on the dock's screen: the station's rules (shared/dispositions.ts, the
 * same first-match evaluation the station runs) applied to the drafts the moment a condition or the
 * defective flag changes, so the disposition and bin show at once, offline too; the station applies
 * the same rules when the change reaches it. A person's override stays until they take it back.
 */

export interface DispositionFacts {
  rules: readonly DispositionRuleLike[];
  reasonOfReturn: string | null;
  packageStatus: ItemFacts['package_status'];
  /** The SKU the rules read: the item's own, else its return line's. */
  skuOf(draft: Draft): string | null;
}

/** One draft after the rules: unchanged (the same object) when its answer did not change. */
export function withRules(draft: Draft, facts: DispositionFacts): Draft {
  if (draft.disposition_source === 'override') return draft;
  const match = firstMatchingRule(facts.rules, {
    condition: draft.condition,
    defective: draft.defective,
    reason_of_return: facts.reasonOfReturn,
    merchant_sku: facts.skuOf(draft),
    package_status: facts.packageStatus,
  });
  const disposition = match?.rule.disposition ?? null;
  const bin = match?.rule.bin ?? null;
  if (disposition === draft.disposition && bin === draft.bin && draft.disposition_source === (match ? 'rule' : null)) return draft;
  // A new bin needs a new put.
  const put = draft.put_confirmed && bin !== null && draft.bin !== null && sameBin(bin, draft.bin);
  return { ...draft, disposition, bin, disposition_source: match ? 'rule' : null, put_confirmed: put };
}

/** Every draft after the rules; the same array when none changed. */
export function applyRules(drafts: readonly Draft[], facts: DispositionFacts): Draft[] {
  let changed = false;
  const next = drafts.map((draft) => {
    const after = withRules(draft, facts);
    if (after !== draft) changed = true;
    return after;
  });
  return changed ? next : (drafts as Draft[]);
}

/** A person's override: this disposition (its bin: the first rule's for it, else the item's own), who and why. */
export function overridden(draft: Draft, disposition: Disposition, rules: readonly DispositionRuleLike[], by: number | null, reason: string): Draft {
  const bin = (draft.disposition === disposition ? draft.bin : null) ?? rules.find((rule) => rule.disposition === disposition)?.bin ?? null;
  const put = draft.put_confirmed && bin !== null && draft.bin !== null && sameBin(bin, draft.bin);
  return { ...draft, disposition, bin, disposition_source: 'override', put_confirmed: put, override: { by, reason } };
}

/** The bins the dock may see scanned: every rule's and every unit's here. */
export function knownBin(code: string, rules: readonly DispositionRuleLike[], drafts: readonly Draft[]): boolean {
  return rules.some((rule) => sameBin(rule.bin, code)) || drafts.some((d) => d.bin !== null && sameBin(d.bin, code));
}

/**
 * Inspected units the rules gave no disposition (a package is received only when every one has one);
 * a unit only scanned receives as the station's setting for conditions not set says.
 */
export function withoutDisposition(drafts: readonly Draft[]): Draft[] {
  return drafts.filter((d) => d.quantity > 0 && d.disposition === null && isInspected(d));
}
