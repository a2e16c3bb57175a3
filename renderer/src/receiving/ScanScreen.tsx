import { describeError } from '../api/describe-error.ts';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { heldPicks, useHeldKey } from '../scan/held-key.ts';
import { notify } from '../state/feedback-store.ts';
import { HeldScansList } from './HeldScansList.tsx';
import { InProgressList } from './InProgressList.tsx';
import { PendingList } from './PendingList.tsx';
import { useScan } from './scan-result-store.ts';
import { openFound } from './scan-router.ts';

/** Waiting for a parcel; when a code matched several packages (or only returns), they are listed. */
export function ScanScreen() {
  const { code, packages, returns } = useScan();
  const held = useHeldKey((s) => s.char);
  return (
    <section className="panel" aria-labelledby="scan-title">
      <h2 id="scan-title">Ready for the next parcel</h2>
      {code === null && <p className="hint big-hint">Scan the tracking number on the parcel label. Unknown parcels can be registered on the spot.</p>}
      {packages.length > 0 && (
        <>
          <p className="hint">{code} matches several packages — press a number or pick one:</p>
          <ul className="choice-list">
            {packages.map((p, i) => (
              <li key={`${p.account_id}-${p.id}`}>
                <button
                  type="button"
                  className="btn btn-choice"
                  data-held={heldPicks(held, i) ? '' : undefined}
                  onClick={() => void openFound(p).catch((e: unknown) => notify('error', describeError(e)))}
                >
                  {i < 9 && <kbd>{i + 1}</kbd>} {p.tracking_number} · account {p.account_id} · return #{p.return_id} <StatusBadge status={p.status} />
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <HeldScansList />
      <PendingList />
      {packages.length === 0 && <InProgressList />}
      {returns.length > 0 && (
        <>
          <p className="hint">{code} matches these returns (not a parcel label):</p>
          <ul className="plain-list">
            {returns.map((r) => (
              <li key={`${r.account_id}-${r.return.id}`}>
                Return #{r.return.id} · {r.return.email} · {r.return.status.replace('_', ' ')} · matched by {r.matched_by.replace('_', ' ')}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
