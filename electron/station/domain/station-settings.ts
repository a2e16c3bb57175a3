import { DEFAULT_STATION_SETTINGS, StationSettingsSchema, type StationSettings, type StationSettingsUpdate } from '#shared/api/station-settings.ts';
import type { BoundTables, ReadTables } from '../store/index.ts';
import { logChange } from './change-log.ts';
import { advance } from './clock.ts';
import type { DomainContext } from './context.ts';

/** One `station_meta` row holds them: they belong to the data directory, not to a terminal. */
const SETTINGS_KEY = 'station.settings';

/** The settings as any read or write transaction sees them; the defaults when never set (or unreadable). */
export async function settingsIn(t: Pick<ReadTables, 'station_meta'>): Promise<StationSettings> {
  const row = await t.station_meta.get(SETTINGS_KEY);
  const parsed = StationSettingsSchema.safeParse(row?.value);
  return parsed.success ? parsed.data : DEFAULT_STATION_SETTINGS;
}

export function stationSettings(ctx: DomainContext): Promise<StationSettings> {
  return settingsIn(ctx.store.tables);
}

/** Applies the fields given inside the caller's write; a change is logged like any other (who changed the station, and when). */
export async function changeSettingsIn(t: BoundTables, now: string, patch: StationSettingsUpdate): Promise<StationSettings> {
  const before = await settingsIn(t);
  // Moves forward on every change, also within one millisecond: terminals take a change by it.
  const { labels, weight_check, ...rest } = patch;
  const next: StationSettings = {
    ...before,
    ...rest,
    labels: { ...before.labels, ...labels },
    weight_check: { ...before.weight_check, ...weight_check },
    updated_at: before.updated_at === null ? now : advance(before.updated_at, now),
  };
  if (JSON.stringify({ ...next, updated_at: null }) === JSON.stringify({ ...before, updated_at: null })) return before;
  await t.station_meta.put({ key: SETTINGS_KEY, value: next });
  await logChange(t, { account_id: null, resource: 'station_settings', resource_id: 1, action: 'updated', data: next, at: now });
  return next;
}
