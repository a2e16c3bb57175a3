import { z } from 'zod';
import {
  AmountSchema,
  CalendarDateSchema,
  CurrencySchema,
  DimensionUnitSchema,
  EmailSchema,
  IdSchema,
  NameSchema,
  NonNegativeInt32Schema,
  QuantitySchema,
  ReasonSchema,
  SkuSchema,
  TimestampSchema,
  WeightUnitSchema,
} from '../api/common.ts';
import { answerSchema, bodyShape, type FieldTable, upstreamTimestamp } from './table.ts';

/*
 * The manual return and its lines, field by field (docs/api-reference.md, Manual returns). A return
 * is the back office's: the station makes one and sends it up once; afterwards the upstream's values
 * win (sync/links/apply-upstream.ts). Order is the answer's order.
 */

/** Derived status of a return. */
export const RETURN_STATUSES = ['awaiting', 'partially_received', 'received'] as const;
export const ReturnStatusSchema = z.enum(RETURN_STATUSES);
export type ReturnStatus = z.infer<typeof ReturnStatusSchema>;

export const MAX_RETURN_LINE_ITEMS = 1000;

const nonNegative = z.number().nonnegative();

export const RETURN_LINE_ITEM_FIELDS = {
  id: { type: z.int(), in: 'G', owner: 'station', up: 'never', read: z.int(), needed: true },
  quantity: { type: z.int(), in: 'G', create: QuantitySchema, owner: 'office', up: 'create', read: z.int().nonnegative(), needed: true },
  /** The station's count of what is still to come; what goes up is the count given at create (sync/push/push.ts). */
  unreceived_quantity: { type: z.int(), in: 'G', create: NonNegativeInt32Schema, owner: 'office', up: 'create', read: z.int().nonnegative() },
  name: { type: z.string(), in: 'G', create: NameSchema, owner: 'office', up: 'create', read: z.string(), empty: '' },
  price: { type: z.number(), in: 'G', create: AmountSchema, owner: 'office', up: 'create', read: z.number(), empty: 0 },
  currency: { type: z.string(), in: 'G', create: CurrencySchema, owner: 'office', up: 'create', read: z.string(), empty: '' },
  merchant_sku: { type: z.string(), in: 'G', create: SkuSchema, owner: 'office', up: 'create', read: z.string(), empty: '' },
} as const satisfies FieldTable;

/** A line of `POST /returns`: every field required; `unreceived_quantity` is 0 … `quantity`. */
export const ReturnLineItemCreateSchema = z.strictObject(bodyShape(RETURN_LINE_ITEM_FIELDS, 'create')).superRefine((line, ctx) => {
  if (line.unreceived_quantity > line.quantity) {
    ctx.addIssue({
      code: 'custom',
      path: ['unreceived_quantity'],
      message: 'Must not be greater than quantity.',
    });
  }
});

/** A line of a return record. */
export const ReturnLineItemSchema = answerSchema(RETURN_LINE_ITEM_FIELDS, 'G');

export const RETURN_FIELDS = {
  id: { type: z.int(), in: 'G', owner: 'station', up: 'never', read: z.int().positive(), needed: true },
  /** Only for station tokens (which act on every account); an account token acts on its own account. */
  account_id: { type: z.int(), in: 'G', create: IdSchema.optional(), owner: 'station', up: 'create' },
  status: { type: ReturnStatusSchema, in: 'G', owner: 'station', up: 'never' },
  email: { type: z.string(), in: 'G', create: EmailSchema, owner: 'office', up: 'create', read: z.string(), empty: '' },
  receive_by: {
    type: z.string(),
    in: 'G',
    create: CalendarDateSchema,
    owner: 'office',
    up: 'create',
    read: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    empty: '',
  },
  total_price: { type: z.number(), in: 'G', create: AmountSchema, owner: 'office', up: 'create', read: z.number(), empty: 0 },
  currency: { type: z.string(), in: 'G', create: CurrencySchema, owner: 'office', up: 'create', read: z.string(), empty: '' },
  weight: { type: z.int(), in: 'G', create: NonNegativeInt32Schema, owner: 'office', up: 'create', read: nonNegative, empty: 0 },
  weight_unit: { type: WeightUnitSchema, in: 'G', create: WeightUnitSchema, owner: 'office', up: 'create', read: 'known', empty: 'g' },
  reason_of_return: { type: z.string(), in: 'G', create: ReasonSchema, owner: 'office', up: 'create', read: z.string(), empty: '' },
  length: { type: z.int(), in: 'G', create: NonNegativeInt32Schema, owner: 'office', up: 'create', read: nonNegative, empty: 0 },
  width: { type: z.int(), in: 'G', create: NonNegativeInt32Schema, owner: 'office', up: 'create', read: nonNegative, empty: 0 },
  height: { type: z.int(), in: 'G', create: NonNegativeInt32Schema, owner: 'office', up: 'create', read: nonNegative, empty: 0 },
  dimension_unit: { type: DimensionUnitSchema, in: 'G', create: DimensionUnitSchema, owner: 'office', up: 'create', read: 'known', empty: 'cm' },
  /** Embedded: a return and its lines are always read and written together. */
  return_line_items: {
    type: z.array(ReturnLineItemSchema),
    in: 'G',
    create: z.array(ReturnLineItemCreateSchema).min(1).max(MAX_RETURN_LINE_ITEMS),
    owner: 'office',
    up: 'create',
    read: 'each',
    of: RETURN_LINE_ITEM_FIELDS,
    needed: true,
  },
  created_at: { type: TimestampSchema, in: 'G', owner: 'station', up: 'never', read: upstreamTimestamp },
  updated_at: { type: TimestampSchema, in: 'G', owner: 'station', up: 'never', read: upstreamTimestamp },
} as const satisfies FieldTable;
