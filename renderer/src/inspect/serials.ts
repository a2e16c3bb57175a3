import { cleanSerial, serialKey, serialRuleFor, type SerialRuleLike } from '#shared/serials.ts';
import type { ReturnRecord } from '#shared/api/returns.ts';
import type { Draft } from './drafts.ts';

/*
 * Which units of the open package need their serial, and what a scan means while one is asked for
 * (docs/decisions/serials.md). Pure functions over the drafts and the station's serial rules; the
 * scan router and the screen act on their answers.
 */

/** The unit's SKU: its own, else its return line's. */
export function skuOfDraft(draft: Draft, ret: Pick<ReturnRecord, 'return_line_items'> | null): string | null {
  return draft.merchant_sku ?? ret?.return_line_items.find((l) => l.id === draft.return_line_item_id)?.merchant_sku ?? null;
}

/** The rule that asks for this unit's serial, or null when its SKU needs none. */
export function serialRuleOf(draft: Draft, ret: Pick<ReturnRecord, 'return_line_items'> | null, rules: readonly SerialRuleLike[]): SerialRuleLike | null {
  return serialRuleFor(rules, skuOfDraft(draft, ret));
}

/** Units whose SKU needs a serial and that have none yet, in the package's order. */
export function unitsMissingSerial(drafts: readonly Draft[], ret: Pick<ReturnRecord, 'return_line_items'> | null, rules: readonly SerialRuleLike[]): Draft[] {
  return drafts.filter((d) => (d.serial ?? null) === null && serialRuleOf(d, ret, rules) !== null);
}

/** The serial the selected unit waits for: its rule, when it needs one and has none. */
export function serialAskedFor(
  selected: Draft | null,
  ret: Pick<ReturnRecord, 'return_line_items'> | null,
  rules: readonly SerialRuleLike[],
): SerialRuleLike | null {
  if (!selected || (selected.serial ?? null) !== null) return null;
  return serialRuleOf(selected, ret, rules);
}

/** The unit of this package that already has `serial` (without regard to case), or null. */
export function unitWithSerial(drafts: readonly Draft[], serial: string): Draft | null {
  const key = serialKey(serial);
  return drafts.find((d) => d.serial != null && serialKey(d.serial) === key) ?? null;
}

/** What the rule asks for, in words (the prompt). */
export function serialWanted(rule: SerialRuleLike): string {
  if (rule.kind === 'imei') return 'its IMEI (15 digits)';
  return rule.min_length === rule.max_length
    ? `its serial (${rule.min_length} characters)`
    : rule.min_length > 1
      ? `its serial (${rule.min_length}–${rule.max_length} characters)`
      : 'its serial';
}

export { cleanSerial };
