import {
  HELD_FOR_REVIEW,
  MAX_FINDING_LENGTH,
  MAX_FINDINGS,
  type PackageReviewAnswer,
  type ReviewCheck,
  type ReviewedPackage,
  type ReviewFinding,
} from '#shared/api/reviews.ts';
import { MAX_LENGTH } from '#shared/api/common.ts';
import { MAX_DISPOSITION_REASON_LENGTH } from '#shared/api/line-items.ts';
import { fail } from '../errors.ts';
import type { BoundTables, Frozen, PackageLineItem, ReadTables, ReturnPackage } from '../store/index.ts';
import type { DomainContext } from './context.ts';
import { logChange } from './change-log.ts';
import { advance } from './clock.ts';
import { applyOverride, dispositionRulesIn } from './dispositions.ts';
import { packageOfAccount } from './packages.ts';
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

/** The supervisor who decides: an operator of this station (a supervisor session's), or null (an administrative token). */
export interface Decider {
  operatorId: number | null;
}

/** A held package of the account, or 404; 409 when it is not held (never, or decided already: by whom and when). */
async function heldPackage(t: BoundTables, accountId: number, packageId: number): Promise<ReturnPackage> {
  const pkg = await packageOfAccount(t, accountId, packageId);
  if (isHeld(pkg)) return pkg;
  const review = pkg.review ?? null;
  if (review === null) throw fail('REVIEW_NOT_HELD', `Return package ${pkg.id} (${pkg.tracking_number}) is not held for review: nothing to decide.`);
  const who = review.decided_by_name ?? (review.decided_by === null ? 'an administrative token' : `operator ${review.decided_by}`);
  throw fail(
    'REVIEW_NOT_HELD',
    `Return package ${pkg.id} (${pkg.tracking_number}) is not held for review: it was ${review.state} by ${who} at ${review.decided_at ?? 'an unknown time'}.`,
  );
}

async function decided(
  t: BoundTables,
  now: string,
  pkg: ReturnPackage,
  state: 'released' | 'confirmed',
  by: Decider,
  reason: string | null,
): Promise<StoredReview> {
  const name = by.operatorId === null ? null : ((await t.operators.get(by.operatorId))?.name ?? null);
  const review = pkg.review as StoredReview;
  return { ...review, state, decided_by: by.operatorId, decided_by_name: name, decided_at: now, reason };
}

/** Writes the decided package and its units (those still held for review, changed by `unit`). */
async function decide(
  t: BoundTables,
  now: string,
  pkg: ReturnPackage,
  next: ReturnPackage,
  unit: (item: PackageLineItem) => Promise<PackageLineItem>,
): Promise<ReturnPackage> {
  for (const item of await t.package_line_items.ofPackage(pkg.id)) {
    if (!isHeldUnit(item)) continue;
    const changed = await unit(item);
    await t.package_line_items.put({ ...changed, updated_at: advance(item.updated_at, now) });
  }
  const written: ReturnPackage = { ...next, updated_at: advance(pkg.updated_at, now) };
  await t.return_packages.put(written);
  // A local change: the package's outbox slot is marked, so a `received` held back goes up now.
  await logChange(t, { account_id: pkg.account_id, resource: 'return_package', resource_id: pkg.id, action: 'updated', data: written, at: now });
  return written;
}

/**
 * Releases a held package: the units held for review go back to the disposition rules (as if never
 * held), and its `received`, if it was received, goes upstream as usual. `note`: why, if given.
 */
export async function releaseReview(
  t: BoundTables,
  now: string,
  accountId: number,
  packageId: number,
  by: Decider,
  note: string | null,
): Promise<ReturnPackage> {
  const pkg = await heldPackage(t, accountId, packageId);
  const next: ReturnPackage = { ...pkg, review: await decided(t, now, pkg, 'released', by, note) };
  return decide(t, now, pkg, next, (item) => applyOverride(t, now, next, item, { disposition: null }));
}

/**
 * Confirms a held package's finding with the supervisor's reason: its units stay in quarantine (the
 * override now says the finding was confirmed, and why), and the finding with the reason is added to
 * the package's `notes` — how it goes upstream with its `received` ("weighed 0.21 kg, expected
 * 1.80 kg: empty box confirmed").
 */
export async function confirmReview(t: BoundTables, now: string, accountId: number, packageId: number, by: Decider, reason: string): Promise<ReturnPackage> {
  const pkg = await heldPackage(t, accountId, packageId);
  const review = await decided(t, now, pkg, 'confirmed', by, reason);
  const next: ReturnPackage = { ...pkg, review, notes: withConfirmedFinding(pkg.notes, review) };
  const why = `review confirmed: ${reason}`.slice(0, MAX_DISPOSITION_REASON_LENGTH);
  return decide(t, now, pkg, next, (item) =>
    applyOverride(t, now, next, item, { disposition: 'quarantine', bin: item.bin ?? HELD_BIN, disposition_reason: why, disposition_by: by.operatorId }),
  );
}

/** The package's notes with the confirmed finding as their last line; earlier notes are cut (…) when the two exceed the notes' limit. */
export function withConfirmedFinding(notes: string | null, review: Pick<StoredReview, 'findings' | 'reason'>): string {
  const reason = (review.reason ?? '').trim();
  const line = `${review.findings.map((f) => f.text).join('; ')}: ${/confirmed$/i.test(reason) ? reason : `${reason} confirmed`}`.slice(0, MAX_LENGTH.notes);
  if (notes === null || notes.trim() === '') return line;
  const whole = `${notes}\n${line}`;
  return whole.length <= MAX_LENGTH.notes ? whole : `${notes.slice(0, MAX_LENGTH.notes - line.length - 2)}…\n${line}`;
}

/** A package with its review, as the review routes show it. */
export async function reviewedPackageOf(t: ReadTables, pkg: Frozen<ReturnPackage> | ReturnPackage): Promise<PackageReviewAnswer> {
  const review = pkg.review ?? null;
  return {
    account_id: pkg.account_id,
    package_id: pkg.id,
    return_id: pkg.return_id,
    tracking_number: pkg.tracking_number,
    status: pkg.status,
    units: pkg.line_items_count ?? (await t.package_line_items.countOfPackage(pkg.id)),
    review: review === null ? null : { ...review, findings: [...review.findings] },
  };
}

/** The review list: packages whose review is in `state` (held: the longest waiting first), at most `limit`. */
export async function reviewList(ctx: DomainContext, state: 'held' | 'released' | 'confirmed', limit: number): Promise<ReviewedPackage[]> {
  const listed: ReviewedPackage[] = [];
  for (const pkg of await ctx.store.packages.inReview(state, limit)) {
    const view = await reviewedPackageOf(ctx.store.tables, pkg);
    // The index is what is durable; a package decided since is left out rather than shown in the wrong list.
    if (view.review?.state === state) listed.push({ ...view, review: view.review });
  }
  return listed;
}
