import { z } from 'zod';
import {
  AmountSchema,
  CurrencySchema,
  DimensionUnitSchema,
  IdSchema,
  MeasureSchema,
  NameSchema,
  NotesSchema,
  TimestampInputSchema,
  TimestampSchema,
  TrackingNumberSchema,
  WeightUnitSchema,
} from '../api/common.ts';
import { PackageLineItemSchema } from '../api/line-items.ts';
import { MediaFileSchema } from '../api/media.ts';
import { StoredReviewSchema } from '../api/reviews.ts';
import { ExpectedWeightSourceSchema, WeightSourceSchema, WeightVerdictSchema } from '../api/weight-check.ts';
import { CREATE_STATUSES, DEFAULT_CREATE_STATUS, PACKAGE_STATUSES } from '../package-status.ts';
import { type FieldTable, group, settable, upstreamTimestamp } from './table.ts';

/*
 * The return package, field by field (docs/api-reference.md, Return packages; the upstream's
 * fields: docs/decisions/sync.md). Order is the answers' order.
 *
 * A pass-through field is one row here: its type, the answers it shows in, its create and update
 * schemas, whose it is and whether it goes up, and how sync reads it.
 */

export const PackageStatusSchema = z.enum(PACKAGE_STATUSES);
export const CreateStatusSchema = z.enum(CREATE_STATUSES);

export const SHIPPING_METHODS = ['ground', 'standard', 'express', 'two_day', 'overnight', 'freight', 'drop_off', 'other'] as const;
export const ShippingMethodSchema = z.enum(SHIPPING_METHODS);

/** `carrier` in list items. */
export const ListCarrierSchema = z.object({ id: z.int(), name: z.string(), service: z.string().nullable() });
/** `carrier` in get. */
export const GetCarrierSchema = z.object({ id: z.int(), name: z.string(), code: z.string() });

const timestamp = TimestampSchema.nullable();
const measure = z.number().nonnegative();

