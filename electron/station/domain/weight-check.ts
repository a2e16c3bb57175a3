import type { WeightUnit } from '#shared/api/scale.ts';
import { convertWeight, type ExpectedWeightSource, type WeightCheckSettings } from '#shared/api/weight-check.ts';
import { z } from 'zod';
import type { BoundTables, PackageLineItem, ReadTables, ReturnPackage } from '../store/index.ts';
import { skuKey } from './returns.ts';

/*
 * What a parcel should weigh (docs/decisions/weight-check.md): the package's own weight from the
 * upstream; else the return's parcel weight when the return has this one package; else, for such a
 * return, the sum of its lines' SKU weights the station learned from parcels it received and
 * accepted, plus the box tare. And the learning itself, when a weighed package is received.
 */

export interface ExpectedWeight {
  weight: number;
  unit: WeightUnit;
  from: ExpectedWeightSource;
}

/** A SKU's learned weight, the goods alone, one `station_meta` row per SKU (bounded by the catalogue, not by the parcels). */
const LearnedSchema = z.object({ sku: z.string(), grams_each: z.number().positive(), samples: z.int().positive(), learned_from: z.int(), at: z.string() });
type Learned = z.infer<typeof LearnedSchema>;
const learnedKey = (sku: string) => `sku.weight.${skuKey(sku)}`;

/** A running mean over at most this many parcels: a SKU whose packing changed is followed within as many. */
const MEAN_OVER = 20;

async function learnedOf(t: Pick<ReadTables, 'station_meta'>, sku: string): Promise<Learned | null> {
  const parsed = LearnedSchema.safeParse((await t.station_meta.get(learnedKey(sku)))?.value);
  return parsed.success ? parsed.data : null;
}

/** The learned weight of a SKU in grams (the goods alone), or null when the station has not learned it. */
export async function learnedGramsOf(t: Pick<ReadTables, 'station_meta'>, sku: string): Promise<number | null> {
  return (await learnedOf(t, sku))?.grams_each ?? null;
}

/** The return's packages that still count (a cancelled one carries nothing). */
async function livePackagesOf(t: Pick<ReadTables, 'return_packages'>, returnId: number): Promise<ReturnPackage[]> {
  return (await t.return_packages.ofReturn(returnId)).filter((p) => p.status !== 'cancelled');
}

/** What the package should weigh, or null when the station has nothing to compare with. */
export async function expectedWeightOf(
  t: Pick<ReadTables, 'returns' | 'return_packages' | 'station_meta'>,
  pkg: Readonly<ReturnPackage>,
  settings: WeightCheckSettings,
): Promise<ExpectedWeight | null> {
  if (pkg.weight !== null && pkg.weight > 0 && pkg.weight_unit !== null) return { weight: pkg.weight, unit: pkg.weight_unit, from: 'package' };
  const ret = await t.returns.get(pkg.return_id);
  if (!ret) return null;
  // With more than one parcel, neither the return's weight nor its lines say what this one holds.
  const packages = await livePackagesOf(t, ret.id);
  if (packages.length !== 1 || packages[0]?.id !== pkg.id) return null;
  // The spec's return weight is 0 when the back office gave none.
  if (ret.weight > 0) return { weight: ret.weight, unit: ret.weight_unit, from: 'return' };
  let grams = 0;
  for (const line of ret.return_line_items) {
    if (line.quantity === 0) continue;
    const each = await learnedGramsOf(t, line.merchant_sku);
    // A sum with a SKU missing would call every such parcel light.
    if (each === null) return null;
    grams += each * line.quantity;
  }
  if (grams === 0) return null;
  return { weight: convertWeight(grams, 'g', 'kg') + convertWeight(settings.box_tare, settings.unit, 'kg'), unit: 'kg', from: 'learned_skus' };
}

/**
 * Learns SKU weights from a package being received, inside its write: only a weighed parcel that
 * passed (or had nothing to compare with), whose units are all expected items of its return with a
 * condition set. A parcel of one SKU teaches it: (measured − tare) / units; a parcel of several
 * teaches the one SKU not learned yet when the others are known. Anything else teaches nothing.
 */
export async function learnSkuWeightsFrom(t: BoundTables, now: string, pkg: Readonly<ReturnPackage>, settings: WeightCheckSettings): Promise<void> {
  if (pkg.measured_weight == null || pkg.measured_weight_unit == null) return;
  if (pkg.weight_verdict === 'light' || pkg.weight_verdict === 'heavy') return;
  // Held, or its finding confirmed: what it holds is in doubt (a released one was found fine).
  if (pkg.review && pkg.review.state !== 'released') return;
  const units = await t.package_line_items.ofPackage(pkg.id);
  if (units.length === 0 || !units.every(isAcceptedExpected)) return;
  const counts = new Map<string, { sku: string; quantity: number }>();
  for (const unit of units) {
    const sku = unit.merchant_sku as string;
    const seen = counts.get(skuKey(sku));
    counts.set(skuKey(sku), { sku, quantity: (seen?.quantity ?? 0) + unit.quantity });
  }
  let goods = convertWeight(pkg.measured_weight, pkg.measured_weight_unit, 'g') - convertWeight(settings.box_tare, settings.unit, 'g');
  const unknown: Array<{ sku: string; quantity: number }> = [];
  for (const entry of counts.values()) {
    const each = counts.size === 1 ? null : await learnedGramsOf(t, entry.sku);
    if (each === null) unknown.push(entry);
    else goods -= each * entry.quantity;
  }
  const [only] = unknown;
  if (unknown.length !== 1 || !only || goods <= 0) return;
  const sample = goods / only.quantity;
  const before = await learnedOf(t, only.sku);
  const samples = Math.min((before?.samples ?? 0) + 1, MEAN_OVER);
  const grams = before ? before.grams_each + (sample - before.grams_each) / samples : sample;
  const learned: Learned = { sku: only.sku, grams_each: Number(grams.toFixed(1)), samples, learned_from: pkg.id, at: now };
  await t.station_meta.put({ key: learnedKey(only.sku), value: learned });
}

/** An expected item (a line of the return, with its SKU) whose condition was set: received and accepted. */
const isAcceptedExpected = (unit: Readonly<PackageLineItem>): boolean =>
  unit.return_line_item_id !== null && unit.condition !== null && typeof unit.merchant_sku === 'string' && unit.merchant_sku.trim() !== '';
