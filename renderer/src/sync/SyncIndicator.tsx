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
  return (
    <button
      type="button"
      className={`btn btn-small sync-indicator sync-${sync.state}`}
      data-testid="sync-indicator"
      title={sync.last_error ?? sync.media_kept_local ?? undefined}
      aria-label={`${LABEL[sync.state]}${detail ? `, ${detail}` : ''}${sync.last_error ? `: ${sync.last_error}` : ''}. Open the sync screen.`}
      onClick={() => go('sync')}
    >
      <span className="sync-dot" aria-hidden="true" />
      <span className="sync-state">{LABEL[sync.state]}</span>
      {detail && <span className="sync-detail">{detail}</span>}
    </button>
  );
}
