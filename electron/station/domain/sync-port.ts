import type { Readable } from 'node:stream';
import type { SyncStatus } from '#shared/api/station.ts';

/**
 * What the domain and the API ask of sync. The sync engine (sync/sync-engine.ts) is one; the domain
 * never imports sync: its changes reach sync through the store (the outbox slot a change marks in
 * its own write, and the store's change events), and it asks sync only this.
 */
export interface SyncPort {
  status(): SyncStatus;
  /** Called with the new status whenever it changes. */
  onStatus(listener: (status: SyncStatus) => void): () => void;
  /** Fresh status from the store (after settings or outbox changes). */
  refreshStatus(): Promise<SyncStatus>;
  /** Reads a package the dock opened from the upstream; never rejects. */
  refreshPackage(accountId: number, localId: number): Promise<{ outcome: string; message?: string }>;
  /** Asks for a sync round now (settings changed, a person asked to retry). */
  nudge(): void;
  /** The bytes of a photo kept at the site's hub (its capability URL), read as it is shown; null when the hub does not give them. */
  hubMediaBytes(url: string): Promise<Readable | null>;
}

/** The sync status of a station with no upstream set (or no sync at all). */
export const SYNC_DISABLED: SyncStatus = {
  state: 'disabled',
  pending_changes: 0,
  last_success_at: null,
  last_error: null,
  media_kept_local: null,
  backoff_until: null,
  upstream_events: null,
  pull_interval_ms: null,
  hub: null,
};
