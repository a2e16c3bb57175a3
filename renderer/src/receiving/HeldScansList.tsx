import { useStationLink } from '../state/station-link.ts';
import { useHeldScans } from './held-scans.ts';
import { openHeld } from './release-held-scans.ts';

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** Parcels scanned while the station was away: each opens once, when the station answers. */
export function HeldScansList() {
  const scans = useHeldScans((s) => s.scans);
  const online = useStationLink((s) => s.link === 'online');
  if (scans.length === 0) return null;
  return (
    <section aria-labelledby="held-scans-title" data-testid="held-scans">
      <h3 id="held-scans-title">Held scans ({scans.length})</h3>
      <p className="hint">{online ? 'The station answers: open each parcel (or scan it again).' : 'Held: each opens when the station answers.'}</p>
      <ul className="plain-list">
        {scans.map((held) => (
          <li key={held.code} data-testid="held-scan" data-code={held.code}>
            <span className="mono">{held.code}</span> · scanned {timeOf(held.heldAt)}{' '}
            {online && (
              <button type="button" className="btn btn-small" onClick={() => openHeld(held)}>
                Open
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
