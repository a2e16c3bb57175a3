import { useEffect, useRef, useState } from 'react';
import type { ReviewedPackage } from '#shared/api/reviews.ts';
import { EvidencePackButton } from '../evidence/EvidencePackButton.tsx';
import { useReviews } from './page-reviews.ts';
import { reviewKey } from './review-store.ts';
import { CHECK_LABEL, deciderOf, whenOf } from './review-words.ts';
import './review.css';

/** How often the list refreshes itself while it is on screen. */
const REFRESH_MS = 30_000;

function Findings({ pkg }: { pkg: ReviewedPackage }) {
  return (
    <ul className="review-findings" aria-label="Why it is held">
      {pkg.review.findings.map((f) => (
        <li key={`${f.check}:${f.at}:${f.text}`}>
          <strong>{CHECK_LABEL[f.check]}:</strong> {f.text} <span className="review-muted">· {whenOf(f.at)}</span>
        </li>
      ))}
    </ul>
  );
}

/** The reason a confirmation needs, typed then Enter; Esc leaves it. */
function ReasonForm({ pkg }: { pkg: ReviewedPackage }) {
  const [reason, setReason] = useState('');
  const { confirm, askReason, busy } = useReviews();
  const field = useRef<HTMLInputElement>(null);
  // After the key that opened it is done with (its Enter must not land anywhere else first).
  useEffect(() => {
    const timer = setTimeout(() => field.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, []);
  return (
    <form
      className="review-reason"
      onSubmit={(e) => {
        e.preventDefault();
        void confirm(pkg, reason);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          askReason(null);
        }
      }}
    >
      <label>
        Why the finding stands (required)
        <input
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={500}
          required
          ref={field}
          placeholder="e.g. empty box"
          data-testid="review-reason"
        />
      </label>
      <button type="submit" className="btn" disabled={busy !== null} data-testid="review-confirm">
        Confirm finding
      </button>
      <button type="button" className="btn btn-secondary" onClick={() => askReason(null)}>
        Cancel
      </button>
    </form>
  );
}

function HeldPackage({ pkg }: { pkg: ReviewedPackage }) {
  const { release, askReason, confirming, busy } = useReviews();
  const key = reviewKey(pkg);
  return (
    <li className="review-package" data-testid="review-package" data-package-id={pkg.package_id} data-tracking={pkg.tracking_number}>
      <div className="review-head">
        <strong className="mono">{pkg.tracking_number}</strong>
        <span className="review-muted">
          account {pkg.account_id} · {pkg.status.replace('_', ' ')} · {pkg.units} {pkg.units === 1 ? 'unit' : 'units'} in quarantine · held since{' '}
          {whenOf(pkg.review.held_at)}
        </span>
      </div>
      <Findings pkg={pkg} />
      {confirming === key ? (
        <ReasonForm pkg={pkg} />
      ) : (
        // A form: the keyboard stays on the list after a decision's key (outside forms it goes back to the scan field).
        <form className="review-actions" aria-label={`Decide ${pkg.tracking_number}`} onSubmit={(e) => e.preventDefault()}>
          <button type="button" className="btn" disabled={busy !== null} onClick={() => void release(pkg)} data-testid="review-release">
            Release
          </button>
          <button type="button" className="btn btn-secondary" disabled={busy !== null} onClick={() => askReason(pkg)} data-testid="review-confirm-open">
            Confirm finding…
          </button>
          <EvidencePackButton target={{ accountId: pkg.account_id, packageId: pkg.package_id, trackingNumber: pkg.tracking_number }} />
        </form>
      )}
    </li>
  );
}

function Decided({ pkg }: { pkg: ReviewedPackage }) {
  const r = pkg.review;
  return (
    <li data-testid="review-decided" data-package-id={pkg.package_id} data-state={r.state}>
      <strong className="mono">{pkg.tracking_number}</strong> {r.state === 'released' ? 'released' : 'finding confirmed'} by {deciderOf(r)}
      {r.decided_at ? ` at ${whenOf(r.decided_at)}` : ''}
      {r.reason ? `: “${r.reason}”` : ''}
    </li>
  );
}

/** The supervisor's review list: each held package, why and since when; release, or confirm the finding with a reason. */
export function ReviewScreen() {
  const { held, decided, error, done, loaded, load } = useReviews();
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);
  return (
    <section className="review-screen" aria-labelledby="review-title" data-testid="review-screen">
      <h2 id="review-title">
        Held for review <span className="review-count">{held.length}</span>
      </h2>
      {error && (
        <p role="alert" className="inline-error" data-testid="review-error">
          {error}
        </p>
      )}
      {done && (
        <p role="status" className="review-done" data-testid="review-done">
          {done}
        </p>
      )}
      {loaded && held.length === 0 ? (
        <p className="review-muted" data-testid="review-none">
          No parcel is held for review.
        </p>
      ) : (
        <ul className="review-list" data-testid="review-held">
          {held.map((pkg) => (
            <HeldPackage key={reviewKey(pkg)} pkg={pkg} />
          ))}
        </ul>
      )}
      {decided.length > 0 && (
        <section aria-label="Decided lately" className="review-decided">
          <h3>Decided lately</h3>
          <ul>
            {decided.map((pkg) => (
              <Decided key={reviewKey(pkg)} pkg={pkg} />
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
