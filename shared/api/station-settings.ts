import { z } from 'zod';
import { CurrencySchema, TimestampSchema, textRule, WHITE_SPACE } from './common.ts';
import { DEFAULT_LABEL_SETTINGS, LabelSettingsSchema, LabelSettingsUpdateSchema } from './printing.ts';
import { DEFAULT_WEIGHT_CHECK, WeightCheckSettingsSchema, WeightCheckSettingsUpdateSchema } from './weight-check.ts';
import { SerialRulesSchema } from './serial-rules.ts';

/*
 * The station's own settings, shared by every terminal of the station and kept in its data directory
 * (`GET` / `PATCH /api/v1/station/settings`, also inside `GET /api/v1/station`): how the scanners
 * mark a scan, the currency of new manual returns whose account has none yet, and whether receiving
 * with conditions not set asks to confirm. docs/api-reference.md, Station settings.
 */

/** The key a framing scanner ends each code with, unless told otherwise. */
export const DEFAULT_SUFFIX = 'Enter';

/**
 * A key as the browser names it (`KeyboardEvent.key`), optionally after `Ctrl+` (any case), with
 * white space around it dropped: one character that is not white space (a code point: `§`, `~`, a
 * lone surrogate half is none), or a name of a capital and letters or digits (`F12`, `Enter`), at
 * most 20 characters (and at most 20 characters of white space either side). The one rule: the
 * schema checks it and the document shows it.
 */
const KEY_CHAR = `[^${WHITE_SPACE}\\uD800-\\uDFFF]`;
const AROUND = `[${WHITE_SPACE}]{0,20}`;
const KEY_NAME = textRule(`^${AROUND}(?:[Cc][Tt][Rr][Ll]\\+(?:${KEY_CHAR}|[A-Z][A-Za-z0-9]{1,14})|${KEY_CHAR}|[A-Z][A-Za-z0-9]{1,19})${AROUND}$`);

/** Why a key name cannot frame scans, or null when it can (KEY_NAME, in words). */
export function keyNameProblem(name: string): string | null {
  if (KEY_NAME.test(name)) return null;
  const key = name.trim().replace(/^Ctrl\+/i, '');
  return key === '' ? 'Name a key, e.g. F12, § or Ctrl+B.' : `"${name.trim()}" is not a key name (e.g. F12, Enter, Tab, § or Ctrl+B).`;
}

export const KeyNameSchema = z
  .string()
  .regex(KEY_NAME, { error: (issue) => (typeof issue.input === 'string' ? keyNameProblem(issue.input) : undefined) })
  .trim()
  .meta({ description: 'A key as the browser names it (KeyboardEvent.key), optionally with Ctrl+: F12, §, ~, Ctrl+B, Enter, Tab.' });

/** A scanner's prefix and suffix keys: what lies between them is a scan. */
export const ScannerFramingSchema = z
  .strictObject({ prefix: KeyNameSchema, suffix: KeyNameSchema.default(DEFAULT_SUFFIX) })
  .refine((f) => f.prefix !== f.suffix, { message: 'The prefix and the suffix must be different keys.', path: ['suffix'] })
  .meta({ description: 'The prefix and the suffix (default Enter) must be different keys, compared without surrounding white space.' });
export type ScannerFraming = z.infer<typeof ScannerFramingSchema>;

/** Receiving with items whose condition is not set: `confirm` asks for a second F2 (or Receive scan); `allow` receives at once. */
export const UNSET_CONDITION_POLICIES = ['confirm', 'allow'] as const;
export type UnsetConditionPolicy = (typeof UNSET_CONDITION_POLICIES)[number];

export const StationSettingsSchema = z.object({
  /** null: scans are told apart from typing by their speed. */
  scanner: z.object({ prefix: z.string(), suffix: z.string() }).nullable(),
  /** New manual returns default to their account's currency, else this one, else USD. */
  currency: CurrencySchema.nullable(),
  unset_conditions: z.enum(UNSET_CONDITION_POLICIES),
  /** Where unit labels print, and whether a package slip goes with them (settings stored before labels existed read the defaults). */
  labels: LabelSettingsSchema.default(DEFAULT_LABEL_SETTINGS),
  /** The weight check's tolerance and box tare (settings stored before it existed read the defaults); a site's hub's on its members. */
  weight_check: WeightCheckSettingsSchema.default(DEFAULT_WEIGHT_CHECK),
  /** Which units need their serial (by SKU pattern, first match wins); settings stored before them read none. */
  serial_rules: SerialRulesSchema.default([]),
  /** When a person last changed them; null: never (the defaults). */
  updated_at: TimestampSchema.nullable(),
});
export type StationSettings = z.infer<typeof StationSettingsSchema>;

export const DEFAULT_STATION_SETTINGS: StationSettings = {
  scanner: null,
  currency: null,
  unset_conditions: 'confirm',
  labels: DEFAULT_LABEL_SETTINGS,
  weight_check: DEFAULT_WEIGHT_CHECK,
  serial_rules: [],
  updated_at: null,
};

/** `PATCH /api/v1/station/settings`: the fields to change; `null` clears the scanner framing or the currency. */
export const StationSettingsUpdateSchema = z
  .strictObject({
    scanner: ScannerFramingSchema.nullable().optional(),
    currency: CurrencySchema.nullable().optional(),
    unset_conditions: z.enum(UNSET_CONDITION_POLICIES).optional(),
    /** The fields of `labels` to change. */
    labels: LabelSettingsUpdateSchema.optional(),
    /** The fields of `weight_check` to change. */
    weight_check: WeightCheckSettingsUpdateSchema.optional(),
    /** The serial rules, replaced whole ([]: no unit needs its serial). */
    serial_rules: SerialRulesSchema.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Give at least one setting to change.')
  .meta({ minProperties: 1 });
export type StationSettingsUpdate = z.infer<typeof StationSettingsUpdateSchema>;
/** What a caller sends (the suffix may be left out: Enter). */
export type StationSettingsUpdateInput = z.input<typeof StationSettingsUpdateSchema>;
