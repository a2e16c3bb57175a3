import type { SyncStatus } from '#shared/api/station.ts';
import { SYNC_DISABLED } from '../domain/sync-port.ts';
import type { StationStore } from '../store/index.ts';
import type { OutboxLedger } from './outbox/outbox-ledger.ts';
import type { UpstreamSettings } from './upstream/upstream-client.ts';
import type { UpstreamEventsState } from './upstream/upstream-events.ts';

/** The station's sync state as the API and UI show it, from the store and the last round's outcome. */
export async function syncStatusOf(
  store: StationStore,
  outbox: OutboxLedger,
  settings: UpstreamSettings | null,
  lastRound: { offline: boolean; error: string | null; backoffUntil: number | null },
  events: UpstreamEventsState | null,
  pullIntervalMs: number,
): Promise<SyncStatus> {
  if (!settings) return SYNC_DISABLED;
  // Counted by the ledger, not read: this runs every 250 ms while parcels are received.
  const waiting = await outbox.count(settings.accounts);
  const states = await store.tables.sync_state.bulkGet(settings.accounts);
  const lastSuccess = states.reduce<string | null>((m, s) => (s?.last_success_at && (m === null || s.last_success_at > m) ? s.last_success_at : m), null);
  const paused = states.find((s) => s?.paused)?.paused ?? null;
  let state: SyncStatus['state'] = 'online';
  let error: string | null = null;
  if (paused) {
    state = 'error';
    error = paused.message;
  } else if (lastRound.offline) {
    state = 'offline';
    error = lastRound.error ?? (settings.site ? `The site's hub at ${hostOf(settings.returns_url)} cannot be reached.` : 'The upstream cannot be reached.');
  } else if (waiting.held > 0) {
    state = 'error';
    error = `${waiting.held} change${waiting.held === 1 ? '' : 's'} need${waiting.held === 1 ? 's' : ''} a person (see the sync screen).`;
  } else if (lastRound.error) {
    error = lastRound.error;
  }
  const mediaKeptLocal = states.find((s) => s?.media_unsupported)?.media_unsupported?.message ?? null;
  // Shown while it lasts (the scheduler's round at that instant refreshes the status).
  const backoffUntil = lastRound.backoffUntil !== null && lastRound.backoffUntil > Date.now() ? new Date(lastRound.backoffUntil).toISOString() : null;
  return {
    state,
    pending_changes: waiting.pending,
    last_success_at: lastSuccess,
    last_error: error,
    media_kept_local: mediaKeptLocal,
    backoff_until: backoffUntil,
    upstream_events: events,
    pull_interval_ms: pullIntervalMs,
    hub: settings.site ? { url: settings.returns_url } : null,
  };
}

/** An address's host and port, as a person names the machine. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
