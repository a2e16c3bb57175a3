import { z } from 'zod';
import { DIMENSION_UNITS, normaliseTimestamp, WEIGHT_UNITS } from '#shared/api/common.ts';
import { SHIPPING_METHODS } from '#shared/api/return-packages.ts';
import { PACKAGE_STATUSES, type PackageStatus } from '#shared/package-status.ts';

/*
 * What sync reads from the upstream, read as a tolerant reader (docs/decisions/sync.md): any server
 * of the returns service interface. A record needs only what the station cannot do without (an id; a
 * package's tracking number and return); every other field that is missing, null, malformed or a
 * value the station does not know is left out, so the station keeps its own value, and an unknown
 * value is named in the record's `notes` for a person. One bad record never blocks its page.
 * Timestamps are normalised to the station's UTC form so values compare equal on both sides.
 */

const timestamp = z.string().transform((value, ctx) => {
  const normalised = normaliseTimestamp(value);
  if (normalised === null) {
    ctx.addIssue({ code: 'custom', message: 'Expected an ISO 8601 timestamp.' });
    return z.NEVER;
  }
  return normalised;
});

/** A field the reader can do without: absent when missing or unreadable, null when the upstream says null. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional().catch(undefined);

const PackageCore = z.object({
  id: z.int().positive(),
  return_id: z.int().positive(),
  tracking_number: z.string().trim().min(1),
});

const PackageRest = z.object({
  status: optional(z.string()),
  estimated_arrival: optional(timestamp),
  actual_arrival: optional(timestamp),
  shipping_method: optional(z.string()),
  weight: optional(z.number().nonnegative()),
  weight_unit: optional(z.string()),
  dimensions: optional(
    z.object({
      length: optional(z.number().nonnegative()),
      width: optional(z.number().nonnegative()),
      height: optional(z.number().nonnegative()),
      dimension_unit: optional(z.string()),
    }),
  ),
  shipping_label_cost: optional(z.number().nonnegative()),
  shipping_label_cost_currency: optional(z.string().regex(/^[A-Z]{3}$/)),
  carrier_id: optional(z.int()),
  carrier: optional(z.object({ id: z.int() })),
  location_id: optional(z.int()),
  notes: optional(z.string()),
  processed_at: optional(timestamp),
  created_at: optional(timestamp),
  updated_at: optional(timestamp),
});

export type UpstreamPackage = z.infer<typeof PackageCore> &
  Omit<z.infer<typeof PackageRest>, 'status' | 'shipping_method' | 'weight_unit' | 'dimensions'> & {
    status?: PackageStatus;
    shipping_method?: (typeof SHIPPING_METHODS)[number] | null;
    weight_unit?: (typeof WEIGHT_UNITS)[number] | null;
    dimensions?: { length?: number | null; width?: number | null; height?: number | null; dimension_unit?: (typeof DIMENSION_UNITS)[number] | null } | null;
    /** What the station could not take from this record, for a person ("status `x` is unknown to this station"). */
    notes_for_person?: string[];
  };

/** A record the station could not read at all: its upstream id when it has one, and why. */
export interface UnreadableRecord {
  upstream_id: number | null;
  message: string;
}

export type Read<T> = { ok: true; record: T } | { ok: false; unreadable: UnreadableRecord };

function idOf(raw: unknown): number | null {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'record'}: ${i.message}`).join('; ');
}

/** A value of a closed list the station knows, or left out with a note when it is another. */
function known<T extends string>(field: string, value: string | null | undefined, allowed: readonly T[], notes: string[]): T | null | undefined {
  if (value === undefined || value === null) return value;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  notes.push(`${field} \`${value}\` is unknown to this station`);
  return undefined;
}

