import { z } from 'zod';
import { boundTables, type BoundTables, type EngineTables, type StationStore } from '../store/index.ts';
import { retryKeptMedia } from './media-push.ts';
import type { UpstreamSettings } from './upstream-client.ts';

/** Where the upstream settings live: one `station_meta` row (the data directory is the station's own). */
const SETTINGS_KEY = 'sync.upstream';

const SettingsSchema = z.object({
  url: z.url({ protocol: /^https?$/ }),
  token: z.string().min(1).max(4096),
  accounts: z.array(z.int().positive()).min(1).max(100),
});

/** Checks settings given by a person (CLI or settings screen); throws with a clear message. */
export function parseUpstreamSettings(input: unknown): UpstreamSettings {
  const parsed = SettingsSchema.safeParse(input);
  if (!parsed.success) throw new Error(`Upstream settings: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'value'}: ${i.message}`).join('; ')}`);
  return { ...parsed.data, url: parsed.data.url.replace(/\/+$/, ''), accounts: [...new Set(parsed.data.accounts)] };
}

export function readUpstreamSettings(store: StationStore): Promise<UpstreamSettings | null> {
  return upstreamSettingsIn(store.db);
}

/**
 * Stores the settings inside the caller's write; the accounts come into being on the station.
 * Changing them lifts every account's pause (a new token deserves a new try) and asks again
 * whether the upstream has media (media kept local go up if it has) and answers a return by id.
 */
export async function saveUpstreamSettings(t: BoundTables, settings: UpstreamSettings, now: string): Promise<void> {
  await t.station_meta.put({ key: SETTINGS_KEY, value: settings });
  for (const accountId of settings.accounts) {
    if (!(await t.accounts.get(accountId))) await t.accounts.put({ id: accountId, name: `Account ${accountId}`, created_at: now });
    const state = await t.sync_state.get(accountId);
    // A new upstream (or token) is asked again whether it answers a return by id (sync/fresh.ts).
    if (state?.paused || state?.return_get_one) await t.sync_state.put({ ...state, paused: null, return_get_one: null });
    await retryKeptMedia(t, accountId, now);
  }
}

export async function writeUpstreamSettings(store: StationStore, settings: UpstreamSettings, now: string): Promise<void> {
  await store.write((tx) => saveUpstreamSettings(boundTables(tx), settings, now));
}

export async function deleteUpstreamSettings(t: BoundTables): Promise<boolean> {
  const had = (await t.station_meta.get(SETTINGS_KEY)) !== undefined;
  await t.station_meta.delete(SETTINGS_KEY);
  return had;
}

/** The settings as the station's tables hold them (any read or write transaction). */
export async function upstreamSettingsIn(t: Pick<EngineTables, 'station_meta'>): Promise<UpstreamSettings | null> {
  const row = await t.station_meta.get(SETTINGS_KEY);
  if (!row) return null;
  const parsed = SettingsSchema.safeParse(row.value);
  return parsed.success ? parsed.data : null;
}

export async function removeUpstreamSettings(store: StationStore): Promise<boolean> {
  return store.write((tx) => deleteUpstreamSettings(boundTables(tx)));
}

/** The URL with any user-info removed: what `upstream show` and the API may print. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/+$/, '');
  } catch {
    return url;
  }
}
