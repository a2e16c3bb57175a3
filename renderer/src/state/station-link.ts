import { create } from 'zustand';
import type { StationStatus } from '#shared/api/station.ts';
import type { Health } from '#shared/health.ts';
import type { StationConnection } from '#shared/station-config.ts';
import { api, createStationApi } from '../api/station-api.ts';
import { useStationSettings } from './station-settings.ts';

export type LinkState = 'connecting' | 'online' | 'unreachable';

/**
 * The UI's link to its station: the connection it was given, whether the station answers, its health
 * and status. (Not the durable store of the station process, `StationStore` in electron/station/store.)
 */
interface StationLinkState {
  connection: StationConnection | null;
  health: Health | null;
  link: LinkState;
  /** Accounts, today's counts and sync state from `GET /api/v1/station`; the last known stays on screen. */
  status: StationStatus | null;
  /** Starts watching the station; returns a stop function. */
  watch(connection: StationConnection, intervalMs?: number): () => void;
  refreshStatus(): Promise<void>;
  setReachable(reachable: boolean): void;
}

export const useStationLink = create<StationLinkState>()((set, get) => ({
  connection: null,
  health: null,
  link: 'connecting',
  status: null,
  setReachable(reachable) {
    const link = reachable ? 'online' : 'unreachable';
    if (get().link !== link) set({ link });
  },
  async refreshStatus() {
    if (!get().connection?.token) return;
    try {
      const status = await api().station();
      set({ status });
      useStationSettings.getState().adopt(status.settings);
    } catch {
      // The connection state already says what went wrong; keep the last counts.
    }
  },
  watch(connection, intervalMs = 5000) {
    set({ connection });
    createStationApi(connection, (reachable) => get().setReachable(reachable));
    let stopped = false;
    const check = async () => {
      try {
        // The typed client checks the answer's shape and tells the connection state it was reached.
        const health = await api().health();
        if (!stopped) set({ health, link: 'online' });
        if (!stopped) await get().refreshStatus();
      } catch {
        // Keep the last known health on screen: the work stays visible while the station is away.
        if (!stopped) set({ link: 'unreachable' });
      }
    };
    void check();
    const timer = setInterval(() => void check(), intervalMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  },
}));

/** The accounts of this station (the station token acts on every one). */
export function stationAccounts(): number[] {
  return useStationLink.getState().status?.accounts.map((a) => a.id) ?? [];
}
