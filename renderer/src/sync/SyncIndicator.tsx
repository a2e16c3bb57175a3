import type { SyncStatus } from '#shared/api/station.ts';
import { useNav } from '../state/nav-store.ts';
import { useStationLink } from '../state/station-link.ts';
import './sync.css';

const LABEL: Record<SyncStatus['state'], string> = {
  disabled: 'Sync off',
  online: 'Synced',
  offline: 'Upstream offline',
  error: 'Sync needs you',
};

/** With a site's hub as the upstream the indicator names the hub: it is what is away, not the returns service. */
function labelOf(sync: SyncStatus): string {
  if (sync.hub && sync.state === 'offline') return 'Hub offline';
  return LABEL[sync.state];
}

function hubHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function since(at: string | null): string {
  if (!at) return 'never';
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** Always on screen: online or offline, changes waiting, the last success, and whether a person is needed. Opens the sync screen. */
export function SyncIndicator() {
  const sync = useStationLink((s) => s.status?.sync ?? null);
  const go = useNav((s) => s.go);
  if (!sync) return null;
  const waiting = sync.pending_changes;
  const detail = sync.state === 'disabled' ? '' : `${waiting} waiting · last ${since(sync.last_success_at)}`;
  const label = labelOf(sync);
  const hub = sync.hub ? ` (the site's hub at ${hubHost(sync.hub.url)})` : '';
  return (
    <button
      type="button"
      className={`btn btn-small sync-indicator sync-${sync.state}`}
      data-testid="sync-indicator"
      title={sync.last_error ?? sync.media_kept_local ?? (sync.hub ? `Syncs with the site's hub at ${hubHost(sync.hub.url)}` : undefined)}
      aria-label={`${label}${hub}${detail ? `, ${detail}` : ''}${sync.last_error ? `: ${sync.last_error}` : ''}. Open the sync screen.`}
      onClick={() => go('sync')}
    >
      <span className="sync-dot" aria-hidden="true" />
      <span className="sync-state">{label}</span>
      {detail && <span className="sync-detail">{detail}</span>}
    </button>
  );
}
