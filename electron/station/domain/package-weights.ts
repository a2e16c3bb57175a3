import type { PackageWeigh, PackageWeight, ScaleReading, WeightUnit } from '#shared/api/scale.ts';
import { convertWeight, weightFinding, weightVerdict } from '#shared/api/weight-check.ts';
import type { BoundTables, ReadTables, ReturnPackage, StationStore } from '../store/index.ts';
import { logChange } from './change-log.ts';
import { advance } from './clock.ts';
import { packageOfAccount } from './packages.ts';
import { invalidReference } from './references.ts';
import { holdForReview } from './reviews.ts';
import { settingsIn } from './station-settings.ts';
import { expectedWeightOf } from './weight-check.ts';

/*
 * A parcel's weighing, kept in the package's weight check fields (shared/fields/return-package.ts,
 * `weighing`): station-owned, never sent upstream. A weight is recorded only when it is stable (or
 * typed by a person), and with it what the parcel should weigh and the verdict.
 */

/** The weighing as `GET …/weight` answers it; null when never weighed. */
export function weightOf(pkg: Readonly<ReturnPackage>): PackageWeight | null {
  if (pkg.measured_weight == null || pkg.measured_weight_unit == null || pkg.weight_source == null || pkg.weighed_at == null) return null;
  return {
    return_package_id: pkg.id,
    weight: pkg.measured_weight,
    unit: pkg.measured_weight_unit,
    source: pkg.weight_source,
    scale: pkg.weight_scale ?? null,
    operator_id: pkg.weighed_by ?? null,
    weighed_at: pkg.weighed_at,
    expected_weight: pkg.expected_weight ?? null,
    expected_from: pkg.expected_weight_from ?? null,
    verdict: pkg.weight_verdict ?? null,
  };
}

export async function packageWeightIn(t: ReadTables, accountId: number, packageId: number): Promise<PackageWeight | null> {
  return weightOf(await packageOfAccount(t, accountId, packageId));
}

interface Measured {
  weight: number;
  unit: WeightUnit;
  source: 'scale' | 'typed';
  scale: string | null;
  operator_id: number | null;
  at: string;
}

/** The package with a weighing recorded on it: the measured weight, what it should weigh (in the same unit) and the verdict. */
async function weighed(t: BoundTables, pkg: Readonly<ReturnPackage>, measured: Measured): Promise<ReturnPackage> {
  const { weight_check } = await settingsIn(t);
  const expected = await expectedWeightOf(t, pkg, weight_check);
  const expectedHere = expected ? convertWeight(expected.weight, expected.unit, measured.unit) : null;
  return {
    ...pkg,
    measured_weight: measured.weight,
    measured_weight_unit: measured.unit,
    weight_source: measured.source,
    weight_scale: measured.scale,
    weighed_at: measured.at,
    weighed_by: measured.operator_id,
    expected_weight: expectedHere,
    expected_weight_from: expected?.from ?? null,
    weight_verdict: weightVerdict(measured.weight, expectedHere, measured.unit, weight_check),
  };
}

/**
 * Records a weighing inside the caller's write: the terminal's weight, or the station scale's
 * `reading` (read before the write) when it is stable. Answers the weighing the package has now.
 */
export async function weighPackageIn(
  t: BoundTables,
  now: string,
  accountId: number,
  packageId: number,
  body: PackageWeigh,
  reading: ScaleReading | null,
): Promise<PackageWeight | null> {
  const pkg = await packageOfAccount(t, accountId, packageId);
  if (body.operator_id !== null && !(await t.operators.get(body.operator_id)))
    throw invalidReference('operator_id', `No operator ${body.operator_id} on this station.`);
  const measured =
    body.source === 'station_scale'
      ? // A stable zero is an empty scale: the parcel is not on it.
        reading?.state === 'stable' && reading.weight !== null && reading.weight > 0 && reading.unit !== null
        ? { weight: reading.weight, unit: reading.unit, source: 'scale' as const, scale: reading.scale }
        : null
      : { weight: body.weight, unit: body.unit, source: body.source, scale: body.source === 'scale' ? body.scale : null };
  if (!measured) return weightOf(pkg);
  const next = await weighed(t, pkg, { ...measured, operator_id: body.operator_id, at: now });
  next.updated_at = advance(pkg.updated_at, now);
  await t.return_packages.put(next);
  await logChange(t, { account_id: accountId, resource: 'return_package', resource_id: pkg.id, action: 'updated', data: next, at: now });
  // A failed check holds the parcel for a supervisor's review, in this same write; a later pass releases nothing.
  if ((next.weight_verdict === 'light' || next.weight_verdict === 'heavy') && next.expected_weight != null)
    await holdForReview(t, pkg.id, {
      check: 'weight',
      text: weightFinding(measured.weight, next.expected_weight, measured.unit),
      at: now,
      operator_id: body.operator_id,
    });
  return weightOf(next);
}

/** Where the first weighings were kept: one `station_meta` row per package. */
const OLD_ROW_PREFIX = 'package.weight.';

/**
 * Moves weighings kept in the old `station_meta` rows (`package.weight.<id>`) into their packages'
 * fields, with the verdict of what they compare with now, and drops the rows. Run at every start;
 * a data directory without such rows costs one look at a table kept in memory.
 */
export async function moveOldWeighings(store: StationStore): Promise<number> {
  const rows = (await store.tables.station_meta.all()).filter((row) => row.key.startsWith(OLD_ROW_PREFIX));
  if (rows.length === 0) return 0;
  return store.write(['station_meta', 'return_packages', 'returns'], async (t) => {
    let moved = 0;
    for (const row of rows) {
      const old = row.value as {
        weight: number;
        unit: WeightUnit;
        source: 'scale' | 'typed';
        scale: string | null;
        operator_id: number | null;
        weighed_at: string;
      };
      const pkg = await t.return_packages.get(Number(row.key.slice(OLD_ROW_PREFIX.length)));
      // A later weighing (in the fields) wins over the old row; a package gone leaves nothing to keep.
      if (pkg && pkg.weighed_at == null) {
        await t.return_packages.put(await weighed(t, pkg, { ...old, at: old.weighed_at }));
        moved += 1;
      }
      await t.station_meta.delete(row.key);
    }
    return moved;
  });
}
