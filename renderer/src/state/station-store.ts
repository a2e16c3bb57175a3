import { create } from 'zustand';
import { type Health, HealthSchema } from '#shared/health.ts';
import type { StationConnection } from '#shared/station-config.ts';

export type LinkState = 'connecting' | 'online' | 'unreachable';

interface StationState {
  connection: StationConnection | null;
  health: Health | null;
  link: LinkState;
  /** Starts watching the station; returns a stop function. */
  watch(connection: StationConnection, intervalMs?: number): () => void;
}

export const useStationStore = create<StationState>()((set) => ({
  connection: null,
  health: null,
  link: 'connecting',
  watch(connection, intervalMs = 5000) {
    set({ connection });
    let stopped = false;
    const check = async () => {
      try {
        const response = await fetch(`${connection.baseUrl}/healthz`, { cache: 'no-store' });
        if (!response.ok) throw new Error(`healthz answered ${response.status}`);
        const health = HealthSchema.parse(await response.json());
        if (!stopped) set({ health, link: 'online' });
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
