import { useEffect, useState } from 'react';
import type { PackageReview } from '#shared/api/reviews.ts';
import type { ReturnPackage } from '#shared/api/return-packages.ts';
import { pageClient } from '../api/station-api.ts';
import { CHECK_LABEL, deciderOf, whenOf } from './review-words.ts';
import './review.css';

/**
 * The open package's review (no spec answer carries it): read once per version of the package, so
 * a hold made by a check, or a supervisor's decision, shows as soon as the package changes.
 */
function usePackageReview(accountId: number, pkg: Pick<ReturnPackage, 'id' | 'updated_at'>): PackageReview | null {
  const key = `${accountId}/${pkg.id}/${pkg.updated_at}`;
  const [read, setRead] = useState<{ key: string; review: PackageReview | null } | null>(null);
  useEffect(() => {
    let live = true;
    pageClient.packageReview(accountId, pkg.id).then(
      (answer) => live && setRead({ key, review: answer.review }),
      // Not shown rather than a second error beside the package: the notice appears with the next read.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [key, accountId, pkg.id]);
  return read?.key === key ? read.review : null;
}

/** "Held for review" with its findings on the package screen; after the decision, who decided and when. */
export function HeldForReview({ accountId, pkg }: { accountId: number; pkg: Pick<ReturnPackage, 'id' | 'updated_at'> }) {
  const review = usePackageReview(accountId, pkg);
  if (review === null) return null;
  if (review.state !== 'held') {
    return (
      <p className="inline-warning" role="status" data-testid="review-decision" data-state={review.state}>
        Review: {review.state === 'released' ? 'released' : 'finding confirmed'} by {deciderOf(review)}
        {review.decided_at ? ` at ${whenOf(review.decided_at)}` : ''}
        {review.reason ? ` — “${review.reason}”` : ''}
      </p>
    );
  }
  return (
    <div className="held-for-review" role="status" data-testid="held-for-review">
      <strong>Held for review</strong> since {whenOf(review.held_at)}: its units go to quarantine until a supervisor decides.
      <ul>
        {review.findings.map((f) => (
          <li key={`${f.check}:${f.at}:${f.text}`}>
            {CHECK_LABEL[f.check]}: {f.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
