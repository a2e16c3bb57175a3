import { z } from 'zod';
import { CalendarDateSchema, queryIntSchema, TimestampSchema } from './common.ts';
import { BIN_PATTERN, DISPOSITIONS, MAX_BIN_LENGTH } from '../dispositions.ts';
import { DispositionSchema, MAX_DISPOSITION_REASON_LENGTH } from './line-items.ts';
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
    .meta({
      description: `A parcel at the dock (delivered, not received) longer than this many minutes is listed as waiting; 1–${MAX_WAITING_MINUTES} (default 60).`,
    }),
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

export const REVIEW_KINDS = ['over_receipt', 'unexpected_item', 'short_receipt'] as const;

/**
 * A received line that a supervisor should look at: more than the return expected, not on it, or a
 * return line with fewer units received than it expects across its parcels (a partial receipt, on the
 * parcel that closed the return; `received` may be 0).
 */
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

/** Units received on the day with one disposition (the sum of its line items' quantities). */
export const DockDayDispositionSchema = z.object({
  disposition: DispositionSchema,
  units: z.int().min(0),
  /** Of them, how many had their disposition from a person's override rather than the rules. */
  overridden: z.int().min(0),
});

/** Units received on the day put to one bin (bins compare without regard to case; spelled as first seen). */
export const DockDayBinSchema = z.object({
  bin: z.string().min(1).max(MAX_BIN_LENGTH).regex(new RegExp(BIN_PATTERN)),
  units: z.int().min(0),
  /** Of them, how many had their put confirmed by a scan of the bin. */
  put_confirmed: z.int().min(0),
  /** The dispositions of the units in the bin, in the station's order (a bin normally holds one). */
  dispositions: z.array(DispositionSchema).min(1).max(DISPOSITIONS.length).meta({ uniqueItems: true }),
});

/** Reasons listed per worker in `overrides_per_worker`, the latest first. */
export const DOCK_DAY_OVERRIDE_REASONS = 5;

/** One override of the rules on a unit received on the day. */
export const DockDayOverrideSchema = z.object({
  account_id: z.int(),
  package_id: z.int(),
  tracking_number: z.string(),
  line_item_id: z.int(),
  unit_id: z.string().nullable(),
  /** The SKU or name of the item, as recorded. */
  item: z.string(),
  disposition: DispositionSchema,
  reason: z.string().max(MAX_DISPOSITION_REASON_LENGTH),
  at: TimestampSchema,
});

/** The overrides of one worker (the operator who overrode, not who received the package). */
export const DockDayOverrideWorkerSchema = z.object({
  /** null: the override was made without naming a worker (through the API). */
  operator_id: z.int().nullable(),
  name: z.string(),
  /** Units (line items) this worker overrode. */
  overrides: z.int().min(1),
  /** The latest of them, at most `DOCK_DAY_OVERRIDE_REASONS`, newest first. */
  latest: z.array(DockDayOverrideSchema).min(1).max(DOCK_DAY_OVERRIDE_REASONS),
});

export const DockDaySchema = z
  .object({
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
    /**
     * The day's received units by disposition, one entry per disposition of the station in its order
     * (zeros too); with `units_without_disposition` (items received without inspection) they add up to
     * `received_units`.
     */
    per_disposition: z
      .array(DockDayDispositionSchema)
      .length(DISPOSITIONS.length)
      // The order as JSON Schema: entry i is disposition i.
      .meta({
        prefixItems: DISPOSITIONS.map((disposition) => ({ type: 'object', properties: { disposition: { const: disposition } }, required: ['disposition'] })),
      }),
    units_without_disposition: z.int().min(0),
    /** The day's received units by bin, most units first, a tie by bin; at most 100. */
    per_bin: z.array(DockDayBinSchema).max(DOCK_DAY_LIST_LIMIT),
    per_bin_total: z.int().min(0),
    /** Overrides of the rules on the day's received units, by the worker who made them; most first, a tie by name. */
    overrides_per_worker: z.array(DockDayOverrideWorkerSchema),
    sync: SyncStatusSchema,
  })
  .superRefine((day, ctx) => {
    // What JSON Schema cannot say: the breakdowns agree with the totals.
    day.per_disposition.forEach((entry, index) => {
      if (entry.disposition !== DISPOSITIONS[index])
        ctx.addIssue({ code: 'custom', path: ['per_disposition', index, 'disposition'], message: `Entry ${index} is ${DISPOSITIONS[index]}.` });
      if (entry.overridden > entry.units)
        ctx.addIssue({ code: 'custom', path: ['per_disposition', index, 'overridden'], message: 'No more overridden than units.' });
    });
    const inspected = day.per_disposition.reduce((sum, entry) => sum + entry.units, 0);
    if (inspected + day.units_without_disposition !== day.received_units) {
      ctx.addIssue({ code: 'custom', path: ['units_without_disposition'], message: 'per_disposition and units_without_disposition add up to received_units.' });
    }
    day.per_bin.forEach((bin, index) => {
      if (bin.put_confirmed > bin.units) ctx.addIssue({ code: 'custom', path: ['per_bin', index, 'put_confirmed'], message: 'No more confirmed than units.' });
    });
    if (day.per_bin_total < day.per_bin.length)
      ctx.addIssue({ code: 'custom', path: ['per_bin_total'], message: 'Counts every bin, also those left off the list.' });
    day.overrides_per_worker.forEach((worker, index) => {
      if (worker.latest.length > worker.overrides)
        ctx.addIssue({ code: 'custom', path: ['overrides_per_worker', index, 'latest'], message: 'No more listed than overrides.' });
    });
  })
  .meta({
    description:
      'One dock day. per_disposition has one entry per disposition in the order restock, refurbish, return_to_vendor, liquidate, quarantine, dispose; their units plus units_without_disposition are received_units; ' +
      "overridden ≤ units and put_confirmed ≤ units; per_bin_total ≥ the length of per_bin; each worker's latest lists at most its overrides.",
  });
export type DockDay = z.infer<typeof DockDaySchema>;
export type DockDayPackage = z.infer<typeof DockDayPackageSchema>;
export type DockDayReview = z.infer<typeof DockDayReviewSchema>;
export type DockDayBin = z.infer<typeof DockDayBinSchema>;
export type DockDayOverride = z.infer<typeof DockDayOverrideSchema>;
export type DockDayOverrideWorker = z.infer<typeof DockDayOverrideWorkerSchema>;

/**
 * Columns of the receipts CSV, one row per received line item (a unit id names a line item, whatever
 * its quantity), in this order. The disposition columns come last so a sheet that reads the earlier
 * columns by position keeps working.
 */
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
  'disposition',
  'bin',
  'unit_id',
  'put_confirmed_at',
] as const;
