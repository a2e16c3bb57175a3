import type { SyncStatus } from '#shared/api/station.ts';
import type { StationStore } from '../store/index.ts';
import type { UpstreamSettings } from './upstream-client.ts';

export const SYNC_DISABLED: SyncStatus = { state: 'disabled', pending_changes: 0, last_success_at: null, last_error: null, media_kept_local: null };

/** The station's sync state as the API and UI show it, from the store and the last round's outcome. */
export async function syncStatusOf(store: StationStore, settings: UpstreamSettings | null, lastRound: { offline: boolean; error: string | null }): Promise<SyncStatus> {
  if (!settings) return SYNC_DISABLED;
  // One equality read per account, not `anyOf`: Dexie walks `anyOf` with a cursor, and
  // fake-indexeddb's cursor over an index value many slots share seeks from the first of them at
  // every step, so reading an account's backlog that way took time quadratic in its size (this runs
  // after every commit that changes a return or package: docs/decisions/create-path.md).
  const perAccount = await Promise.all(settings.accounts.map((account) => store.db.outbox.where('account_id').equals(account).toArray()));
  const entries = perAccount.flat();
  const states = await store.db.sync_state.bulkGet(settings.accounts);
  const lastSuccess = states.reduce<string | null>((m, s) => (s?.last_success_at && (m === null || s.last_success_at > m) ? s.last_success_at : m), null);
  const paused = states.find((s) => s?.paused)?.paused ?? null;
  const held = entries.filter((e) => e.hold !== null);
  let state: SyncStatus['state'] = 'online';
  let error: string | null = null;
  if (paused) {
    state = 'error';
    error = paused.message;
  } else if (lastRound.offline) {
    state = 'offline';
    error = lastRound.error ?? 'The upstream cannot be reached.';
  } else if (held.length > 0) {
    state = 'error';
    error = `${held.length} change${held.length === 1 ? '' : 's'} need${held.length === 1 ? 's' : ''} a person (see the sync screen).`;
  } else if (lastRound.error) {
    error = lastRound.error;
  }
  const mediaKeptLocal = states.find((s) => s?.media_unsupported)?.media_unsupported?.message ?? null;
  return { state, pending_changes: entries.length, last_success_at: lastSuccess, last_error: error, media_kept_local: mediaKeptLocal };
}
