import { z } from 'zod';
import { TimestampSchema } from './common.ts';

/*
 * A package held for review (docs/operator-guide.md, The review): a check at the dock failed, its
 * units wait in quarantine, and a supervisor releases it or confirms the finding with a reason. The
 * review is the station's own record (never sent to a returns service as such): a confirmed finding
 * goes up only inside the package's `notes`.
 */

/** The dock's checks that can hold a package. */
export const REVIEW_CHECKS = ['weight', 'serial'] as const;
export type ReviewCheck = (typeof REVIEW_CHECKS)[number];

/** `held` until a supervisor decides: `released` (the rules' dispositions apply) or `confirmed` (the finding stands). */
export const REVIEW_STATES = ['held', 'released', 'confirmed'] as const;

/** A finding's plain sentence, e.g. "weighed 0.21 kg, expected 1.80 kg". */
export const MAX_FINDING_LENGTH = 300;
/** Findings kept per review (a repeated finding is kept once). */
export const MAX_FINDINGS = 20;

/** What a unit's disposition override says while its package is held. */
export const HELD_FOR_REVIEW = 'held for review';

export const ReviewCheckSchema = z.enum(REVIEW_CHECKS);
export const ReviewStateSchema = z.enum(REVIEW_STATES);

export const ReviewFindingSchema = z.object({
  check: ReviewCheckSchema,
  text: z.string(),
  at: TimestampSchema,
  /** The worker at the dock when it was found (an operator of the station that found it), or null. */
  operator_id: z.int().nullable(),
});
export type ReviewFinding = z.infer<typeof ReviewFindingSchema>;

/** A package's review as the station keeps it. */
export const PackageReviewSchema = z.object({
  state: ReviewStateSchema,
  /** Why it is held, oldest first. */
  findings: z.array(ReviewFindingSchema),
  /** When it was held (its first finding). */
  held_at: TimestampSchema,
  /** The supervisor who decided (an operator id of the deciding station), and by name (operators are each station's own). */
  decided_by: z.int().nullable(),
  decided_by_name: z.string().nullable(),
  decided_at: TimestampSchema.nullable(),
  /** A confirmation's reason; null for a release without one. */
  reason: z.string().nullable(),
});

/** The review as the package's record keeps it (records are frozen: its findings are a read-only list). */
export const StoredReviewSchema = PackageReviewSchema.extend({ findings: z.array(ReviewFindingSchema).readonly() });
