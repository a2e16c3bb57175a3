import type { ReturnPackage as PackageGetView, ReturnPackageListItem as PackageListView } from '#shared/api/return-packages.ts';
import type { ReturnPackage, StationTables } from '../store/index.ts';
import { lineItemsOf } from './line-items.ts';
import { mediaFilesOf } from './media-files.ts';
import { packageGetView, packageListView } from './views.ts';

/** L views of a page of packages, with their carriers, locations and line-item counts. */
export async function packageListViews(db: StationTables, packages: ReturnPackage[]): Promise<PackageListView[]> {
  return Promise.all(
    packages.map(async (pkg) =>
      packageListView(pkg, {
        carrier: pkg.carrier_id === null ? undefined : await db.carriers.get(pkg.carrier_id),
        location: pkg.location_id === null ? undefined : await db.locations.get(pkg.location_id),
        lineItemsCount: await db.package_line_items.where('return_package_id').equals(pkg.id).count(),
      }),
    ),
  );
}

/** The G view of one package: with line items, media files (absolute capability URLs) and carrier. */
export async function packageDetailView(db: StationTables, pkg: ReturnPackage, origin: string): Promise<PackageGetView> {
  return packageGetView(pkg, {
    carrier: pkg.carrier_id === null ? undefined : await db.carriers.get(pkg.carrier_id),
    location: pkg.location_id === null ? undefined : await db.locations.get(pkg.location_id),
    lineItems: await lineItemsOf(db, pkg.id),
    mediaFiles: await mediaFilesOf(db, pkg.id),
    origin,
  });
}
