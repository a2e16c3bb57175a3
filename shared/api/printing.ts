import { z } from 'zod';
import { commaListSchema, IdSchema, listResponse, NOT_BLANK_PATTERN, PaginationQueryShape, TimestampSchema } from './common.ts';

/*
 * Labels and printing (docs/operator-guide.md, Printers and labels): the unit
 * label's content, the printer a station prints to (part of the station settings), and the print
 * queue's jobs.
 */

/** What a unit label shows: the unit id (as a Code 128 barcode and as text) and the unit's facts. */
export const UnitLabelSchema = z.object({
  unit_id: z.string().min(1).max(64),
  sku: z.string().nullable(),
  name: z.string().nullable(),
  condition: z.string().nullable(),
  /** The unit's serial (docs/decisions/serials.md); null or absent (jobs made before serials): none. */
  serial: z.string().nullable().optional(),
  /** The disposition as the label says it (a station may rename them). */
  disposition: z.string().nullable(),
  bin: z.string().nullable(),
  tracking_number: z.string().nullable(),
  /** `YYYY-MM-DD`: the day the unit was received (or labelled). */
  date: z.string(),
  /** Who received the unit; null when not known. */
  worker: z.string().nullable(),
});
export type UnitLabel = z.infer<typeof UnitLabelSchema>;

/** A package slip: the parcel's tracking number as a barcode, and its units one a line. */
export const PackageSlipSchema = z.object({
  tracking_number: z.string().min(1),
  return_package_id: z.int(),
  date: z.string(),
  worker: z.string().nullable(),
  units: z.array(z.object({ unit_id: z.string(), sku: z.string().nullable(), disposition: z.string().nullable(), bin: z.string().nullable() })),
});
export type PackageSlip = z.infer<typeof PackageSlipSchema>;

/** A device on the site's network (a label printer, a network scale): a host name or an IP address. */
export const NetworkHostSchema = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.:[\]-]+$/, 'A host name or an IP address.');

/** Where labels go. `zpl_tcp`: a network label printer on raw TCP (port 9100) as ZPL; `system`: a printer of the desktop app's system (null: the default one); `browser`: a PDF the browser UI opens. */
export const PrinterSettingSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('zpl_tcp'),
    host: NetworkHostSchema,
    port: z.int().min(1).max(65535).default(9100),
  }),
  z.strictObject({ kind: z.literal('system'), name: z.string().trim().min(1).max(255).meta({ pattern: NOT_BLANK_PATTERN }).nullable().default(null) }),
  z.strictObject({ kind: z.literal('browser') }),
]);
export type PrinterSetting = z.infer<typeof PrinterSettingSchema>;

/** The labels part of the station settings. */
export const LabelSettingsSchema = z.object({
  printer: PrinterSettingSchema,
  /** Print one package slip with a package's unit labels. */
  package_slip: z.boolean(),
});
export type LabelSettings = z.infer<typeof LabelSettingsSchema>;
export const DEFAULT_LABEL_SETTINGS: LabelSettings = { printer: { kind: 'browser' }, package_slip: false };

export const LabelSettingsUpdateSchema = z.strictObject({
  printer: PrinterSettingSchema.optional(),
  package_slip: z.boolean().optional(),
});

/**
 * A print job's state: `waiting` (to send, maybe after a failed try), `sending` (a send began),
 * `printed` (the printer took every byte: acknowledged, never sent again), `cancelled`,
 * `in_browser` (the printer is the browser: the UI opens the job's PDF; nothing to send).
 */
export const PRINT_JOB_STATES = ['waiting', 'sending', 'printed', 'cancelled', 'in_browser'] as const;
export type PrintJobState = (typeof PRINT_JOB_STATES)[number];
export const PRINT_JOB_KINDS = ['unit', 'slip', 'test'] as const;

export const PrintJobSchema = z.object({
  id: z.int(),
  kind: z.enum(PRINT_JOB_KINDS),
  state: z.enum(PRINT_JOB_STATES),
  /** The unit's id (unit labels), else null. */
  unit_id: z.string().nullable(),
  account_id: z.int().nullable(),
  return_package_id: z.int().nullable(),
  line_item_id: z.int().nullable(),
  /** What the label says, as it was when the job was made. */
  label: z.union([UnitLabelSchema, PackageSlipSchema]),
  /** The job this one prints again, or null. */
  reprint_of: z.int().nullable(),
  attempts: z.int().min(0),
  /** Why the last try failed; null after a success or before any try. */
  last_error: z.string().nullable(),
  /** When a waiting job is tried next; null when it is not waiting. */
  next_attempt_at: TimestampSchema.nullable(),
  /** The printer that acknowledged it (`zpl_tcp 10.0.0.5:9100`, `system Zebra`), or null. */
  printed_on: z.string().nullable(),
  printed_at: TimestampSchema.nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type PrintJob = z.infer<typeof PrintJobSchema>;

export const PrintJobListQuerySchema = z.strictObject({
  ...PaginationQueryShape,
  state: commaListSchema(PRINT_JOB_STATES).optional(),
});
export const PrintJobListResponseSchema = listResponse(PrintJobSchema);
export type PrintJobListResponse = z.infer<typeof PrintJobListResponseSchema>;

/** The print queue at a glance (in the station status): what the header shows a worker. */
export const PrintingStatusSchema = z.object({
  /** Labels not printed yet: waiting, or being sent. */
  waiting: z.int().min(0),
  /** Why the oldest of them did not print yet, in words (its `last_error`); null when it has not failed. */
  problem: z.string().nullable(),
});
export type PrintingStatus = z.infer<typeof PrintingStatusSchema>;

/** `POST .../line_items/{line_item_id}/label`: a unit's label. `reprint`: print it again even when printed before. */
export const UnitLabelRequestSchema = z.strictObject({
  reprint: z.boolean().default(false),
  /** The worker named on the label (default: the package's processor). */
  operator_id: IdSchema.nullable().default(null),
});
export type UnitLabelRequest = z.infer<typeof UnitLabelRequestSchema>;

/** `POST .../return_packages/{id}/labels`. */
export const PackageLabelsRequestSchema = z.strictObject({
  operator_id: IdSchema.nullable().default(null),
});
export const PrintJobsCreatedSchema = z.object({ data: z.array(PrintJobSchema) });
