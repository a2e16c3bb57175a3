import { PACKAGE_UPDATE_FIELDS } from '#shared/api/return-packages.ts';
import type { ReturnPackage } from '../../store/index.ts';
import type { UpstreamPackage } from '../upstream/upstream-records.ts';

/*
 * Which package fields go up, and who owns which on the way down (docs/decisions/sync.md).
 */

/** Fields a PATCH sends, by the contract's names (= the record's). `processor_id` stays local. */
export const PUSHED_FIELDS: readonly PushedField[] = PACKAGE_UPDATE_FIELDS.filter((field): field is PushedField => field !== 'processor_id');
export type PushedField = Exclude<(typeof PACKAGE_UPDATE_FIELDS)[number], 'processor_id'>;

/** The dock's fields: the station's value wins (status only forward, see apply-upstream.ts). */
export const STATION_OWNED: ReadonlySet<PushedField> = new Set(['status', 'actual_arrival', 'notes']);

/** The back office's fields (every other pushed field): the upstream's value wins. */
export const UPSTREAM_OWNED: ReadonlySet<PushedField> = new Set(PUSHED_FIELDS.filter((field) => !STATION_OWNED.has(field)));

export type FieldValues = Partial<Record<PushedField, unknown>>;

/** The pushed fields of a local package. */
export function localValues(pkg: ReturnPackage): Record<PushedField, unknown> {
  const values = {} as Record<PushedField, unknown>;
  for (const field of PUSHED_FIELDS) values[field] = pkg[field] ?? null;
  return values;
}

/** The pushed fields an upstream answer carries (a list item lacks some: those stay absent). */
export function upstreamValues(u: UpstreamPackage): FieldValues {
  const values: FieldValues = { tracking_number: u.tracking_number };
  // An unknown status was left out by the reader: the station keeps its own.
  if (u.status !== undefined) values.status = u.status;
  const set = (field: PushedField, value: unknown) => {
    if (value !== undefined) values[field] = value;
  };
  set('estimated_arrival', u.estimated_arrival);
  set('actual_arrival', u.actual_arrival);
  set('notes', u.notes);
  set('shipping_method', u.shipping_method);
  set('weight', u.weight);
  set('weight_unit', u.weight_unit);
  if (u.dimensions) {
    set('width', u.dimensions.width);
    set('height', u.dimensions.height);
    set('length', u.dimensions.length);
    set('dimension_unit', u.dimensions.dimension_unit);
  }
  set('shipping_label_cost', u.shipping_label_cost);
  set('shipping_label_cost_currency', u.shipping_label_cost_currency);
  set('carrier_id', u.carrier_id !== undefined ? u.carrier_id : u.carrier === null ? null : u.carrier?.id);
  set('location_id', u.location_id);
  return values;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The dock's fields whose local value differs from the synced snapshot: what a PATCH sends. A local
 * edit of a back-office field is not sent: the upstream owns it, and the next pull puts its value
 * back (written down in sync_conflicts). Creates carry every field.
 */
export function unsentFields(pkg: ReturnPackage, synced: Record<string, unknown>, site: boolean): SentValues {
  const diff: SentValues = {};
  const local = localValues(pkg);
  for (const field of STATION_OWNED) if (!sameValue(local[field], synced[field])) diff[field] = local[field];
  // A site's hub also takes when the station received it (a returns service of the spec sets its own).
  if (site && !sameValue(pkg.processed_at, synced.processed_at)) diff.processed_at = pkg.processed_at;
  if (site && !sameValue(pkg.processor_name, synced.processor_name)) diff.processor_name = pkg.processor_name ?? null;
  return diff;
}

/** What a PATCH sends: the dock's fields, and `processed_at` and `processor_name` to a site's hub. */
export type SentValues = FieldValues & { processed_at?: string | null; processor_name?: string | null };
