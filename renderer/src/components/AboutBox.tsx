import { useStationLink } from '../state/station-link.ts';

/**
 * The about box: the app's version and the schema version of the data directory it runs on, which
 * is what support asks for first (an older app refuses a newer data directory). From `/healthz`.
 */
export function AboutBox() {
  const health = useStationLink((s) => s.health);
  return (
    <details className="about-box" data-testid="about">
      <summary className="btn btn-small">About</summary>
      <dl>
        <dt>Returns Station version</dt>
        <dd data-testid="about-version">{health?.version ?? '—'}</dd>
        <dt>Data directory schema version</dt>
        <dd data-testid="about-data-schema">{health?.data_schema_version ?? '—'}</dd>
      </dl>
    </details>
  );
}
