import { z } from 'zod';
import { DISPOSITIONS } from '../dispositions.ts';
import { GetCarrierSchema, ListCarrierSchema, RETURN_PACKAGE_FIELDS } from '../fields/return-package.ts';
import { answerSchema, bodyShape, namesWhere } from '../fields/table.ts';
import { PACKAGE_STATUSES } from '../package-status.ts';
import { IdParamSchema, IdSchema, MAX_LENGTH, NOT_BLANK_PATTERN, PaginationQueryShape, TimestampInputSchema, commaListSchema, listResponse } from './common.ts';
import { MediaFileSchema, MediaTypeSchema } from './media.ts';

/*
 * Return packages (docs/api-reference.md, Return packages).
 */

export { GetCarrierSchema, ListCarrierSchema };

// ---------------------------------------------------------------------------------------------
// Requests

type UnitPairs = {
  weight?: number | null;
  weight_unit?: string | null;
  width?: number | null;
  height?: number | null;
  length?: number | null;
  dimension_unit?: string | null;
  shipping_label_cost?: number | null;
  shipping_label_cost_currency?: string | null;
};

/** JSON Schema: the named fields are given and not null. */
const given = (...names: string[]) => ({ required: names, properties: Object.fromEntries(names.map((name) => [name, { not: { type: 'null' } }])) });

/**
 * `requireUnits` as JSON Schema: a weight that is a number needs a `weight_unit` that is not null; so
 * does any of the three dimensions with `dimension_unit`, and `shipping_label_cost` with its currency.
 */
const UNIT_PAIRS_JSON_SCHEMA = [
  { if: given('weight'), then: given('weight_unit') },
  { if: { anyOf: [given('width'), given('height'), given('length')] }, then: given('dimension_unit') },
  { if: given('shipping_label_cost'), then: given('shipping_label_cost_currency') },
];

/** A measure without its unit means nothing: require the unit whenever a value is given. */
function requireUnits(body: UnitPairs, ctx: z.RefinementCtx): void {
  const need = (has: boolean, unit: string | null | undefined, path: string, what: string) => {
    if (has && (unit === undefined || unit === null)) {
      ctx.addIssue({ code: 'custom', path: [path], message: `Required when ${what} is given.` });
    }
  };
  const present = (v: number | null | undefined) => v !== undefined && v !== null;
  need(present(body.weight), body.weight_unit, 'weight_unit', 'weight');
  need(present(body.width) || present(body.height) || present(body.length), body.dimension_unit, 'dimension_unit', 'a dimension');
  need(present(body.shipping_label_cost), body.shipping_label_cost_currency, 'shipping_label_cost_currency', 'shipping_label_cost');
}

/**
 * `POST .../return_packages`: flat and strict. Required `return_id` and `tracking_number`; the
 * others optional (omitted = null); `status` ∈ pending|in_transit|delivered|received, default
 * in_transit. A weight, dimension or cost needs its unit or currency.
 */
export const ReturnPackageCreateSchema = z
  .strictObject(bodyShape(RETURN_PACKAGE_FIELDS, 'create'))
  .superRefine(requireUnits)
  .meta({ allOf: UNIT_PAIRS_JSON_SCHEMA });
export type ReturnPackageCreate = z.infer<typeof ReturnPackageCreateSchema>;
export type ReturnPackageCreateInput = z.input<typeof ReturnPackageCreateSchema>;

/** Names a PATCH may change (docs/api-reference.md, Return packages). */
export const PACKAGE_UPDATE_FIELDS = namesWhere(RETURN_PACKAGE_FIELDS, (row) => row.update !== undefined);

/**
 * `PATCH .../return_packages/{id}`: strict, at least one field. `null` clears an optional value;
 * `status` and `tracking_number` cannot be null. A measure or cost may change without its unit or
 * currency (it keeps the stored one): the pairing is a rule of create only.
 */
export const ReturnPackageUpdateSchema = z
  .strictObject(bodyShape(RETURN_PACKAGE_FIELDS, 'update'))
  .refine((body) => Object.keys(body).length > 0, 'Give at least one field to change.')
  .meta({ minProperties: 1 });
export type ReturnPackageUpdate = z.infer<typeof ReturnPackageUpdateSchema>;
export type ReturnPackageUpdateInput = z.input<typeof ReturnPackageUpdateSchema>;

// ---------------------------------------------------------------------------------------------
// Responses: the exact field sets L, C, G, U (docs/api-reference.md, Which fields each answer carries); unknown optional values are null.

export const DimensionsSchema = RETURN_PACKAGE_FIELDS.dimensions.type;

/** L: an element of `GET .../return_packages`. */
export const ReturnPackageListItemSchema = answerSchema(RETURN_PACKAGE_FIELDS, 'L');
export type ReturnPackageListItem = z.infer<typeof ReturnPackageListItemSchema>;

