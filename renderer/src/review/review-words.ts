import type { PackageReview, ReviewCheck } from '#shared/api/reviews.ts';

/** A check's name on screen. */
export const CHECK_LABEL: Record<ReviewCheck, string> = { weight: 'Weight', serial: 'Serial' };

/** A time as the dock reads it: the day when not today, and the hour. */
export function whenOf(iso: string): string {
  const at = new Date(iso);
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return at.toDateString() === new Date().toDateString() ? time : `${at.toLocaleDateString()} ${time}`;
}

/** Who decided, in words. */
export const deciderOf = (review: Pick<PackageReview, 'decided_by' | 'decided_by_name'>): string =>
  review.decided_by_name ?? (review.decided_by === null ? 'an administrator' : `operator ${review.decided_by}`);
