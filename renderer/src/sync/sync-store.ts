import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ApiClient } from '#shared/api/client.ts';
import type { SyncStatus } from '#shared/api/station.ts';
import type { SyncChange, SyncOverview, UpstreamSettingsInput } from '#shared/api/sync.ts';
import { pageClient } from '../api/station-api.ts';
import { describeError } from '../api/describe-error.ts';
import { useStationLink } from '../state/station-link.ts';

/** The sync screen's data: the overview, the changes that have not gone up, and the last action's outcome. */
export interface SyncScreenState {
  overview: SyncOverview | null;
  changes: SyncChange[];
  total: number;
  /** Whether a load has answered: until then the screen says it is loading, not "Nothing waiting". */
  loaded: boolean;
  /** Why the last load failed (cleared by the next that answers); what was shown stays. */
  loadError: string | null;
  message: string | null;
  busy: boolean;
  reload(): Promise<void>;
  retry(change: SyncChange): Promise<void>;
  keepLocal(change: SyncChange): Promise<void>;
  saveUpstream(input: UpstreamSettingsInput): Promise<boolean>;
  removeUpstream(): Promise<void>;
}

export type SyncClient = Pick<ApiClient, 'syncOverview' | 'listSyncChanges' | 'retrySyncChange' | 'keepLocalSyncChange' | 'setUpstream' | 'removeUpstream'>;

/** The sync screen's store over `client`. */
export function createSyncScreenStore(client: SyncClient): UseBoundStore<StoreApi<SyncScreenState>> {
  return create<SyncScreenState>()((set, get) => {
    // Loads overlap (the screen reloads on every sync status and on a timer): only the newest one's answer is shown.
    let newestLoad = 0;
    const act = async (what: () => Promise<unknown>, done: string): Promise<boolean> => {
      set({ busy: true, message: null });
      try {
        await what();
        set({ message: done });
        await get().reload();
        return true;
      } catch (error) {
        set({ message: describeError(error) });
        return false;
      } finally {
        set({ busy: false });
      }
    };
    return {
      overview: null,
      changes: [],
      total: 0,
      loaded: false,
      loadError: null,
      message: null,
      busy: false,
      async reload() {
        const load = ++newestLoad;
        try {
          const [overview, changes] = await Promise.all([client.syncOverview(), client.listSyncChanges({ per_page: 100 })]);
          if (load !== newestLoad) return;
          set({ overview, changes: changes.data, total: changes.meta.total_count, loaded: true, loadError: null });
          setSyncStatus(overview.status);
        } catch (error) {
          if (load === newestLoad) set({ loadError: describeError(error) });
        }
      },
      retry: (change) => act(() => client.retrySyncChange({ kind: change.kind, id: change.id }), `Sending ${change.label} again.`).then(() => undefined),
      keepLocal: (change) =>
        act(() => client.keepLocalSyncChange({ kind: change.kind, id: change.id }), `Kept the station's version of ${change.label}.`).then(() => undefined),
      saveUpstream: (input) => act(() => client.setUpstream(input), 'Upstream saved: syncing now.'),
      removeUpstream: () => act(() => client.removeUpstream(), 'Sync switched off. Waiting changes stay queued.').then(() => undefined),
    };
  });
}

/** This page's sync screen. */
export const useSyncScreen = createSyncScreenStore(pageClient);

/** A `sync.status` event or a fresh overview: the indicator shows it at once. */
export function setSyncStatus(sync: SyncStatus): void {
  const station = useStationLink.getState();
  if (station.status && JSON.stringify(station.status.sync) !== JSON.stringify(sync)) useStationLink.setState({ status: { ...station.status, sync } });
}
