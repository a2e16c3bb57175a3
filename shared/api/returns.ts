import { z } from 'zod';
import { DISPOSITIONS } from '../dispositions.ts';
import { RETURN_FIELDS, RETURN_STATUSES, ReturnLineItemCreateSchema, ReturnLineItemSchema, type ReturnStatus } from '../fields/return.ts';
import { answerSchema, bodyShape } from '../fields/table.ts';
import { MAX_LENGTH, IdParamSchema, NOT_BLANK_PATTERN, PaginationQueryShape, TimestampInputSchema, commaListSchema, listResponse } from './common.ts';

/*
 * Manual returns (docs/api-reference.md, Manual returns).
 */

export { RETURN_STATUSES, ReturnLineItemCreateSchema, ReturnLineItemSchema, type ReturnStatus };

/**
 * `POST /returns` body: the returns service's create request, every field required, unknown fields rejected.
 * `account_id` is only for station tokens (which act on every account); an account token acts on
 * its own account, and a different `account_id` is refused with 403.
 */
export const ManualReturnCreateSchema = z.strictObject(bodyShape(RETURN_FIELDS, 'create'));
export type ManualReturnCreate = z.infer<typeof ManualReturnCreateSchema>;
export type ManualReturnCreateInput = z.input<typeof ManualReturnCreateSchema>;

export type ReturnLineItem = z.infer<typeof ReturnLineItemSchema>;

/** The return record answered by `POST /returns` and listed by the return listings. */
export const ReturnRecordSchema = answerSchema(RETURN_FIELDS, 'G');
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
