import { z } from 'zod';
import {
  BarcodeSchema,
  boundedText,
  IdSchema,
  MAX_LENGTH,
  NameSchema,
  NotesSchema,
  QuantitySchema,
  SkuSchema,
  TimestampInputSchema,
  TimestampSchema,
  textRule,
  WHITE_SPACE,
} from './common.ts';
import { BIN_PATTERN, CONDITIONS, DISPOSITION_SOURCES, DISPOSITIONS, MAX_BIN_LENGTH } from '../dispositions.ts';

/*
 * Package line items: the inspection results recorded on a return package (docs/api-reference.md, Return packages).
 */

/** Item conditions: `new` unopened, `like_new` grade A, `good` B, `fair` C, `damaged` D, `unsellable`. */
export { CONDITIONS };
export const ConditionSchema = z.enum(CONDITIONS);
export type Condition = z.infer<typeof ConditionSchema>;

/** Where a unit goes next (shared/dispositions.ts; docs/api-reference.md, Dispositions). */
export const DispositionSchema = z.enum(DISPOSITIONS);
export const DispositionSourceSchema = z.enum(DISPOSITION_SOURCES);
/** A bin or tote code: 1–20 visible ASCII characters, no spaces. */
export const BinSchema = z
  .string()
  .min(1, 'Give a bin code.')
  .max(MAX_BIN_LENGTH)
  .regex(new RegExp(BIN_PATTERN), 'A bin code is 1–20 visible ASCII characters (letters, digits, - _ . / …) without spaces.')
  .meta({ description: 'A bin or tote code: 1–20 visible ASCII characters without spaces; compared without regard to case.' });
export const MAX_DISPOSITION_REASON_LENGTH = 200;

export const MAX_TAGS = 20;
/** A tag: 1–40 visible characters, no white space. */
export const TagSchema = z
  .string()
  .min(1)
  .max(MAX_LENGTH.tag)
  .regex(textRule(`^[^${WHITE_SPACE}]+$`), 'Tags contain no white space.');
export const TagsSchema = z
  .array(TagSchema)
  .max(MAX_TAGS)
  .refine((tags) => new Set(tags).size === tags.length, 'Tags must be unique.')
  .meta({ uniqueItems: true });

const lineItemFields = {
  /** A line of the package's return, or null for an unexpected item. */
  return_line_item_id: IdSchema.nullable(),
  quantity: QuantitySchema,
  merchant_sku: SkuSchema.nullable(),
  /** Defaults to the return line's name. */
  name: NameSchema.nullable(),
  condition: ConditionSchema.nullable(),
  defective: z.boolean(),
  notes: NotesSchema.nullable(),
  barcode: BarcodeSchema.nullable(),
  tags: TagsSchema,
};

/** The dock worker who sets the condition (an operator id, as `processor_id`); null or left out: not recorded. */
const ConditionBySchema = IdSchema.nullable()
  .optional()
  .meta({ description: 'The worker who set the condition (an operator of the station); only with a condition that is not null.' });

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
    return_line_item_id: lineItemFields.return_line_item_id.default(null),
    quantity: lineItemFields.quantity.default(1),
    merchant_sku: lineItemFields.merchant_sku.optional(),
    name: lineItemFields.name.optional(),
    condition: lineItemFields.condition.default(null),
    defective: lineItemFields.defective.default(false),
    notes: lineItemFields.notes.default(null),
    barcode: lineItemFields.barcode.default(null),
    tags: lineItemFields.tags.default([]),
    condition_by: ConditionBySchema,
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
    return_line_item_id: lineItemFields.return_line_item_id.optional(),
    quantity: lineItemFields.quantity.optional(),
    merchant_sku: lineItemFields.merchant_sku.optional(),
    name: lineItemFields.name.optional(),
    condition: lineItemFields.condition.optional(),
    defective: lineItemFields.defective.optional(),
    notes: lineItemFields.notes.optional(),
    barcode: lineItemFields.barcode.optional(),
    tags: lineItemFields.tags.optional(),
    /** An override of the rules' disposition (with `disposition_reason`); null goes back to the rules. */
    disposition: DispositionSchema.nullable().optional(),
    /** The override's bin; by default the bin of the first rule with that disposition. */
    bin: BinSchema.optional(),
    disposition_reason: boundedText(MAX_DISPOSITION_REASON_LENGTH).optional(),
    /** The dock worker who overrides (an operator id, as `processor_id`); null or left out: not recorded. */
    disposition_by: IdSchema.nullable().optional(),
    condition_by: ConditionBySchema,
    /** A site's station says what it decided (instead of an override or the rules). */
    site_unit: SiteUnitSchema.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Give at least one field to change.')
  .superRefine(overrideFields)
  .superRefine(siteUnitAlone)
  .superRefine(conditionByField)
  .meta({ minProperties: 1, allOf: [...OVERRIDE_JSON_SCHEMA, CONDITION_BY_JSON_SCHEMA, SITE_UNIT_ALONE_JSON_SCHEMA] });
export type PackageLineItemUpdate = z.infer<typeof PackageLineItemUpdateSchema>;

export const DispositionOverrideSchema = z.object({ by: z.int().nullable(), reason: z.string(), at: TimestampSchema });

/** A package line item as answered (element of a package's `line_items`). */
export const PackageLineItemSchema = z.object({
  id: z.int(),
  return_line_item_id: z.int().nullable(),
  quantity: z.int(),
  merchant_sku: z.string().nullable(),
  name: z.string().nullable(),
  condition: ConditionSchema.nullable(),
  defective: z.boolean(),
  notes: z.string().nullable(),
  barcode: z.string().nullable(),
  /** Includes the station's `disposition:<key>`, `bin:<code>` and `unit:<id>` tags. */
  tags: z.array(z.string()),
  /** Null until a rule matches or a person overrides. */
  disposition: DispositionSchema.nullable(),
  bin: z.string().nullable(),
  /** The unit's id, unique across stations (`RS-<station>-<n>`); given once, with the first disposition. */
  unit_id: z.string().nullable(),
  disposition_source: DispositionSourceSchema.nullable(),
  /** Who overrode the rules (an operator id, or null), why and when; null when the rules decide. */
  disposition_override: DispositionOverrideSchema.nullable(),
  /** When the put to `bin` was confirmed (scan of the bin); null until then, and again after the bin changes. */
  put_confirmed_at: TimestampSchema.nullable(),
  /** Who confirmed the put (an operator id), null when not named or not put. */
  put_by: z.int().nullable(),
  /** Who set the condition (an operator id, or null when not named) and when; both null while the condition is unset. */
  condition_by: z.int().nullable(),
  condition_at: TimestampSchema.nullable(),
  /**
   * When the unit's label was first asked for (a print job made: waiting, sent, printed or handed to the
   * browser); null while it has none, and again once every job of it is cancelled. While it is set the
   * item's quantity cannot change and it cannot be removed (409 `UNIT_LABELLED_OR_PUT`).
   */
  labelled_at: TimestampSchema.nullable(),
});
export type PackageLineItem = z.infer<typeof PackageLineItemSchema>;

/** `POST .../line_items/{line_item_id}/put`: the bin scanned where the unit was put, and by whom. */
export const PutConfirmationSchema = z.strictObject({
  bin: BinSchema,
  /** The worker who put the unit (an operator of the station); null or left out: not recorded. */
  put_by: IdSchema.nullable().optional(),
});
export type PutConfirmation = z.infer<typeof PutConfirmationSchema>;
