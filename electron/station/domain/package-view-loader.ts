import type { ReturnPackage as PackageGetView, ReturnPackageListItem as PackageListView } from '#shared/api/return-packages.ts';
import type { EngineTables, ReturnPackage, StationStore } from '../store/index.ts';
import type { ConfigCache } from './config-cache.ts';
import { lineItemsOf } from './line-items.ts';
import { mediaFilesOf } from './media-files.ts';
import { packageOfAccount } from './packages.ts';
import { packageGetView, packageListView } from './record-views.ts';

/*
 * Package views that need more than the package record: this reads the related records (line items,
 * media files, carrier, location) and hands them to the pure mappings of `record-views.ts`.
 */

async function lineItemsCount(tables: EngineTables, pkg: ReturnPackage): Promise<number> {
  return pkg.line_items_count ?? tables.package_line_items.where('return_package_id').equals(pkg.id).count();
}

/** L views of a page of packages: carriers and locations from memory, counts from the records. */
export async function packageListViews(tables: EngineTables, config: ConfigCache, packages: ReturnPackage[]): Promise<PackageListView[]> {
  const views: PackageListView[] = [];
  for (const pkg of packages) {
    views.push(packageListView(pkg, { carrier: config.carrier(pkg.carrier_id), location: config.location(pkg.location_id), lineItemsCount: await lineItemsCount(tables, pkg) }));
  }
  return views;
}

/** The G view of one package: with line items, media files (absolute capability URLs) and carrier. */
export async function packageDetailView(tables: EngineTables, config: ConfigCache, pkg: ReturnPackage, origin: string): Promise<PackageGetView> {
  return packageGetView(pkg, {
    carrier: config.carrier(pkg.carrier_id),
    location: config.location(pkg.location_id),
    lineItems: await lineItemsOf(tables, pkg.id),
    mediaFiles: await mediaFilesOf(tables, pkg.id),
    origin,
  });
}

/**
 * The G view of package `id` of an account (NOT_FOUND otherwise). Read in one turn from the
 * engine's memory when it can answer at once (store/engine-reads.ts: no write running on these
 * tables, the package hot), else through Dexie: the same records either way.
 */
export async function packageDetailOf(store: StationStore, config: ConfigCache, accountId: number, id: number, origin: string): Promise<PackageGetView> {
  const memory = store.inMemory;
  const pkg = memory.get('return_packages', id);
  if (pkg?.account_id === accountId) {
    const lineItems = memory.where('package_line_items', 'return_package_id', id);
    const mediaFiles = lineItems && memory.where('media_files', 'return_package_id', id);
    if (lineItems && mediaFiles) {
      return packageGetView(pkg, { carrier: config.carrier(pkg.carrier_id), location: config.location(pkg.location_id), lineItems, mediaFiles, origin });
    }
  }
  return packageDetailView(store.db, config, await packageOfAccount(store.db, accountId, id), origin);
}
