import { HELD_FOR_REVIEW, MAX_FINDING_LENGTH, MAX_FINDINGS, type ReviewCheck, type ReviewFinding } from '#shared/api/reviews.ts';
import { fail } from '../errors.ts';
import type { BoundTables, PackageLineItem, ReturnPackage } from '../store/index.ts';
import { logChange } from './change-log.ts';
import { advance } from './clock.ts';
import { applyOverride, dispositionRulesIn } from './dispositions.ts';
import { checkOperator } from './references.ts';

/*
 * A package held for review (docs/operator-guide.md, The review). A failed check at the dock holds
 * it in the write that records the check: the package's `review` says why, and its units go to the
 * `quarantine` disposition as an override marked "held for review" (so they wait in the quarantine
 * bin, and a unit received later on the held package goes there too). It stays held until a
 * supervisor decides; a check that passes later releases nothing.
 */

/** What a failed check tells the hold: which check, its plain sentence, when, and who was at the dock. */
export interface HoldFinding {
  check: ReviewCheck;
  /** A plain sentence, e.g. "weighed 0.21 kg, expected 1.80 kg" (trimmed; cut at 300 characters). */
  text: string;
  /** When it was found (ISO 8601, the station's clock): the hold's time too. */
  at: string;
  /** The worker at the dock (an operator id of this station); 422 on `operator_id` when it names none. */
  operator_id?: number | null;
}

/** A held unit's bin when no rule names a quarantine bin (the default rules name none). */
export const HELD_BIN = 'QUARANTINE';

/** Whether the package waits for a supervisor's decision. */
export const isHeld = (pkg: Readonly<Pick<ReturnPackage, 'review'>>): boolean => pkg.review?.state === 'held';

/** Whether the unit is in quarantine because its package was held (not by a person's own override). */
export const isHeldUnit = (item: Readonly<PackageLineItem>): boolean =>
  item.disposition === 'quarantine' && item.disposition_source === 'override' && item.disposition_override?.reason === HELD_FOR_REVIEW;

/**
 * Holds package `packageId` for review, inside the caller's write (the one that records the failed
 * check). A package already held keeps its findings and gains this one (the same finding again is
 * kept once); one decided before is held again with this finding alone. Every unit goes to
 * quarantine marked "held for review". Answers the package as held.
 */
export async function holdForReview(t: BoundTables, packageId: number, finding: HoldFinding): Promise<ReturnPackage> {
  const pkg = t.peek('return_packages', packageId) ?? (await t.return_packages.get(packageId));
  if (!pkg) throw fail('NOT_FOUND', `No return package ${packageId}.`);
  const text = finding.text.trim().slice(0, MAX_FINDING_LENGTH);
  if (text === '') throw new Error('A finding needs its sentence.');
  const operatorId = finding.operator_id ?? null;
  await checkOperator(t, 'operator_id', operatorId);
  const at = finding.at;
  const found: ReviewFinding = { check: finding.check, text, at, operator_id: operatorId };
  const review = withFinding(pkg.review ?? null, found);
  const held: ReturnPackage = { ...pkg, review, updated_at: advance(pkg.updated_at, at) };
  for (const item of await t.package_line_items.ofPackage(pkg.id)) {
    const next = await heldUnit(t, at, held, item, operatorId);
    if (next !== item) await t.package_line_items.put({ ...next, updated_at: advance(item.updated_at, at) });
  }
  await t.return_packages.put(held);
  await logChange(t, { account_id: pkg.account_id, resource: 'return_package', resource_id: pkg.id, action: 'updated', data: held, at });
  return held;
}

type StoredReview = NonNullable<ReturnPackage['review']>;

function withFinding(review: StoredReview | null, found: ReviewFinding): StoredReview {
  if (review?.state !== 'held') {
    return { state: 'held', findings: [found], held_at: found.at, decided_by: null, decided_by_name: null, decided_at: null, reason: null };
  }
  const known = review.findings.some((f) => f.check === found.check && f.text === found.text);
  if (known || review.findings.length >= MAX_FINDINGS) return review;
  return { ...review, findings: [...review.findings, found] };
}

/**
 * A unit of a held package: in quarantine, marked "held for review" (an override, so a change of its
 * condition keeps it there); the first quarantine rule's bin, else `QUARANTINE`. The same item
 * when it is already there.
 */
export async function heldUnit(
  t: BoundTables,
  now: string,
  pkg: Readonly<ReturnPackage>,
  item: PackageLineItem,
  by: number | null = null,
): Promise<PackageLineItem> {
  if (!isHeld(pkg) || isHeldUnit(item)) return item;
  const bin = (await dispositionRulesIn(t)).rules.find((rule) => rule.disposition === 'quarantine')?.bin ?? HELD_BIN;
  return applyOverride(t, now, pkg, item, { disposition: 'quarantine', bin, disposition_reason: HELD_FOR_REVIEW, disposition_by: by });
}
