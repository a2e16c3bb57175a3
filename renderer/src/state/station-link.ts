import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ApiClient } from '#shared/api/client.ts';
import { StationBack } from '#shared/api/retry-policy.ts';
import type { StationStatus } from '#shared/api/station.ts';
import type { Health } from '#shared/health.ts';
import type { StationConnection } from '#shared/station-config.ts';
import { pageClient } from '../api/station-api.ts';
import { useStationSettings, type StationSettingsStore } from './station-settings.ts';

export type LinkState = 'connecting' | 'online' | 'unreachable';

/**
 * The UI's link to its station: the connection it was given, whether the station answers, its health
 * and status. (Not the durable store of the station process, `StationStore` in electron/station/store.)
 */
export interface StationLinkState {
  connection: StationConnection | null;
  health: Health | null;
  link: LinkState;
  /** Accounts, today's counts and sync state from `GET /api/v1/station`; the last known stays on screen. */
  status: StationStatus | null;
  /** Starts watching the station at `connection`; returns a stop function. */
  watch(connection: StationConnection, intervalMs?: number): () => void;
  refreshStatus(): Promise<void>;
  setReachable(reachable: boolean): void;
}

export type StationLinkStore = UseBoundStore<StoreApi<StationLinkState>>;
export type StationLinkClient = Pick<ApiClient, 'health' | 'station'>;

/** A link that asks the station through `client` and hands the station's settings to `settings`. */
export function createStationLink(client: StationLinkClient, settings: Pick<StationSettingsStore, 'getState'>): StationLinkStore {
  return create<StationLinkState>()((set, get) => ({
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
        const status = await client.station();
        set({ status });
        settings.getState().adopt(status.settings);
      } catch {
        // The connection state already says what went wrong; keep the last counts.
      }
    },
    watch(connection, intervalMs = 5000) {
      set({ connection });
      let stopped = false;
      const check = async () => {
        try {
          // The typed client checks the answer's shape.
          const health = await client.health();
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
}

/** This page's link, on the page's client (`main.tsx` connects it and tells it every call's reach). */
export const useStationLink = createStationLink(pageClient, useStationSettings);

/**
 * Tells `back` each time `link` finds the station answering after it was away (or answering for the
 * first time): every retry waiting on it goes at once. Returns the stop function.
 */
export function announceStationBack(link: StationLinkStore, back: StationBack): () => void {
  return link.subscribe((now, before) => {
    if (now.link === 'online' && before.link !== 'online') back.arrived();
  });
}

/** This page's: the dock's queues and event streams wait on it (work held meanwhile goes at once). */
export const stationBack = new StationBack();
announceStationBack(useStationLink, stationBack);

/** The accounts of this station (the station token acts on every one). */
export function stationAccounts(): number[] {
  return useStationLink.getState().status?.accounts.map((a) => a.id) ?? [];
}
