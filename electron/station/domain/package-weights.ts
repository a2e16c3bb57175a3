import type { PackageWeigh, PackageWeight, ScaleReading } from '#shared/api/scale.ts';
import type { BoundTables, ReadTables } from '../store/index.ts';
import { packageOfAccount } from './packages.ts';
import { invalidReference } from './references.ts';

/*
 * A parcel's measured weight, the station's own record beside the package: one `station_meta` row
 * per weighed package (the last weighing wins), so the package's record and what goes upstream stay
 * as the spec shapes them. A weight is recorded only when it is stable (or typed by a person).
 */

const keyOf = (packageId: number) => `package.weight.${packageId}`;

export async function packageWeightIn(t: ReadTables, accountId: number, packageId: number): Promise<PackageWeight | null> {
  await packageOfAccount(t, accountId, packageId);
  const row = await t.station_meta.get(keyOf(packageId));
  return (row?.value as PackageWeight | undefined) ?? null;
}

/**
 * Records a weighing inside the caller's write: the terminal's weight, or the station scale's
 * `reading` (read before the write) when it is stable. Answers the weight the package has now.
 */
export async function weighPackageIn(
  t: BoundTables,
  now: string,
  accountId: number,
  packageId: number,
  body: PackageWeigh,
  reading: ScaleReading | null,
): Promise<PackageWeight | null> {
  await packageOfAccount(t, accountId, packageId);
  if (body.operator_id !== null && !(await t.operators.get(body.operator_id)))
    throw invalidReference('operator_id', `No operator ${body.operator_id} on this station.`);
  const measured =
    body.source === 'station_scale'
      ? reading?.state === 'stable' && reading.weight !== null && reading.unit !== null
        ? { weight: reading.weight, unit: reading.unit, source: 'scale' as const, scale: reading.scale }
        : null
      : { weight: body.weight, unit: body.unit, source: body.source, scale: body.source === 'scale' ? body.scale : null };
  if (!measured) return ((await t.station_meta.get(keyOf(packageId)))?.value as PackageWeight | undefined) ?? null;
  const weight: PackageWeight = { return_package_id: packageId, ...measured, operator_id: body.operator_id, weighed_at: now };
  await t.station_meta.put({ key: keyOf(packageId), value: weight });
  return weight;
}
