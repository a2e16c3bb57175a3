import { useNav } from '../state/nav-store.ts';
import { useStationLink } from '../state/station-link.ts';
import { shortProblem } from './after-receipt.ts';

/**
 * In the header while labels wait, a thin line of its own under the station's state (like a full
 * disk's): how many, and why in words when the printer failed them ("The printer 10.0.0.5 does not
 * answer"). Opens the print queue. Nothing when every label printed.
 */
export function PrintIndicator() {
  const printing = useStationLink((s) => s.status?.printing ?? null);
  const go = useNav((s) => s.go);
  if (!printing || printing.waiting === 0) return null;
  const count = `${printing.waiting} label${printing.waiting === 1 ? '' : 's'} waiting`;
  return (
    <div className="header-row print-row">
      <button
        type="button"
        className={`btn btn-small print-indicator${printing.problem ? ' print-failing' : ''}`}
        data-testid="print-indicator"
        // Its name is what it shows (axe: label-content-name-mismatch); the whole reason is its description.
        title={printing.problem ?? undefined}
        onClick={() => go('print-queue')}
      >
        {count} {printing.problem && <span className="print-problem">{shortProblem(printing.problem)}</span>}{' '}
        <span className="print-open">Print queue (Alt+L)</span>
      </button>
    </div>
  );
}