export function readUpstreamPackage(raw: unknown): Read<UpstreamPackage> {
  const core = PackageCore.safeParse(raw);
  if (!core.success) return { ok: false, unreadable: { upstream_id: idOf(raw), message: `package cannot be stored (${describe(core.error)})` } };
  const rest = PackageRest.parse(typeof raw === 'object' && raw !== null ? raw : {});
  const notes: string[] = [];
  const { status, shipping_method, weight_unit, dimensions, ...others } = rest;
  const record: UpstreamPackage = { ...others, ...core.data };
  const knownStatus = known('status', status, PACKAGE_STATUSES, notes);
  if (knownStatus) record.status = knownStatus;
  const method = known('shipping_method', shipping_method, SHIPPING_METHODS, notes);
  if (method !== undefined) record.shipping_method = method;
  const unit = known('weight_unit', weight_unit, WEIGHT_UNITS, notes);
  if (unit !== undefined) record.weight_unit = unit;
  if (dimensions !== undefined) {
    if (dimensions === null) record.dimensions = null;
    else {
      const { dimension_unit, ...sizes } = dimensions;
      const dimensionUnit = known('dimension_unit', dimension_unit, DIMENSION_UNITS, notes);
      record.dimensions = { ...sizes, ...(dimensionUnit !== undefined ? { dimension_unit: dimensionUnit } : {}) };
    }
  }
  if (notes.length > 0) record.notes_for_person = notes;
  return { ok: true, record };
}

const ReturnLine = z.object({
  id: z.int(),
  quantity: z.int().nonnegative(),
  unreceived_quantity: optional(z.int().nonnegative()),
  name: optional(z.string()),
  price: optional(z.number()),
  currency: optional(z.string()),
  merchant_sku: optional(z.string()),
});

const ReturnShape = z.object({
  id: z.int().positive(),
  email: optional(z.string()),
  receive_by: optional(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)),
  total_price: optional(z.number()),
  currency: optional(z.string()),
  weight: optional(z.number().nonnegative()),
  weight_unit: optional(z.string()),
  reason_of_return: optional(z.string()),
  length: optional(z.number().nonnegative()),
  width: optional(z.number().nonnegative()),
  height: optional(z.number().nonnegative()),
  dimension_unit: optional(z.string()),
  return_line_items: z.array(ReturnLine),
  created_at: optional(timestamp),
  updated_at: optional(timestamp),
});

export type UpstreamReturn = Omit<z.infer<typeof ReturnShape>, 'weight_unit' | 'dimension_unit'> & {
  weight_unit?: (typeof WEIGHT_UNITS)[number] | null;
  dimension_unit?: (typeof DIMENSION_UNITS)[number] | null;
  notes_for_person?: string[];
};

export function readUpstreamReturn(raw: unknown): Read<UpstreamReturn> {
  const parsed = ReturnShape.safeParse(raw);
  if (!parsed.success) return { ok: false, unreadable: { upstream_id: idOf(raw), message: `return cannot be stored (${describe(parsed.error)})` } };
  const notes: string[] = [];
  const { weight_unit, dimension_unit, ...rest } = parsed.data;
  const record: UpstreamReturn = rest;
  const weightUnit = known('weight_unit', weight_unit, WEIGHT_UNITS, notes);
  if (weightUnit !== undefined) record.weight_unit = weightUnit;
  const dimensionUnit = known('dimension_unit', dimension_unit, DIMENSION_UNITS, notes);
  if (dimensionUnit !== undefined) record.dimension_unit = dimensionUnit;
  if (notes.length > 0) record.notes_for_person = notes;
  return { ok: true, record };
}

const Meta = z.object({
  current_page: z.int().optional().catch(undefined),
  total_pages: z.int().nonnegative(),
  total_count: z.int().nonnegative(),
  per_page: z.int().positive().optional().catch(undefined),
});
export type PageMeta = z.infer<typeof Meta>;

/**
 * A list answer: `{data, meta}` as the spec shows for packages, or a bare array (the returns
 * listings' shape is not shown: an array is every record at once). Null when it is neither.
 */
export interface ListAnswer {
  items: unknown[];
  /** Absent for a bare array (one page holds everything). */
  meta: PageMeta | null;
}

export function readListAnswer(body: unknown): ListAnswer | null {
  if (Array.isArray(body)) return { items: body, meta: null };
  const shaped = z.object({ data: z.array(z.unknown()), meta: Meta }).safeParse(body);
  if (shaped.success) return { items: shaped.data.data, meta: shaped.data.meta };
  return null;
}

/** Each item of a page read on its own: the records, and those that could not be read. */
export function readEach<T>(items: unknown[], read: (raw: unknown) => Read<T>): { records: T[]; unreadable: UnreadableRecord[] } {
  const records: T[] = [];
  const unreadable: UnreadableRecord[] = [];
  for (const item of items) {
    const result = read(item);
    if (result.ok) records.push(result.record);
    else unreadable.push(result.unreadable);
  }
  return { records, unreadable };
}
