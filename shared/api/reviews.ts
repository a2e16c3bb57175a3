import { z } from 'zod';
import { PACKAGE_STATUSES } from '../package-status.ts';
import { boundedText, queryIntSchema, TimestampSchema } from './common.ts';

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
export type PackageReview = z.infer<typeof PackageReviewSchema>;

/** The review as the package's record keeps it (records are frozen: its findings are a read-only list). */
export const StoredReviewSchema = PackageReviewSchema.extend({ findings: z.array(ReviewFindingSchema).readonly() });

// ---------------------------------------------------------------------------------------------
// The review routes (docs/api-reference.md, The review)

/** A supervisor's reason for confirming a finding (or a note with a release). */
export const MAX_REVIEW_REASON_LENGTH = 500;
/** Packages a review list answers at most. */
export const MAX_REVIEW_LIST = 200;

export const ReviewReasonSchema = boundedText(MAX_REVIEW_REASON_LENGTH);

export const ReviewListQuerySchema = z.strictObject({
  state: ReviewStateSchema.default('held').meta({
    description: 'Which reviews: `held` (default; the longest waiting first), `released` or `confirmed` (the last decided first).',
  }),
  limit: queryIntSchema(1, MAX_REVIEW_LIST)
    .default(100)
    .meta({ description: `At most this many packages, 1–${MAX_REVIEW_LIST} (default 100).` }),
});
/** The query as a client gives it. */
export interface ReviewListQuery {
  state?: (typeof REVIEW_STATES)[number];
  limit?: number;
}

/** A package with its review, as the review list and the package's review route show it. */
export const ReviewedPackageSchema = z.object({
  account_id: z.int(),
  package_id: z.int(),
  return_id: z.int(),
  tracking_number: z.string(),
  status: z.enum(PACKAGE_STATUSES),
  /** Its units (line items). */
  units: z.int().nonnegative(),
  review: PackageReviewSchema,
});
export type ReviewedPackage = z.infer<typeof ReviewedPackageSchema>;

export const ReviewListSchema = z.object({ data: z.array(ReviewedPackageSchema) });
export type ReviewList = z.infer<typeof ReviewListSchema>;

/** `GET …/return_packages/{id}/review`: the package's review, or null when it was never held. */
export const PackageReviewAnswerSchema = ReviewedPackageSchema.extend({ review: PackageReviewSchema.nullable() });
export type PackageReviewAnswer = z.infer<typeof PackageReviewAnswerSchema>;

export const ReviewReleaseSchema = z.strictObject({
  note: ReviewReasonSchema.nullable()
    .default(null)
    .meta({ description: `Why it is released (optional), 1–${MAX_REVIEW_REASON_LENGTH} characters.` }),
});
export type ReviewReleaseInput = z.input<typeof ReviewReleaseSchema>;

export const ReviewConfirmSchema = z.strictObject({
  reason: ReviewReasonSchema.meta({
    description: `Why the finding stands, 1–${MAX_REVIEW_REASON_LENGTH} characters (required): it goes upstream in the package's notes after the finding ("…: empty box confirmed").`,
  }),
});
export type ReviewConfirmInput = z.input<typeof ReviewConfirmSchema>;
