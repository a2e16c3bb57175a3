import { create } from 'zustand';
import type { SiteManaged } from '#shared/api/site-config.ts';
import { pageClient } from '../api/station-api.ts';

/*
 * Whether this station is a site's member, whose workers, rules and rule-like settings are its hub's
 * (docs/decisions/site-config.md): the screens that edit them show them read-only then. Read from
 * `GET /api/v1/station/site` when such a screen opens; null on a station of its own.
 */
interface SiteManagedState {
  managed: SiteManaged | null;
  load(): Promise<void>;
}

export const useSiteManaged = create<SiteManagedState>((set) => ({
  managed: null,
  async load() {
    try {
      set({ managed: (await pageClient.site()).managed });
    } catch {
      // Unknown (the station cannot be reached): the screens stay as they were; the API refuses what the hub owns anyway.
    }
  },
}));
