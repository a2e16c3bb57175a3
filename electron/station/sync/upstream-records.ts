import { z } from 'zod';
import { normaliseTimestamp } from '#shared/api/common.ts';
import { PACKAGE_STATUSES } from '#shared/package-status.ts';

/*
 * What sync reads from the upstream, read leniently: any server of the returns service interface
 * (a presence column may lack a field; unknown fields are ignored). Timestamps are normalised to the
 * station's UTC form so values compare equal on both sides.
 */

const timestamp = z
  .string()
  .transform((value, ctx) => {
    const normalised = normaliseTimestamp(value);
    if (normalised === null) {
      ctx.addIssue({ code: 'custom', message: 'Expected an ISO 8601 timestamp.' });
      return z.NEVER;
    }
    return normalised;
  });
const maybe = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

export const UpstreamPackageSchema = z.object({
  id: z.int().positive(),
  return_id: z.int().positive(),
  tracking_number: z.string().min(1),
  status: z.enum(PACKAGE_STATUSES),
  estimated_arrival: maybe(timestamp),
  actual_arrival: maybe(timestamp),
  shipping_method: maybe(z.string()),
  weight: maybe(z.number()),
  weight_unit: maybe(z.string()),
  dimensions: maybe(
    z.object({ length: maybe(z.number()), width: maybe(z.number()), height: maybe(z.number()), dimension_unit: maybe(z.string()) }),
  ),
  shipping_label_cost: maybe(z.number()),
  shipping_label_cost_currency: maybe(z.string()),
  carrier_id: maybe(z.int()),
  carrier: maybe(z.object({ id: z.int() })),
  location_id: maybe(z.int()),
  notes: maybe(z.string()),
  updated_at: timestamp,
});
export type UpstreamPackage = z.infer<typeof UpstreamPackageSchema>;

export const UpstreamReturnSchema = z.object({
  id: z.int().positive(),
  email: z.string(),
  receive_by: z.string(),
  total_price: z.number(),
  currency: z.string(),
  weight: z.number(),
  weight_unit: z.string(),
  reason_of_return: z.string(),
  length: z.number(),
  width: z.number(),
  height: z.number(),
  dimension_unit: z.string(),
  return_line_items: z.array(
    z.object({
      id: z.int(),
      quantity: z.int(),
      unreceived_quantity: z.int(),
      name: z.string(),
      price: z.number(),
      currency: z.string(),
      merchant_sku: z.string(),
    }),
  ),
  created_at: maybe(timestamp),
  updated_at: timestamp,
});
export type UpstreamReturn = z.infer<typeof UpstreamReturnSchema>;

const meta = z.object({ current_page: z.int(), total_pages: z.int(), total_count: z.int(), per_page: z.int() });

export const UpstreamPackagePageSchema = z.object({ data: z.array(UpstreamPackageSchema), meta });
export const UpstreamReturnPageSchema = z.object({ data: z.array(UpstreamReturnSchema), meta });
export type UpstreamPage<T> = { data: T[]; meta: z.infer<typeof meta> };
