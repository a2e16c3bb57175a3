import { z } from 'zod';
import {
  BarcodeSchema,
  IdSchema,
  MAX_LENGTH,
  NameSchema,
  NotesSchema,
  QuantitySchema,
  SkuSchema,
  TimestampSchema,
  textRule,
  WHITE_SPACE,
} from '../api/common.ts';
import { BIN_PATTERN, CONDITIONS, DISPOSITION_SOURCES, DISPOSITIONS, MAX_BIN_LENGTH } from '../dispositions.ts';
import { SerialSchema } from '../api/serial-rules.ts';
import { type FieldTable, settable } from './table.ts';

/*
 * The package line item (an inspected unit), field by field (docs/api-reference.md, Return
 * packages). The dock's inspection fields go up with the package (sync/links/line-item-fields.ts); the
 * unit's decision (disposition, bin, put) is the station's. Order is the answer's order.
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

/** The dock worker who sets the condition (an operator id, as `processor_id`); null or left out: not recorded. */
export const ConditionBySchema = IdSchema.nullable()
  .optional()
  .meta({ description: 'The worker who set the condition (an operator of the station); only with a condition that is not null.' });

export const DispositionOverrideSchema = z.object({ by: z.int().nullable(), reason: z.string(), at: TimestampSchema });

/** What the station found when a unit's serial was recorded (docs/decisions/serials.md). */
export const SERIAL_CHECK_RESULTS = ['unique', 'duplicate', 'not_checked'] as const;
export const SerialCheckSchema = z
  .object({
    /** `unique`: no other unit has it; `duplicate`: another unit has it (`duplicate_of`); `not_checked`: the site's hub could not be asked yet. */
    result: z.enum(SERIAL_CHECK_RESULTS),
    /** Where: this station's units, or the site's (its hub asked). */
    scope: z.enum(['station', 'site']),
    /** The other unit that has the serial: its unit id, package and tracking number. */
    duplicate_of: z
      .object({ unit_id: z.string().nullable(), return_package_id: z.int(), tracking_number: z.string().nullable(), line_item_id: z.int() })
      .nullable(),
    /** The finding in words, for the worker and the review. */
    message: z.string(),
    at: TimestampSchema,
  })
  .meta({ description: 'The check of the serial against the other units of the account (this station, and the site when it has a hub).' });

const timestamp = TimestampSchema.nullable();

export const PACKAGE_LINE_ITEM_FIELDS = {
  id: { type: z.int(), in: 'G', owner: 'station', up: 'never' },
  /** A line of the package's return, or null for an unexpected item. */
  return_line_item_id: { type: z.int().nullable(), in: 'G', ...settable(IdSchema), owner: 'dock', up: 'create+change' },
  quantity: { type: z.int(), in: 'G', create: QuantitySchema.default(1), update: QuantitySchema.optional(), owner: 'dock', up: 'create+change' },
  /** Defaults to the return line's SKU. */
  merchant_sku: {
    type: z.string().nullable(),
    in: 'G',
    create: SkuSchema.nullable().optional(),
    update: SkuSchema.nullable().optional(),
    owner: 'dock',
    up: 'create+change',
  },
  /** Defaults to the return line's name. */
  name: {
    type: z.string().nullable(),
    in: 'G',
    create: NameSchema.nullable().optional(),
    update: NameSchema.nullable().optional(),
    owner: 'dock',
    up: 'create+change',
  },
  condition: { type: ConditionSchema.nullable(), in: 'G', ...settable(ConditionSchema), owner: 'dock', up: 'create+change' },
  defective: { type: z.boolean(), in: 'G', create: z.boolean().default(false), update: z.boolean().optional(), owner: 'dock', up: 'create+change' },
  notes: { type: z.string().nullable(), in: 'G', ...settable(NotesSchema), owner: 'dock', up: 'create+change' },
  barcode: { type: z.string().nullable(), in: 'G', ...settable(BarcodeSchema), owner: 'dock', up: 'create+change' },
  /** Includes the station's `disposition:<key>`, `bin:<code>` and `unit:<id>` tags. */
  tags: { type: z.array(z.string()), in: 'G', create: TagsSchema.default([]), update: TagsSchema.optional(), owner: 'dock', up: 'create+change' },
  /**
   * Null until a rule matches or a person overrides. In an update: an override of the rules'
   * disposition (with `disposition_reason`); null goes back to the rules.
   */
  disposition: { type: DispositionSchema.nullable(), in: 'G', update: DispositionSchema.nullable().optional(), owner: 'station', up: 'never', since: true },
  /** In an update: the override's bin; by default the bin of the first rule with that disposition. */
  bin: { type: z.string().nullable(), in: 'G', update: BinSchema.optional(), owner: 'station', up: 'never', since: true },
  /** The unit's id, unique across stations (`RS-<station>-<n>`); given once, with the first disposition. */
  unit_id: { type: z.string().nullable(), in: 'G', owner: 'station', up: 'never', since: true },
  disposition_source: { type: DispositionSourceSchema.nullable(), in: 'G', owner: 'station', up: 'never', since: true },
  /** Who overrode the rules (an operator id, or null), why and when; null when the rules decide. */
  disposition_override: { type: DispositionOverrideSchema.nullable(), in: 'G', owner: 'station', up: 'never', since: true },
  /** When the put to `bin` was confirmed (scan of the bin); null until then, and again after the bin changes. */
  put_confirmed_at: { type: timestamp, in: 'G', owner: 'station', up: 'never', since: true },
  /** Who confirmed the put (an operator id), null when not named or not put. */
  put_by: { type: z.int().nullable(), in: 'G', owner: 'station', up: 'never', since: true },
  /** Who set the condition (an operator id, or null when not named) and when; both null while the condition is unset. */
  condition_by: { type: z.int().nullable(), in: 'G', create: ConditionBySchema, update: ConditionBySchema, owner: 'station', up: 'never', since: true },
  condition_at: { type: timestamp, in: 'G', owner: 'station', up: 'never', since: true },
  /**
   * When the unit's label was first asked for (a print job made: waiting, sent, printed or handed to the
   * browser); null while it has none, and again once every job of it is cancelled. While it is set the
   * item's quantity cannot change and it cannot be removed (409 `UNIT_LABELLED_OR_PUT`).
   */
  labelled_at: { type: timestamp, in: 'G', owner: 'station', up: 'never', since: true },
  /**
   * The unit's serial number, when its SKU needs one (the station's serial rules) or it was given.
   * Its own field, never sent as such: it goes up as the tag `serial:<value>` (the station keeps the tag in step).
   */
  serial: { type: z.string().nullable(), in: 'G', ...settable(SerialSchema), owner: 'dock', up: 'never', since: true },
  /** The check of the serial against the account's other units; null without a serial. */
  serial_check: { type: SerialCheckSchema.nullable(), in: 'G', owner: 'station', up: 'never', since: true },
  created_at: { type: TimestampSchema, in: '', owner: 'station', up: 'never' },
  updated_at: { type: TimestampSchema, in: '', owner: 'station', up: 'never' },
} as const satisfies FieldTable;
