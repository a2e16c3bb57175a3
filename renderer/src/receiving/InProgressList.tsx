import { describeError } from '../api/describe-error.ts';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { heldPicks, useHeldKey } from '../scan/held-key.ts';
import { notify } from '../state/feedback-store.ts';
import { useInProgress } from './in-progress-store.ts';
import { useScan } from './scan-result-store.ts';
import { openFound } from './scan-router.ts';

/** Packages left unfinished, newest first: a number key (or a click) reopens one where it was left. */
export function InProgressList() {
  const packages = useInProgress((s) => s.packages);
  // A held number picks from the list of an ambiguous scan first, when there is one.
  const held = useHeldKey((s) => s.char);
  const picking = useScan((s) => s.packages.length === 0);
  if (packages.length === 0) return null;
  return (
    <section aria-labelledby="in-progress-title" data-testid="in-progress">
      <h3 id="in-progress-title">In progress — not received yet</h3>
      <ul className="choice-list">
        {packages.map((p, i) => (
          <li key={`${p.account_id}-${p.id}`}>
            <button
              type="button"
              className="btn btn-choice"
              data-held={picking && heldPicks(held, i) ? '' : undefined}
              data-testid="in-progress-package"
              data-tracking={p.tracking_number}
              onClick={() => void openFound(p).catch((e: unknown) => notify('error', describeError(e)))}
            >
              <kbd>{i + 1}</kbd> {p.tracking_number} · return #{p.return_id} <StatusBadge status={p.status} />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
