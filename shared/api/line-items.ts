import { z } from 'zod';
import {
  BarcodeSchema,
  IdSchema,
  MAX_LENGTH,
  NameSchema,
  NotesSchema,
  QuantitySchema,
  SkuSchema,
} from './common.ts';

/*
 * Package line items: the inspection results recorded on a return package (docs/api-reference.md, Return packages).
 */

/** Item conditions: `new` unopened, `like_new` grade A, `good` B, `fair` C, `damaged` D, `unsellable`. */
export const CONDITIONS = ['new', 'like_new', 'good', 'fair', 'damaged', 'unsellable'] as const;
export const ConditionSchema = z.enum(CONDITIONS);
export type Condition = z.infer<typeof ConditionSchema>;

/** Dispositions suggested for `tags` (any short tag is accepted). */
export const SUGGESTED_TAGS = ['restock', 'quarantine', 'refurbish', 'dispose'] as const;

export const MAX_TAGS = 20;
/** A tag: 1–40 visible characters, no white space. */
export const TagSchema = z
  .string()
  .min(1)
  .max(MAX_LENGTH.tag)
  .regex(/^\S+$/u, 'Tags contain no white space.');
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

/**
 * `POST .../return_packages/{id}/line_items`. Defaults: `return_line_item_id` null (unexpected
 * item), `quantity` 1, `defective` false, `tags` []; `name` and `merchant_sku` from the return
 * line when omitted; `condition`, `notes`, `barcode` null.
 */
export const PackageLineItemCreateSchema = z.strictObject({
  return_line_item_id: lineItemFields.return_line_item_id.default(null),
  quantity: lineItemFields.quantity.default(1),
  merchant_sku: lineItemFields.merchant_sku.optional(),
  name: lineItemFields.name.optional(),
  condition: lineItemFields.condition.default(null),
  defective: lineItemFields.defective.default(false),
  notes: lineItemFields.notes.default(null),
  barcode: lineItemFields.barcode.default(null),
  tags: lineItemFields.tags.default([]),
});
export type PackageLineItemCreate = z.infer<typeof PackageLineItemCreateSchema>;
export type PackageLineItemCreateInput = z.input<typeof PackageLineItemCreateSchema>;

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
  })
  .refine((body) => Object.keys(body).length > 0, 'Give at least one field to change.')
  .meta({ minProperties: 1 });
export type PackageLineItemUpdate = z.infer<typeof PackageLineItemUpdateSchema>;

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
  tags: z.array(z.string()),
});
export type PackageLineItem = z.infer<typeof PackageLineItemSchema>;
