import { useEffect } from 'react';
import type { DockDay, DockDayPackage } from '#shared/api/dock-day.ts';
import { useDispositionRules } from '../state/disposition-rules.ts';
import { useStationLink } from '../state/station-link.ts';
import { useDockDay } from './page-dock-day.ts';
import { HeldButton } from '../review/HeldButton.tsx';
import './supervisor.css';

/** How often the view refreshes itself while it is on screen. */
const REFRESH_MS = 30_000;

/** Why a received line is to review. */
const REVIEW_LABEL: Record<DockDay['review'][number]['kind'], string> = {
  over_receipt: 'Over-receipt',
  unexpected_item: 'Unexpected item',
  short_receipt: 'Partial receipt',
};

/** Received per hour as bars, one per hour of the day, the busiest hour full height. */
function HourChart({ perHour }: { perHour: readonly number[] }) {
  const max = Math.max(1, ...perHour);
  const width = 24 * 12;
  const height = 64;
  return (
    <figure className="hour-chart" data-testid="supervisor-hour-chart">
      <svg
        viewBox={`0 0 ${width} ${height + 12}`}
        role="img"
        aria-label={`Received per hour: ${
          perHour
            .map((n, h) => `${h}h ${n}`)
            .filter((_t, h) => (perHour[h] ?? 0) > 0)
            .join(', ') || 'none yet'
        }`}
      >
        {perHour.map((count, hour) => {
          const barHeight = Math.round((count / max) * height);
          return (
            <g key={hour}>
              <rect x={hour * 12 + 1} y={height - barHeight} width={10} height={barHeight} className="hour-bar">
                <title>{`${String(hour).padStart(2, '0')}:00 — ${count}`}</title>
              </rect>
              {hour % 3 === 0 && (
                <text x={hour * 12 + 6} y={height + 10} textAnchor="middle" className="hour-label">
                  {hour}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/** The day's units by disposition, each in the station's name and colour; the uninspected last. */
function DispositionCounts({ day }: { day: DockDay }) {
  const styles = useDispositionRules((s) => s.styles);
  return (
    <section className="supervisor-dispositions" aria-label="Units by disposition" data-testid="supervisor-dispositions">
      <ul>
        {day.per_disposition.map((d) => (
          <li key={d.disposition} data-disposition={d.disposition} className={d.units === 0 ? 'supervisor-zero' : undefined}>
            <span className="supervisor-swatch" style={{ backgroundColor: styles[d.disposition].color }} aria-hidden="true" />
            {styles[d.disposition].label} <strong>{d.units}</strong>
            {d.overridden > 0 && <span className="supervisor-muted"> ({d.overridden} overridden)</span>}
          </li>
        ))}
        {day.units_without_disposition > 0 && (
          <li data-disposition="">
            <span className="supervisor-swatch" aria-hidden="true" />
            Not inspected <strong>{day.units_without_disposition}</strong>
          </li>
        )}
      </ul>
    </section>
  );
}

function BinList({ day }: { day: DockDay }) {
  const styles = useDispositionRules((s) => s.styles);
  return (
    <section className="supervisor-panel" aria-label="By bin" data-testid="supervisor-bins" tabIndex={0}>
      <h3>
        By bin <span className="supervisor-count">{day.per_bin_total}</span>
      </h3>
      {day.per_bin.length === 0 ? (
        <p className="supervisor-none">None.</p>
      ) : (
        <table>
          <tbody>
            {day.per_bin.map((b) => (
              <tr key={b.bin} data-bin={b.bin}>
                <th scope="row" className="mono">
                  {b.dispositions.map((d) => (
                    <span key={d} className="supervisor-swatch" style={{ backgroundColor: styles[d].color }} title={styles[d].label} />
                  ))}
                  {b.bin}
                </th>
                <td>{b.units} units</td>
                <td className={b.put_confirmed < b.units ? 'supervisor-unput' : undefined}>
                  {b.put_confirmed === b.units ? '✓ put' : `${b.put_confirmed}/${b.units} put`}
                </td>
              </tr>
            ))}
            {day.per_bin_total > day.per_bin.length && (
              <tr>
                <td colSpan={3} className="supervisor-muted">
                  and {day.per_bin_total - day.per_bin.length} more
                </td>
              </tr>
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

function OverrideList({ day }: { day: DockDay }) {
  const styles = useDispositionRules((s) => s.styles);
  const total = day.overrides_per_worker.reduce((sum, w) => sum + w.overrides, 0);
  return (
    <section className="supervisor-panel" aria-label="Overrides" data-testid="supervisor-overrides" tabIndex={0}>
      <h3>
        Overrides <span className="supervisor-count">{total}</span>
      </h3>
      {day.overrides_per_worker.length === 0 ? (
        <p className="supervisor-none">None.</p>
      ) : (
        <ul className="supervisor-override-workers">
          {day.overrides_per_worker.map((w) => (
            <li key={w.operator_id ?? 'none'} data-operator={w.operator_id ?? ''}>
              <strong>{w.name}</strong> <span className="supervisor-count">{w.overrides}</span>
              <ul>
                {w.latest.map((o) => (
                  <li key={o.line_item_id}>
                    <span className="supervisor-swatch" style={{ backgroundColor: styles[o.disposition].color }} aria-hidden="true" />
                    {styles[o.disposition].label}: “{o.reason}”{' '}
                    <span className="supervisor-muted">
                      {o.item} · {timeOf(o.at)}
                    </span>
                  </li>
                ))}
                {w.overrides > w.latest.length && <li className="supervisor-muted">and {w.overrides - w.latest.length} earlier</li>}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function PackageList({
  title,
  testId,
  packages,
  total,
  since,
}: {
  title: string;
  testId: string;
  packages: readonly DockDayPackage[];
  total: number;
  since?: boolean;
}) {
  return (
    <section className="supervisor-panel" aria-label={title} data-testid={testId} tabIndex={0}>
      <h3>
        {title} <span className="supervisor-count">{total}</span>
      </h3>
      {packages.length === 0 ? (
        <p className="supervisor-none">None.</p>
      ) : (
        <ul>
          {packages.map((p) => (
            <li key={`${p.account_id}:${p.package_id}`}>
              <strong>{p.tracking_number}</strong> <span className="supervisor-muted">account {p.account_id}</span>
              {since && p.arrived_at && <span className="supervisor-muted"> · since {timeOf(p.arrived_at)}</span>}
            </li>
          ))}
          {total > packages.length && <li className="supervisor-muted">and {total - packages.length} more</li>}
        </ul>
      )}
    </section>
  );
}

function DayPanels({ day }: { day: DockDay }) {
  return (
    <div className="supervisor-panels">
      <section className="supervisor-panel" aria-label="Per worker" data-testid="supervisor-workers" tabIndex={0}>
        <h3>Per worker</h3>
        {day.per_worker.length === 0 ? (
          <p className="supervisor-none">Nothing received yet.</p>
        ) : (
          <table>
            <tbody>
              {day.per_worker.map((w) => (
                <tr key={w.operator_id ?? 'none'}>
                  <th scope="row">{w.name}</th>
                  <td>{w.packages} pkg</td>
                  <td>{w.units} units</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <BinList day={day} />
      <OverrideList day={day} />
      <section className="supervisor-panel" aria-label="To review" data-testid="supervisor-review" tabIndex={0}>
        <h3>
          To review <span className="supervisor-count">{day.review_total}</span>
        </h3>
        {day.review.length === 0 ? (
          <p className="supervisor-none">None.</p>
        ) : (
          <ul>
            {day.review.map((r, index) => (
              <li key={`${r.package_id}:${r.kind}:${index}`}>
                <strong>{REVIEW_LABEL[r.kind]}</strong> {r.item} — {r.received}
                {r.kind === 'unexpected_item' ? '' : ` of ${r.expected}`} <span className="supervisor-muted">in {r.tracking_number}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <PackageList title={`Waiting over ${day.waiting_minutes} min`} testId="supervisor-waiting" packages={day.waiting} total={day.waiting_total} since />
      <PackageList title="Exceptions" testId="supervisor-exceptions" packages={day.exceptions} total={day.exceptions_total} />
    </div>
  );
}

/** The supervisor's view of a dock day: one screen, refreshed while it is open. */
export function SupervisorScreen() {
  const { date, waitingMinutes, day, error, setDate, setWaitingMinutes, load, exportCsv } = useDockDay();
  const received = useStationLink((s) => s.status?.today.received);
  const refreshRules = useDispositionRules((s) => s.refresh);
  useEffect(() => {
    // The station's names and colours of the dispositions (the last known, or the defaults, offline).
    void refreshRules();
  }, [refreshRules]);
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load, received]);
  const sync = day?.sync;
  return (
    <section className="supervisor-screen" aria-label="Dock today">
      <div className="supervisor-bar">
        <h2>Dock {date ? date : 'today'}</h2>
        <label>
          Day <input type="date" value={date || day?.date || ''} onChange={(e) => setDate(e.target.value)} data-testid="supervisor-date" />
        </label>
        <label>
          Late after{' '}
          <input
            type="number"
            min={1}
            max={10080}
            value={waitingMinutes}
            onChange={(e) => Number(e.target.value) >= 1 && setWaitingMinutes(Math.floor(Number(e.target.value)))}
            data-testid="supervisor-waiting-minutes"
          />{' '}
          min
        </label>
        <button type="button" className="btn" onClick={() => void exportCsv()} data-testid="supervisor-export">
          Export receipts (CSV)
        </button>
        <HeldButton />
      </div>
      {error && (
        <p role="alert" className="supervisor-error">
          {error}
        </p>
      )}
      {day && (
        <>
          <div className="supervisor-summary">
            <span data-testid="supervisor-received">
              Received: <strong>{day.received_packages}</strong> packages, <strong>{day.received_units}</strong> units
            </span>
            <span data-testid="supervisor-sync">
              Sync:{' '}
              <strong>
                {sync?.state === 'disabled' ? 'off' : sync?.state}
                {sync && sync.state !== 'disabled' ? ` · ${sync.pending_changes} waiting` : ''}
              </strong>
              {sync?.last_error && <span className="supervisor-error"> {sync.last_error}</span>}
            </span>
            <span className="supervisor-muted">Hours in {day.time_zone}</span>
          </div>
          <div className="supervisor-charts">
            <HourChart perHour={day.received_per_hour} />
            <DispositionCounts day={day} />
          </div>
          <DayPanels day={day} />
        </>
      )}
    </section>
  );
}