export const RETURN_PACKAGE_FIELDS = {
  id: { type: z.int(), in: 'LCGU', owner: 'station', up: 'never', read: z.int().positive(), needed: true },
  /** The station's return; sync maps it to the upstream's and back. */
  return_id: { type: z.int(), in: 'LCGU', create: IdSchema, owner: 'station', up: 'never', read: z.int().positive(), needed: true },
  tracking_number: {
    type: z.string(),
    in: 'LCGU',
    create: TrackingNumberSchema,
    update: TrackingNumberSchema.optional(),
    owner: 'office',
    up: 'create',
    read: z.string().trim().min(1),
    needed: true,
  },
  /** Forward only between the two sides (sync/links/apply-upstream.ts); a create sends a create status. */
  status: {
    type: PackageStatusSchema,
    in: 'LCGU',
    create: CreateStatusSchema.default(DEFAULT_CREATE_STATUS),
    update: PackageStatusSchema.optional(),
    owner: 'dock',
    up: 'create+change',
    read: 'known',
  },
  estimated_arrival: { type: timestamp, in: 'LCGU', ...settable(TimestampInputSchema), owner: 'office', up: 'create', read: upstreamTimestamp },
  actual_arrival: { type: timestamp, in: 'GU', update: TimestampInputSchema.nullable().optional(), owner: 'dock', up: 'change', read: upstreamTimestamp },
  shipping_method: { type: ShippingMethodSchema.nullable(), in: 'CGU', ...settable(ShippingMethodSchema), owner: 'office', up: 'create', read: 'known' },
  weight: { type: z.number().nullable(), in: 'LCGU', ...settable(MeasureSchema), owner: 'office', up: 'create', read: measure },
  weight_unit: { type: WeightUnitSchema.nullable(), in: 'LCGU', ...settable(WeightUnitSchema), owner: 'office', up: 'create', read: 'known' },
  dimensions: group(
    {
      length: { type: z.number().nullable(), in: '', ...settable(MeasureSchema), owner: 'office', up: 'create', read: measure },
      width: { type: z.number().nullable(), in: '', ...settable(MeasureSchema), owner: 'office', up: 'create', read: measure },
      height: { type: z.number().nullable(), in: '', ...settable(MeasureSchema), owner: 'office', up: 'create', read: measure },
      dimension_unit: { type: DimensionUnitSchema.nullable(), in: '', ...settable(DimensionUnitSchema), owner: 'office', up: 'create', read: 'known' },
    },
    'LCGU',
  ),
  shipping_label_cost: { type: z.number().nullable(), in: 'CGU', ...settable(AmountSchema), owner: 'office', up: 'create', read: measure },
  shipping_label_cost_currency: {
    type: z.string().nullable(),
    in: 'CGU',
    ...settable(CurrencySchema),
    owner: 'office',
    up: 'create',
    read: z.string().regex(/^[A-Z]{3}$/),
  },
  /** A list item names its carrier as `carrier` only: sync reads the id from it (sync/upstream/upstream-records.ts). */
  carrier_id: { type: z.int().nullable(), in: 'CGU', ...settable(IdSchema), owner: 'office', up: 'create', read: z.int() },
  carrier: { related: true, type: ListCarrierSchema.nullable(), in: 'LG', answers: { G: GetCarrierSchema.nullable() } },
  location_id: { type: z.int().nullable(), in: 'LCGU', ...settable(IdSchema), owner: 'office', up: 'create', read: z.int() },
  fulfillment_center_id: { related: true, type: z.int().nullable(), in: 'LG' },
  line_items_count: { related: true, type: z.int(), in: 'L' },
  line_items: { related: true, type: z.array(PackageLineItemSchema), in: 'G' },
  media_files: { related: true, type: z.array(MediaFileSchema), in: 'G' },
  /** Station addition for a site's stations: when the station that received it did (else a move to `received` sets it now). */
  processed_at: { type: timestamp, in: 'G', update: TimestampInputSchema.nullable().optional(), owner: 'station', up: 'never', read: upstreamTimestamp },
  processor_id: { type: z.int().nullable(), in: 'G', update: IdSchema.nullable().optional(), owner: 'station', up: 'never' },
  /**
   * Who received it, by name: kept with the receipt, so a site's other stations (which have other
   * operators) show who it was. Station addition for a site's stations: given by the station that received it.
   */
  processor_name: { type: z.string().nullable(), in: '', update: NameSchema.nullable().optional(), owner: 'station', up: 'never', since: true },
  /**
   * Held for review after a check at the dock failed, and the supervisor's decision
   * (shared/api/reviews.ts, domain/reviews.ts); null when never held. The station's own: shown by the
   * review routes and a site's receipt, never in the spec's answers; a confirmed finding goes up in `notes`.
   */
  review: { type: StoredReviewSchema.nullable(), in: '', owner: 'station', up: 'never', since: true },
  /**
   * The weight check, the station's own (never sent upstream; records from before it read null):
   * the parcel as the dock weighed it (the last weighing wins), what it should weigh, and the verdict
   * (shared/api/weight-check.ts). Recorded by `POST …/weight`.
   */
  weighing: group(
    {
      measured_weight: { type: z.number().nullable(), in: '', owner: 'station', up: 'never', since: true },
      measured_weight_unit: { type: WeightUnitSchema.nullable(), in: '', owner: 'station', up: 'never', since: true },
      /** `scale`: a stable reading of the dock's scale; `typed`: by hand. */
      weight_source: { type: WeightSourceSchema.nullable(), in: '', owner: 'station', up: 'never', since: true },
      /** The scale, as a worker knows it (`MT-SICS at 10.0.0.7:4001`); null when typed. */
      weight_scale: { type: z.string().nullable(), in: '', owner: 'station', up: 'never', since: true },
      weighed_at: { type: timestamp, in: '', owner: 'station', up: 'never', since: true },
      /** Who weighed it (an operator id), when the terminal said. */
      weighed_by: { type: z.int().nullable(), in: '', owner: 'station', up: 'never', since: true },
      /** What it should weigh, in the measured weight's unit; null: nothing to compare with. */
      expected_weight: { type: z.number().nullable(), in: '', owner: 'station', up: 'never', since: true },
      expected_weight_from: { type: ExpectedWeightSourceSchema.nullable(), in: '', owner: 'station', up: 'never', since: true },
      weight_verdict: { type: WeightVerdictSchema.nullable(), in: '', owner: 'station', up: 'never', since: true },
    },
    'G',
  ),
  notes: { type: z.string().nullable(), in: 'U', update: NotesSchema.nullable().optional(), owner: 'dock', up: 'change', read: z.string() },
  created_at: { type: TimestampSchema, in: 'LCGU', owner: 'station', up: 'never', read: upstreamTimestamp },
  updated_at: { type: TimestampSchema, in: 'LCGU', owner: 'station', up: 'never', read: upstreamTimestamp },
} as const satisfies FieldTable;
