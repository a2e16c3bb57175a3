import { inStationUnit, type WeightUnit } from '#shared/api/scale.ts';

/*
 * A weight as text: what a keyboard-wedge scale types (`1.250kg`, `  +1.25 KG`, `ST,GS,+0001.25kg`
 * — a status word and a comma before the weight are read past), and what a worker types by hand
 * (`1.25`, `1,25 kg`: a decimal comma is a decimal point).
 */

const WEIGHT = /^(?:[A-Z]{2},){0,2}\s*([+-]?)\s*(\d{1,7}(?:[.,]\d{1,4})?)\s*(kg|g|lbs?|oz)\s*$/i;
const NUMBER = /^\s*(\d{1,7}(?:[.,]\d{1,4})?)\s*(kg|g|lbs?|oz)?\s*$/i;

/** A weight with its unit (`1.25 kg`), or null: what tells a wedge scale's burst from a scanned code. */
export function weightWithUnit(text: string): { value: number; unit: WeightUnit } | null {
  const match = WEIGHT.exec(text);
  if (!match) return null;
  const [, sign, digits, unit] = match as unknown as [string, string, string, string];
  return inStationUnit(Number(`${sign}${digits.replace(',', '.')}`), unit);
}

/** A weight typed by hand: a number, with a unit or in `unit`; why not, in words, when it is none. */
export function typedWeight(text: string, unit: WeightUnit): { value: number; unit: WeightUnit } | { problem: string } {
  const match = NUMBER.exec(text);
  if (!match) return { problem: 'Type the weight as a number, e.g. 1.25 (a unit may follow: kg, g, lb, oz).' };
  const [, digits, typedUnit] = match as unknown as [string, string, string | undefined];
  const weight = inStationUnit(Number(digits.replace(',', '.')), typedUnit ?? unit);
  if (!weight) return { problem: 'The unit is kg, g, lb or oz.' };
  if (weight.value <= 0) return { problem: 'A parcel weighs more than 0.' };
  return weight;
}
