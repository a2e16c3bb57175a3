import { z } from 'zod';
import { WeightUnitSchema } from './common.ts';

/*
 * The weight check (docs/operator-guide.md, The weight check; docs/decisions/weight-check.md): a
 * parcel's measured weight against what it should weigh, within a tolerance. The settings are
 * rule-like, so a site's hub owns them and its stations take them (shared/api/site-config.ts).
 */

/** What the weighing found: within the tolerance, lighter or heavier than it allows, or nothing to compare it with. */
export const WEIGHT_VERDICTS = ['ok', 'light', 'heavy', 'nothing_to_compare'] as const;
export type WeightVerdict = (typeof WEIGHT_VERDICTS)[number];
export const WeightVerdictSchema = z.enum(WEIGHT_VERDICTS);

/**
 * Where the expected weight came from: the package's own `weight` (the upstream's), the return's
 * parcel `weight` (the return has this one package), or the SKU weights the station learned (with
 * the box tare).
 */
export const EXPECTED_WEIGHT_SOURCES = ['package', 'return', 'learned_skus'] as const;
export type ExpectedWeightSource = (typeof EXPECTED_WEIGHT_SOURCES)[number];
export const ExpectedWeightSourceSchema = z.enum(EXPECTED_WEIGHT_SOURCES);

/** How a recorded weight was measured: a stable reading of the dock's scale, or typed by hand. */
export const WEIGHT_SOURCES = ['scale', 'typed'] as const;
export const WeightSourceSchema = z.enum(WEIGHT_SOURCES);

const weightCheckShape = {
  tolerance_percent: z.number().min(0).max(100).meta({ description: 'Allowed difference, in percent of the expected weight (0–100).' }),
  tolerance_absolute: z.number().min(0).max(100_000).meta({ description: 'Allowed difference, in `unit` (at most 100,000).' }),
  box_tare: z
    .number()
    .min(0)
    .max(100_000)
    .meta({ description: "The box and packing, in `unit` (at most 100,000): added to the learned SKU weights (which are the goods' alone)." }),
  unit: WeightUnitSchema.meta({ description: 'The unit of `tolerance_absolute` and `box_tare`.' }),
};

/**
 * The weight check's settings. A parcel passes when it differs from the expected weight by no more
 * than the larger of the two tolerances (the percentage of the expected weight, and the absolute
 * weight): the absolute one covers the scale's and the packing's noise on light parcels, the
 * percentage the spread on heavy ones.
 */
export const WeightCheckSettingsSchema = z.strictObject(weightCheckShape);
export type WeightCheckSettings = z.infer<typeof WeightCheckSettingsSchema>;

export const DEFAULT_WEIGHT_CHECK: WeightCheckSettings = { tolerance_percent: 10, tolerance_absolute: 0.1, box_tare: 0, unit: 'kg' };

/** `PATCH /api/v1/station/settings`'s `weight_check`: the fields to change. */
export const WeightCheckSettingsUpdateSchema = z.strictObject({
  tolerance_percent: weightCheckShape.tolerance_percent.optional(),
  tolerance_absolute: weightCheckShape.tolerance_absolute.optional(),
  box_tare: weightCheckShape.box_tare.optional(),
  unit: weightCheckShape.unit.optional(),
});

type WeightUnit = z.infer<typeof WeightUnitSchema>;

const GRAMS_PER: Readonly<Record<WeightUnit, number>> = { g: 1, kg: 1000, oz: 28.349523125, lb: 453.59237 };

/** A weight in another unit, to a tenth of a gram's precision in that unit (no float tails: 1.8 stays 1.8). */
export function convertWeight(value: number, from: WeightUnit, to: WeightUnit): number {
  if (from === to) return value;
  return Number(((value * GRAMS_PER[from]) / GRAMS_PER[to]).toFixed(to === 'g' ? 1 : 4));
}

/** The verdict of a measured weight against an expected one, both in `unit`, under the settings. */
export function weightVerdict(measured: number, expected: number | null, unit: WeightUnit, settings: WeightCheckSettings): WeightVerdict {
  if (expected === null) return 'nothing_to_compare';
  const allowed = Math.max((expected * settings.tolerance_percent) / 100, convertWeight(settings.tolerance_absolute, settings.unit, unit));
  // A hair's float error at the very edge is within: 1.98 against 1.80 ± 10 % passes.
  const over = Math.abs(measured - expected) - allowed;
  if (over <= 1e-9) return 'ok';
  return measured < expected ? 'light' : 'heavy';
}

/** A weight as a person reads it: `1.8 kg`, `840 g`. */
const weightText = (value: number, unit: WeightUnit): string => `${Number(value.toFixed(unit === 'g' ? 0 : 3))} ${unit}`;

/** The finding of a failed check, as the review shows it: "weighed 0.21 kg, expected 1.8 kg". */
export const weightFinding = (measured: number, expected: number, unit: WeightUnit): string =>
  `weighed ${weightText(measured, unit)}, expected ${weightText(expected, unit)}`;