/** C: the answer of `POST .../return_packages`. */
export const ReturnPackageCreatedSchema = answerSchema(RETURN_PACKAGE_FIELDS, 'C');
export type ReturnPackageCreated = z.infer<typeof ReturnPackageCreatedSchema>;

/** G: the answer of `GET .../return_packages/{id}`. */
export const ReturnPackageSchema = answerSchema(RETURN_PACKAGE_FIELDS, 'G');
export type ReturnPackage = z.infer<typeof ReturnPackageSchema>;

/** U: the answer of `PATCH .../return_packages/{id}`. */
export const ReturnPackageUpdatedSchema = answerSchema(RETURN_PACKAGE_FIELDS, 'U');
export type ReturnPackageUpdated = z.infer<typeof ReturnPackageUpdatedSchema>;

/**
 * Station addition for a site's stations (docs/decisions/site-receipt.md), `GET
 * .../return_packages/{id}/site_receipt`: the whole receipt — G, the dock's `notes` and who received
 * it by name (`processor_name`), each media
 * file with what a station needs to show it from the hub and to know its bytes (`sha256`,
 * `content_type`, `size`).
 */
export const SiteReceiptSchema = ReturnPackageSchema.extend({
  notes: z.string().nullable(),
  /** Who received it, by name (operators are each station's own). */
  processor_name: z.string().nullable(),
  media_files: z.array(
    MediaFileSchema.extend({
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      content_type: MediaTypeSchema,
      size: z.int().nonnegative(),
    }),
  ),
});
export type SiteReceipt = z.infer<typeof SiteReceiptSchema>;

/** The field names of each presence column (L, C, G, U), in response order. */
export const PACKAGE_FIELD_SETS = {
  L: Object.keys(ReturnPackageListItemSchema.shape),
  C: Object.keys(ReturnPackageCreatedSchema.shape),
  G: Object.keys(ReturnPackageSchema.shape),
  U: Object.keys(ReturnPackageUpdatedSchema.shape),
} as const;

export const ReturnPackageListResponseSchema = listResponse(ReturnPackageListItemSchema);
export type ReturnPackageListResponse = z.infer<typeof ReturnPackageListResponseSchema>;

// ---------------------------------------------------------------------------------------------
// List query

export const PACKAGE_SORTS = ['created_at', '-created_at', 'updated_at', '-updated_at', 'id', '-id'] as const;
export const PackageSortSchema = z.enum(PACKAGE_SORTS);

/**
 * Query of `GET .../return_packages`: `status` (comma-separated), `return_id`, `tracking_number`
 * (exact, case-insensitive), `carrier_id`, `location_id`, `updated_since` (inclusive), `sort`
 * (default `-created_at`), `page`, `per_page`. Unknown parameters are rejected (400).
 */
export const ReturnPackageListQuerySchema = z.strictObject({
  ...PaginationQueryShape,
  status: commaListSchema(PACKAGE_STATUSES).optional(),
  return_id: IdParamSchema.optional(),
  tracking_number: z.string().min(1).max(MAX_LENGTH.trackingNumber).optional(),
  /** Station extension: tracking numbers that start with this, case-insensitive (docs/api-decisions.md, List search). */
  tracking_number_prefix: z.string().trim().min(1).max(MAX_LENGTH.trackingNumber).meta({ pattern: NOT_BLANK_PATTERN }).optional(),
  /** Station extension: tracking numbers containing this, case-insensitive; 1–2 characters: starting with it (docs/api-decisions.md, List search). */
  tracking_number_contains: z
    .string()
    .trim()
    .min(1)
    .max(MAX_LENGTH.trackingNumber)
    .meta({
      pattern: NOT_BLANK_PATTERN,
      description: 'Tracking numbers containing this text, case-insensitive; a text of 1 or 2 characters finds those starting with it.',
    })
    .optional(),
  carrier_id: IdParamSchema.optional(),
  location_id: IdParamSchema.optional(),
  updated_since: TimestampInputSchema.optional(),
  /** Station extension: packages with a line item of any of these dispositions (docs/api-decisions.md, List search). */
  disposition: commaListSchema(DISPOSITIONS).optional(),
  sort: PackageSortSchema.default('-created_at'),
});
export type ReturnPackageListQuery = z.infer<typeof ReturnPackageListQuerySchema>;

/**
 * Station extension, `GET /api/v1/station/return_packages` (station token): the packages of every
 * account on the station, or of `account_id`, with the same filters, sorts and pages as an account's
 * list; each row names its account.
 */
export const StationPackageListQuerySchema = ReturnPackageListQuerySchema.extend({ account_id: IdParamSchema.optional() });
export type StationPackageListQuery = z.infer<typeof StationPackageListQuerySchema>;
export const StationPackageListItemSchema = ReturnPackageListItemSchema.extend({ account_id: IdSchema });
export type StationPackageListItem = z.infer<typeof StationPackageListItemSchema>;
export const StationPackageListResponseSchema = listResponse(StationPackageListItemSchema);
export type StationPackageListResponse = z.infer<typeof StationPackageListResponseSchema>;
