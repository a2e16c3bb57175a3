import type { ReturnPackage as PackageGetView, ReturnPackageListItem as PackageListView } from '#shared/api/return-packages.ts';
import type { ReturnPackage, StationTables } from '../store/index.ts';
import type { ConfigCache } from './config-cache.ts';
import { lineItemsOf } from './line-items.ts';
import { mediaFilesOf } from './media-files.ts';
import { packageGetView, packageListView } from './record-views.ts';

/*
 * Package views that need more than the package record: this reads the related records (line items,
 * media files, carrier, location) and hands them to the pure mappings of `record-views.ts`.
 */

async function lineItemsCount(db: StationTables, pkg: ReturnPackage): Promise<number> {
  return pkg.line_items_count ?? db.package_line_items.where('return_package_id').equals(pkg.id).count();
}

/** L views of a page of packages: carriers and locations from memory, counts from the records. */
export async function packageListViews(db: StationTables, config: ConfigCache, packages: ReturnPackage[]): Promise<PackageListView[]> {
  const views: PackageListView[] = [];
  for (const pkg of packages) {
    views.push(packageListView(pkg, { carrier: config.carrier(pkg.carrier_id), location: config.location(pkg.location_id), lineItemsCount: await lineItemsCount(db, pkg) }));
  }
  return views;
}

/** The G view of one package: with line items, media files (absolute capability URLs) and carrier. */
export async function packageDetailView(db: StationTables, config: ConfigCache, pkg: ReturnPackage, origin: string): Promise<PackageGetView> {
  return packageGetView(pkg, {
    carrier: config.carrier(pkg.carrier_id),
    location: config.location(pkg.location_id),
    lineItems: await lineItemsOf(db, pkg.id),
    mediaFiles: await mediaFilesOf(db, pkg.id),
    origin,
  });
}
