import { z } from 'zod';
import { CalendarDateSchema, queryIntSchema, TimestampSchema } from './common.ts';
import { SyncStatusSchema } from './station.ts';

/*
 * The supervisor's view of one dock day (docs/api-reference.md, Dock day): what was received, by
 * whom, what needs a second look, and what is waiting. Station tokens only. A day is the station's
 * local calendar day (its time zone is in the answer).
 */

/** Longest a supervisor may set "waiting too long" to: a week. */
export const MAX_WAITING_MINUTES = 7 * 24 * 60;

export const DockDayQuerySchema = z.strictObject({
  /** The station's local calendar day; today when absent. */
  date: CalendarDateSchema.optional().meta({ description: "The station's local calendar day, YYYY-MM-DD (default: today)." }),
  waiting_minutes: queryIntSchema(1, MAX_WAITING_MINUTES)
    .default(60)
    .meta({ description: `A parcel at the dock (delivered, not received) longer than this many minutes is listed as waiting; 1–${MAX_WAITING_MINUTES} (default 60).` }),
});
/** The query as a client gives it (numbers as numbers; the URL carries them as text). */
export interface DockDayQuery {
  date?: string;
  waiting_minutes?: number;
}

export const DockDayReceiptsQuerySchema = z.strictObject({
  date: CalendarDateSchema.optional().meta({ description: "The station's local calendar day, YYYY-MM-DD (default: today)." }),
});

/** A package named in a list of the view: enough to find it on the dock and open it. */
export const DockDayPackageSchema = z.object({
  account_id: z.int(),
  package_id: z.int(),
  tracking_number: z.string(),
  status: z.string(),
  /** When it reached the dock (delivered), if the carrier or a worker said so. */
  arrived_at: TimestampSchema.nullable(),
  updated_at: TimestampSchema,
});

export const REVIEW_KINDS = ['over_receipt', 'unexpected_item'] as const;

/** A received line that a supervisor should look at: more than the return expected, or not on it. */
export const DockDayReviewSchema = DockDayPackageSchema.extend({
  kind: z.enum(REVIEW_KINDS),
  /** The SKU or name of the item, as recorded. */
  item: z.string(),
  expected: z.int().min(0),
  received: z.int().min(0),
});

export const DockDayWorkerSchema = z.object({
  /** null: packages received with no worker signed in (through the API). */
  operator_id: z.int().nullable(),
  name: z.string(),
  packages: z.int().min(0),
  units: z.int().min(0),
});

/** Lists are capped so the view stays one screen; `*_total` says how many there are. */
export const DOCK_DAY_LIST_LIMIT = 100;

export const DockDaySchema = z.object({
  date: CalendarDateSchema,
  /** IANA time zone of the station that defines the day and its hours. */
  time_zone: z.string(),
  /** Packages received in each local hour, 0–23 (a day with a clock change has fewer or more hours: they are folded into their hour of the clock). */
  received_per_hour: z.array(z.int().min(0)).length(24),
  received_packages: z.int().min(0),
  received_units: z.int().min(0),
  per_worker: z.array(DockDayWorkerSchema),
  /** Packages in `exception` now (any day): they need a person. */
  exceptions: z.array(DockDayPackageSchema),
  exceptions_total: z.int().min(0),
  review: z.array(DockDayReviewSchema),
  review_total: z.int().min(0),
  /** Parcels at the dock longer than `waiting_minutes`, oldest first. */
  waiting: z.array(DockDayPackageSchema),
  waiting_total: z.int().min(0),
  waiting_minutes: z.int(),
  sync: SyncStatusSchema,
});
export type DockDay = z.infer<typeof DockDaySchema>;
export type DockDayPackage = z.infer<typeof DockDayPackageSchema>;
export type DockDayReview = z.infer<typeof DockDayReviewSchema>;

/** Columns of the receipts CSV, one row per received line item, in this order. */
export const RECEIPT_CSV_COLUMNS = [
  'received_at',
  'account_id',
  'package_id',
  'tracking_number',
  'return_id',
  'worker',
  'sku',
  'item',
  'quantity',
  'condition',
  'defective',
  'notes',
  'tags',
] as const;
