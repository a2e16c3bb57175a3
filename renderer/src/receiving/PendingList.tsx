import { describeError } from '../api/describe-error.ts';
import type { PendingEntry, PendingState } from '../pending/package-outbox.ts';
import { usePackage, usePending } from './page-package.ts';

const STATE_TEXT: Record<PendingState, string> = {
  queued: 'waiting its turn',
  sending: 'sending…',
  retrying: 'waiting for the station',
  failed: 'refused by the station',
};

function describe(entry: PendingEntry): string {
  const units = `${entry.units} unit${entry.units === 1 ? '' : 's'}`;
  const what = entry.receiving ? `Receiving — ${units}` : `Inspection (${units}), not received`;
  const why = entry.state === 'failed' && entry.error !== null ? `: ${describeError(entry.error)}` : '';
  return `${what} · ${STATE_TEXT[entry.state]}${why}`;
}

/** Work the station has not confirmed yet, in sending order: kept in this browser until it has. */
export function PendingList() {
  const entries = usePending((s) => s.entries);
  const photos = usePackage((s) => s.uploads.filter((u) => u.state !== 'done' && u.state !== 'failed').length);
  if (entries.length === 0 && photos === 0) return null;
  return (
    <section aria-labelledby="pending-title" data-testid="pending-work">
      <h3 id="pending-title">Waiting to send ({entries.length})</h3>
      {photos > 0 && (
        <p className="hint" data-testid="pending-uploads" data-count={photos}>
          {photos} photo{photos === 1 ? '' : 's'} waiting to upload
        </p>
      )}
      <ul className="plain-list">
        {entries.map((e) => (
          <li key={e.key} data-testid="pending-package" data-tracking={e.trackingNumber} data-state={e.state} className={`pending-${e.state}`}>
            <span className="mono">{e.trackingNumber}</span> · {describe(e)}
          </li>
        ))}
      </ul>
    </section>
  );
}
