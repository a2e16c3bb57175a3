import { z } from 'zod';
import { boundedText, IdSchema, TimestampInputSchema } from './common.ts';
import { BinSchema, DispositionSchema, DispositionSourceSchema, MAX_DISPOSITION_REASON_LENGTH, PACKAGE_LINE_ITEM_FIELDS } from '../fields/package-line-item.ts';
import { answerSchema, bodyShape } from '../fields/table.ts';

/*
 * Package line items: the inspection results recorded on a return package (docs/api-reference.md, Return packages).
 */

export {
  BinSchema,
  type Condition,
  ConditionSchema,
  DispositionSchema,
  MAX_DISPOSITION_REASON_LENGTH,
  MAX_TAGS,
  TagSchema,
} from '../fields/package-line-item.ts';

/** `condition_by` comes only with a condition (not null): who set nothing is not recorded. */
function conditionByField(body: { condition?: string | null; condition_by?: number | null }, ctx: z.RefinementCtx): void {
  if (body.condition_by !== undefined && (body.condition === undefined || body.condition === null)) {
    ctx.addIssue({ code: 'custom', path: ['condition_by'], message: 'Only with a condition: give condition (not null) too.' });
  }
}

/** JSON Schema: the named field is given and is not null. */
const given = (name: string) => ({ required: [name], properties: { [name]: { not: { type: 'null' } } } });

const CONDITION_BY_JSON_SCHEMA = { if: { required: ['condition_by'] }, then: given('condition') };

/** A unit id as stations make them: `RS-` + 8 of the station's id + `-` + the item's id on that station. */
export const UNIT_ID_PATTERN = '^RS-[A-Z0-9]{8}-[1-9][0-9]{0,15}$';

/**
 * Between a site's hub and its stations (docs/decisions/site-receipt.md): the unit's decision as the
 * station that made it recorded it — disposition, bin, unit id, a person's override, the put and when
 * the condition was set —
 * stored as given: the receiving station does not apply its own rules to it. Operator ids stay on the
 * station that has those operators.
 */
export const SiteUnitSchema = z
  .strictObject({
    disposition: DispositionSchema.nullable(),
    bin: BinSchema.nullable(),
    unit_id: z.string().regex(new RegExp(UNIT_ID_PATTERN)).nullable(),
    disposition_source: DispositionSourceSchema.nullable(),
    /** Why and when a person overrode the rules; null when the rules decided. */
    disposition_override: z.strictObject({ reason: boundedText(MAX_DISPOSITION_REASON_LENGTH), at: TimestampInputSchema }).nullable(),
    /** When the put into `bin` was confirmed; null while it was not. */
    put_confirmed_at: TimestampInputSchema.nullable(),
    /** When the condition was set at that station (null while unset). */
    condition_at: TimestampInputSchema.nullable(),
  })
  .meta({
    description:
      "A unit's disposition, bin, unit id, override, put and condition time as the site's station that decided them recorded them (a site's hub and its stations send it): stored as given, the station's own rules are not applied.",
  });
export type SiteUnit = z.infer<typeof SiteUnitSchema>;

/**
 * `POST .../return_packages/{id}/line_items`: one unit (the dock records every scanned unit as its
 * own item of quantity 1; an integrator may record N alike as one). Defaults: `return_line_item_id`
 * null (unexpected item), `quantity` 1, `defective` false, `tags` []; `name` and `merchant_sku`
 * from the return line when omitted; `condition`, `notes`, `barcode` null.
 */
export const PackageLineItemCreateSchema = z
  .strictObject({
    ...bodyShape(PACKAGE_LINE_ITEM_FIELDS, 'create'),
    site_unit: SiteUnitSchema.optional(),
  })
  .superRefine(conditionByField)
  .meta({ allOf: [CONDITION_BY_JSON_SCHEMA] });
export type PackageLineItemCreate = z.infer<typeof PackageLineItemCreateSchema>;
export type PackageLineItemCreateInput = z.input<typeof PackageLineItemCreateSchema>;

/**
 * `overrideFields` as JSON Schema: an override (a `disposition` that is not null) needs its reason; a
 * `bin`, reason or worker comes only with an override.
 */
const OVERRIDE_JSON_SCHEMA = [
  { if: given('disposition'), then: { required: ['disposition_reason'] } },
  { if: { required: ['bin'] }, then: given('disposition') },
  { if: { required: ['disposition_reason'] }, then: given('disposition') },
  { if: { required: ['disposition_by'] }, then: given('disposition') },
];

function overrideFields(
  body: { disposition?: string | null; bin?: string; disposition_reason?: string; disposition_by?: number | null },
  ctx: z.RefinementCtx,
): void {
  const overriding = body.disposition !== undefined && body.disposition !== null;
  if (overriding && body.disposition_reason === undefined) {
    ctx.addIssue({ code: 'custom', path: ['disposition_reason'], message: 'Say why the disposition is overridden (required with disposition).' });
  }
  for (const field of ['bin', 'disposition_reason', 'disposition_by'] as const) {
    if (body[field] !== undefined && !overriding)
      ctx.addIssue({ code: 'custom', path: [field], message: 'Only with an override: give disposition (not null) too.' });
  }
}

/** A recorded decision (`site_unit`) is not also an override: the two say different things of one unit. */
function siteUnitAlone(body: { site_unit?: unknown; disposition?: unknown }, ctx: z.RefinementCtx): void {
  if (body.site_unit !== undefined && body.disposition !== undefined)
    ctx.addIssue({ code: 'custom', path: ['site_unit'], message: 'Give site_unit or an override (disposition), not both.' });
}

const SITE_UNIT_ALONE_JSON_SCHEMA = { not: { required: ['site_unit', 'disposition'] } };

/** `PATCH .../line_items/{line_item_id}`: any of the fields, at least one. */
export const PackageLineItemUpdateSchema = z
  .strictObject({
    ...bodyShape(PACKAGE_LINE_ITEM_FIELDS, 'update'),
    disposition_reason: boundedText(MAX_DISPOSITION_REASON_LENGTH).optional(),
    /** The dock worker who overrides (an operator id, as `processor_id`); null or left out: not recorded. */
    disposition_by: IdSchema.nullable().optional(),
    /** A site's station says what it decided (instead of an override or the rules). */
    site_unit: SiteUnitSchema.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Give at least one field to change.')
  .superRefine(overrideFields)
  .superRefine(siteUnitAlone)
  .superRefine(conditionByField)
  .meta({ minProperties: 1, allOf: [...OVERRIDE_JSON_SCHEMA, CONDITION_BY_JSON_SCHEMA, SITE_UNIT_ALONE_JSON_SCHEMA] });
export type PackageLineItemUpdate = z.infer<typeof PackageLineItemUpdateSchema>;

/** A package line item as answered (element of a package's `line_items`). */
export const PackageLineItemSchema = answerSchema(PACKAGE_LINE_ITEM_FIELDS, 'G');
export type PackageLineItem = z.infer<typeof PackageLineItemSchema>;

/** `POST .../line_items/{line_item_id}/put`: the bin scanned where the unit was put, and by whom. */
export const PutConfirmationSchema = z.strictObject({
  bin: BinSchema,
  /** The worker who put the unit (an operator of the station); null or left out: not recorded. */
  put_by: IdSchema.nullable().optional(),
});
export type PutConfirmation = z.infer<typeof PutConfirmationSchema>;
