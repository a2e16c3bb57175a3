import type { Condition } from '#shared/api/line-items.ts';

/** Conditions in the order of their number keys (1 = new … 6 = unsellable), with dock-floor labels. */
export const CONDITION_KEYS: readonly { condition: Condition; key: string; label: string; grade: string }[] = [
  { condition: 'new', key: '1', label: 'New', grade: 'unopened' },
  { condition: 'like_new', key: '2', label: 'Like new', grade: 'A' },
  { condition: 'good', key: '3', label: 'Good', grade: 'B' },
  { condition: 'fair', key: '4', label: 'Fair', grade: 'C' },
  { condition: 'damaged', key: '5', label: 'Damaged', grade: 'D' },
  { condition: 'unsellable', key: '6', label: 'Unsellable', grade: '' },
];

export function conditionForKey(key: string): Condition | null {
  return CONDITION_KEYS.find((c) => c.key === key)?.condition ?? null;
}

export function conditionLabel(condition: Condition | null): string {
  return CONDITION_KEYS.find((c) => c.condition === condition)?.label ?? 'Not set';
}
