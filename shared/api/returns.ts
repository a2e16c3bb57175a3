import { z } from 'zod';
import { DISPOSITIONS } from '../dispositions.ts';
import {
  MAX_LENGTH,
  AmountSchema,
  CalendarDateSchema,
  CurrencySchema,
  DimensionUnitSchema,
  EmailSchema,
  IdSchema,
  IdParamSchema,
  NameSchema,
  NonNegativeInt32Schema,
  NOT_BLANK_PATTERN,
  PaginationQueryShape,
  QuantitySchema,
  ReasonSchema,
  SkuSchema,
  TimestampInputSchema,
  TimestampSchema,
  WeightUnitSchema,
  commaListSchema,
  listResponse,
} from './common.ts';

/*
 * Manual returns (docs/api-reference.md, Manual returns).
 */

export const MAX_RETURN_LINE_ITEMS = 1000;

/** Derived status of a return. */
export const RETURN_STATUSES = ['awaiting', 'partially_received', 'received'] as const;
export const ReturnStatusSchema = z.enum(RETURN_STATUSES);
export type ReturnStatus = z.infer<typeof ReturnStatusSchema>;

/** A line of `POST /returns`: every field required; `unreceived_quantity` is 0 … `quantity`. */
export const ReturnLineItemCreateSchema = z
  .strictObject({
    quantity: QuantitySchema,
    unreceived_quantity: NonNegativeInt32Schema,
    name: NameSchema,
    price: AmountSchema,
    currency: CurrencySchema,
    merchant_sku: SkuSchema,
  })
  .superRefine((line, ctx) => {
    if (line.unreceived_quantity > line.quantity) {
      ctx.addIssue({
        code: 'custom',
        path: ['unreceived_quantity'],
        message: 'Must not be greater than quantity.',
      });
    }
  });

/**
 * `POST /returns` body: the returns service's create request, every field required, unknown fields rejected.
 * `account_id` is only for station tokens (which act on every account); an account token acts on
 * its own account, and a different `account_id` is refused with 403.
 */
export const ManualReturnCreateSchema = z.strictObject({
  account_id: IdSchema.optional(),
  email: EmailSchema,
  receive_by: CalendarDateSchema,
  total_price: AmountSchema,
  currency: CurrencySchema,
  weight: NonNegativeInt32Schema,
  weight_unit: WeightUnitSchema,
  reason_of_return: ReasonSchema,
  length: NonNegativeInt32Schema,
  width: NonNegativeInt32Schema,
  height: NonNegativeInt32Schema,
  dimension_unit: DimensionUnitSchema,
  return_line_items: z.array(ReturnLineItemCreateSchema).min(1).max(MAX_RETURN_LINE_ITEMS),
});
export type ManualReturnCreate = z.infer<typeof ManualReturnCreateSchema>;
export type ManualReturnCreateInput = z.input<typeof ManualReturnCreateSchema>;

/** A line of a return record. */
export const ReturnLineItemSchema = z.object({
  id: z.int(),
  quantity: z.int(),
  unreceived_quantity: z.int(),
  name: z.string(),
  price: z.number(),
  currency: z.string(),
  merchant_sku: z.string(),
});
export type ReturnLineItem = z.infer<typeof ReturnLineItemSchema>;

/** The return record answered by `POST /returns` and listed by the return listings. */
export const ReturnRecordSchema = z.object({
  id: z.int(),
  account_id: z.int(),
  status: ReturnStatusSchema,
  email: z.string(),
  receive_by: z.string(),
  total_price: z.number(),
  currency: z.string(),
  weight: z.int(),
  weight_unit: WeightUnitSchema,
  reason_of_return: z.string(),
  length: z.int(),
  width: z.int(),
  height: z.int(),
  dimension_unit: DimensionUnitSchema,
  return_line_items: z.array(ReturnLineItemSchema),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type ReturnRecord = z.infer<typeof ReturnRecordSchema>;

/** Derives a return's status from its lines (docs/api-reference.md, Manual returns). */
export function deriveReturnStatus(lines: readonly Pick<ReturnLineItem, 'quantity' | 'unreceived_quantity'>[]): ReturnStatus {
  if (lines.every((l) => l.unreceived_quantity === 0)) return 'received';
  if (lines.every((l) => l.unreceived_quantity >= l.quantity)) return 'awaiting';
  return 'partially_received';
}

/** Query of `GET /api/v1/accounts/{account_id}/returns`: newest first. `email` is case-insensitive. */
export const ReturnListQueryShape = {
  ...PaginationQueryShape,
  status: commaListSchema(RETURN_STATUSES).optional(),
  email: z.string().min(1).max(254).optional(),
  /** Station extension: emails that start with this, case-insensitive (docs/api-decisions.md, List search). */
  email_prefix: z.string().trim().min(1).max(254).meta({ pattern: NOT_BLANK_PATTERN }).optional(),
  /** Station extension: returns with a line whose SKU starts with this, case-insensitive (docs/api-decisions.md, List search). */
  sku_prefix: z.string().trim().min(1).max(MAX_LENGTH.sku).meta({ pattern: NOT_BLANK_PATTERN }).optional(),
  /** Station extension: emails containing this, case-insensitive; 1–2 characters: starting with it (docs/api-decisions.md, List search). */
  email_contains: z
    .string()
    .trim()
    .min(1)
    .max(254)
    .meta({
      pattern: NOT_BLANK_PATTERN,
      description: 'Emails containing this text, case-insensitive; a text of 1 or 2 characters finds those starting with it.',
    })
    .optional(),
  /** Station extension: returns with a line whose SKU contains this, case-insensitive; 1–2 characters: starting with it. */
  sku_contains: z
    .string()
    .trim()
    .min(1)
    .max(MAX_LENGTH.sku)
    .meta({
      pattern: NOT_BLANK_PATTERN,
      description: 'Returns with a line whose SKU contains this text, case-insensitive; a text of 1 or 2 characters finds SKUs starting with it.',
    })
    .optional(),
  updated_since: TimestampInputSchema.optional(),
  /** Station extension: returns with a package holding a line item of any of these dispositions (docs/api-decisions.md, List search). */
  disposition: commaListSchema(DISPOSITIONS).optional(),
};
export const AccountReturnListQuerySchema = z.strictObject(ReturnListQueryShape);

/** Query of `GET /returns`: as above, plus `account_id` for station tokens. */
export const ReturnListQuerySchema = z.strictObject({
  ...ReturnListQueryShape,
  account_id: IdParamSchema.optional(),
});
export type ReturnListQuery = z.infer<typeof ReturnListQuerySchema>;

export const ReturnListResponseSchema = listResponse(ReturnRecordSchema);
export type ReturnListResponse = z.infer<typeof ReturnListResponseSchema>;
