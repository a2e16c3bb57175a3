import { DEFAULT_SCALE, ScaleSettingSchema, type ScaleSetting, type ScaleSettings } from '#shared/api/scale.ts';
import type { BoundTables, ReadTables } from '../store/index.ts';
import { advance } from './clock.ts';

/**
 * The scale is a device of this station (like its printer), not a rule of its site: one
 * `station_meta` row of its own, apart from the other settings, so a site's hub never hands it out.
 */
const SCALE_KEY = 'station.scale';

/** The scale as any read or write transaction sees it; typed by hand when never set (or unreadable). */
export async function scaleSettingsIn(t: Pick<ReadTables, 'station_meta'>): Promise<ScaleSettings> {
  const row = (await t.station_meta.get(SCALE_KEY))?.value as { scale?: unknown; updated_at?: unknown } | undefined;
  const scale = ScaleSettingSchema.safeParse(row?.scale);
  if (!scale.success) return { scale: DEFAULT_SCALE, updated_at: null };
  return { scale: scale.data, updated_at: typeof row?.updated_at === 'string' ? row.updated_at : null };
}

/** Chooses the scale inside the caller's write. */
export async function chooseScaleIn(t: BoundTables, now: string, scale: ScaleSetting): Promise<ScaleSettings> {
  const before = await scaleSettingsIn(t);
  const next: ScaleSettings = { scale, updated_at: before.updated_at === null ? now : advance(before.updated_at, now) };
  await t.station_meta.put({ key: SCALE_KEY, value: next });
  return next;
}
