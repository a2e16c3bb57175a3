import { RETURN_PACKAGE_FIELDS } from '#shared/fields/return-package.ts';
import { goesUpOnChange, goesUpOnCreate, isSynced, namesWhere, type SyncedName } from '#shared/fields/table.ts';
import type { ReturnPackage } from '../../store/index.ts';
import type { UpstreamPackage } from '../upstream/upstream-records.ts';

/*
 * Which package fields go up, and who owns which on the way down (docs/decisions/sync.md): read
 * from the package's field table (shared/fields/return-package.ts), its `owner` and `up` columns.
 */

const FIELDS = RETURN_PACKAGE_FIELDS;

/** The fields exchanged with the upstream (the dock's and the back office's): the synced snapshot's. */
export type SyncedField = SyncedName<typeof FIELDS>;
export const SYNCED_FIELDS = namesWhere(FIELDS, isSynced) as readonly SyncedField[];

/** The dock's fields: the station's value wins (status only forward, see apply-upstream.ts). */
export const STATION_OWNED: ReadonlySet<SyncedField> = new Set(namesWhere(FIELDS, (row) => row.owner === 'dock') as SyncedField[]);

/** The back office's fields: the upstream's value wins. */
export const UPSTREAM_OWNED: ReadonlySet<SyncedField> = new Set(namesWhere(FIELDS, (row) => row.owner === 'office') as SyncedField[]);

/** What a create sends (when not null), and what an update sends when it changed. */
export const SENT_ON_CREATE = namesWhere(FIELDS, (row) => isSynced(row) && goesUpOnCreate(row)) as readonly SyncedField[];
const SENT_ON_CHANGE = namesWhere(FIELDS, (row) => isSynced(row) && goesUpOnChange(row)) as readonly SyncedField[];

/** The dock's fields a create does not carry: the upstream starts them empty, so a value set here goes in the update that follows. */
export const EMPTY_AFTER_CREATE: Readonly<Partial<Record<SyncedField, null>>> = Object.fromEntries(
  SENT_ON_CHANGE.filter((field) => !SENT_ON_CREATE.includes(field)).map((field) => [field, null]),
);

export type FieldValues = Partial<Record<SyncedField, unknown>>;

/** The synced fields of a local package. */
export function localValues(pkg: ReturnPackage): Record<SyncedField, unknown> {
  const values = {} as Record<SyncedField, unknown>;
  for (const field of SYNCED_FIELDS) values[field] = pkg[field] ?? null;
  return values;
}

/**
 * The one gate of a package held for review (domain/reviews.ts): a returns service may refund on
 * `received`, so a held package's move to `received` waits for the supervisor's decision — to a
 * returns service and to a site's hub alike (the hub, which alone talks to the returns service, never
 * has it received before then). Released, it goes up as usual; confirmed, with the finding in `notes`.
 */
export const statusHeldBack = (pkg: Pick<ReturnPackage, 'status' | 'review'>): boolean => pkg.status === 'received' && pkg.review?.state === 'held';

/** The synced fields an upstream answer carries (a list item lacks some: those stay absent; an unknown status was left out). */
export function upstreamValues(u: UpstreamPackage): FieldValues {
  const values: FieldValues = {};
  for (const field of SYNCED_FIELDS) if (u[field] !== undefined) values[field] = u[field];
  return values;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The fields sent on change (the dock's) whose local value differs from the synced snapshot: what a
 * PATCH sends. A local edit of a back-office field is not sent: the upstream owns it, and the next pull puts its value
 * back (written down in sync_conflicts). Creates carry every field.
 */
export function unsentFields(pkg: ReturnPackage, synced: Record<string, unknown>, site: boolean): SentValues {
  const diff: SentValues = {};
  const local = localValues(pkg);
  const heldBack = statusHeldBack(pkg);
  for (const field of SENT_ON_CHANGE) {
    if (field === 'status' && heldBack) continue;
    if (!sameValue(local[field], synced[field])) diff[field] = local[field];
  }
  // A site's hub also takes when the station received it (a returns service of the spec sets its own), with the receipt.
  if (site && !heldBack && !sameValue(pkg.processed_at, synced.processed_at)) diff.processed_at = pkg.processed_at;
  if (site && !heldBack && !sameValue(pkg.processor_name, synced.processor_name)) diff.processor_name = pkg.processor_name ?? null;
  return diff;
}

/** What a PATCH sends: the dock's fields, and `processed_at` and `processor_name` to a site's hub. */
export type SentValues = FieldValues & { processed_at?: string | null; processor_name?: string | null };
