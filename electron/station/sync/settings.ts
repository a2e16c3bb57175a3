import { z } from 'zod';
import { fieldErrorsFromIssues, parseRequest } from '#shared/api/errors.ts';
import { stationAddresses, trimAddress, UpstreamSettingsInputSchema } from '#shared/api/sync.ts';
import { type BoundTables, type ReadTables, type StationStore } from '../store/index.ts';
import { retryKeptMedia } from './push/media-push.ts';
import { followHubAuthority, type RelinkReason, relinkIfNewUpstream } from './links/relink.ts';
import type { UpstreamSettings } from './upstream/upstream-client.ts';

/** Where the upstream settings live: one `station_meta` row (the data directory is the station's own). */
const SETTINGS_KEY = 'sync.upstream';

const AddressSchema = z.url({ protocol: /^https?$/ });
const TokenSchema = z.string().min(1).max(4096);
const AccountsSchema = z.array(z.int().positive()).min(1).max(100);

const SiteMembershipSchema = z.object({
  hub_ca_pem: z.string().min(1).max(16_384),
  hub_ca_sha256: z.string().regex(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
  member_id: z.string().min(1).max(100),
  hub_ca_next_pem: z.string().min(1).max(16_384).optional(),
  hub_ca_next_sha256: z
    .string()
    .regex(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
    .optional(),
});

/** The row as this version stores it: the spec's two addresses, and the hub's pin when the station joined a site. */
const StoredSettingsSchema = z.object({
  returns_url: AddressSchema,
  base_url: AddressSchema,
  token: TokenSchema,
  accounts: AccountsSchema,
  site: SiteMembershipSchema.optional(),
});

/** The row as stations before the two addresses stored it: one Returns Station's address. */
const OneUrlSettingsSchema = z.object({ url: AddressSchema, token: TokenSchema, accounts: AccountsSchema });

/**
 * Reads a stored row in either shape: an old `{url, token, accounts}` means a Returns Station at
 * `url` (`returns_url = url`, `base_url = url/api`, what the station then derived). Null when the
 * row is neither (left as it is: sync stays off until the settings are given again).
 */
function storedSettingsOf(value: unknown): { settings: UpstreamSettings; oneUrl: boolean } | null {
  const current = StoredSettingsSchema.safeParse(value);
  if (current.success) return { settings: current.data, oneUrl: false };
  const old = OneUrlSettingsSchema.safeParse(value);
  if (!old.success) return null;
  const { url, token, accounts } = old.data;
  return { settings: { ...stationAddresses(url), token, accounts }, oneUrl: true };
}

/**
 * Checks settings given by a person (CLI or settings screen), in the API's shape: `url` (a Returns
 * Station) or `returns_url` and `base_url`; throws with a clear message naming the fields.
 */
export function parseUpstreamSettings(input: unknown): UpstreamSettings {
  const parsed = parseRequest(UpstreamSettingsInputSchema, input);
  if (!parsed.success)
    throw new Error(
      `Upstream settings: ${fieldErrorsFromIssues(parsed.error.issues)
        .map((f) => `${f.path || 'value'}: ${f.message}`)
        .join('; ')}`,
    );
  const { url, returns_url: returnsUrl, base_url: baseUrl, token, accounts } = parsed.data;
  // The schema guarantees one of the two shapes.
  const addresses = url !== undefined ? stationAddresses(url) : { returns_url: trimAddress(returnsUrl ?? ''), base_url: trimAddress(baseUrl ?? '') };
  return { ...addresses, token, accounts: [...new Set(accounts)] };
}

export function readUpstreamSettings(store: StationStore): Promise<UpstreamSettings | null> {
  return upstreamSettingsIn(store.tables);
}

/**
 * Stores the settings inside the caller's write; the accounts come into being on the station.
 * Changing them lifts every account's pause (a new token deserves a new try) and asks again
 * whether the upstream has media (media kept local go up if it has) and answers a return by id.
 */
export async function saveUpstreamSettings(t: BoundTables, settings: UpstreamSettings, now: string): Promise<RelinkReason | null> {
  // Another upstream: the links name its records no more (relink.ts).
  const relinked = await relinkIfNewUpstream(t, await upstreamSettingsIn(t), settings, now);
  await t.station_meta.put({ key: SETTINGS_KEY, value: settings });
  for (const accountId of settings.accounts) {
    if (!(await t.accounts.get(accountId))) await t.accounts.put({ id: accountId, name: `Account ${accountId}`, created_at: now });
    const state = await t.sync_state.get(accountId);
    // A new upstream (or token) is asked again whether it answers a return by id (sync/pull/fresh-reads.ts).
    if (state?.paused || state?.return_get_one) await t.sync_state.put({ ...state, paused: null, return_get_one: null });
    await retryKeptMedia(t, accountId, now);
  }
  return relinked;
}

/** The hub's authorities a member trusts: the one it pinned, and the successor the hub announced. */
export type SiteTrust = Pick<NonNullable<UpstreamSettings['site']>, 'hub_ca_pem' | 'hub_ca_sha256' | 'hub_ca_next_pem' | 'hub_ca_next_sha256'>;

/**
 * Replaces what a member trusts of its hub, nothing else (no pause lifted, no account touched).
 * False when the station is no member or already trusts exactly this.
 */
export async function saveSiteTrust(t: BoundTables, trust: SiteTrust): Promise<boolean> {
  const settings = await upstreamSettingsIn(t);
  if (!settings?.site) return false;
  // A successor no longer announced (it is served now) is not kept.
  const site = { member_id: settings.site.member_id, ...trust };
  const fields = ['hub_ca_pem', 'hub_ca_sha256', 'hub_ca_next_pem', 'hub_ca_next_sha256'] as const;
  if (fields.every((field) => site[field] === settings.site?.[field])) return false;
  await t.station_meta.put({ key: SETTINGS_KEY, value: { ...settings, site } });
  await followHubAuthority(t, settings, { ...settings, site });
  return true;
}

export async function writeUpstreamSettings(store: StationStore, settings: UpstreamSettings, now: string): Promise<void> {
  await store.write((t) => saveUpstreamSettings(t, settings, now));
}

export async function deleteUpstreamSettings(t: BoundTables): Promise<boolean> {
  const had = (await t.station_meta.get(SETTINGS_KEY)) !== undefined;
  await t.station_meta.delete(SETTINGS_KEY);
  return had;
}

/** The settings as the station's tables hold them (any read or write transaction); a row of the one-URL shape is read as its two addresses. */
export async function upstreamSettingsIn(t: Pick<ReadTables, 'station_meta'>): Promise<UpstreamSettings | null> {
  const row = await t.station_meta.get(SETTINGS_KEY);
  return row ? (storedSettingsOf(row.value)?.settings ?? null) : null;
}

/**
 * Rewrites a settings row stored before the two addresses (`{url, token, accounts}`) in this
 * version's shape, at the data directory's open (serve, the desktop app and the CLI commands), so
 * the file holds the new shape from the first start on. Only the row changes: no pause is lifted,
 * no account made. Resolves to the settings it wrote, or null when there was nothing to rewrite.
 */
export async function upgradeUpstreamSettings(store: StationStore): Promise<UpstreamSettings | null> {
  const row = await store.tables.station_meta.get(SETTINGS_KEY);
  if (!row || !storedSettingsOf(row.value)?.oneUrl) return null;
  return store.write(async (t) => {
    const current = await t.station_meta.get(SETTINGS_KEY);
    const stored = current ? storedSettingsOf(current.value) : null;
    if (!stored?.oneUrl) return null;
    await t.station_meta.put({ key: SETTINGS_KEY, value: stored.settings });
    return stored.settings;
  });
}

export async function removeUpstreamSettings(store: StationStore): Promise<boolean> {
  return store.write((t) => deleteUpstreamSettings(t));
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
