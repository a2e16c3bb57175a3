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

async function lineItemsCount(tables: EngineTables, pkg: Readonly<ReturnPackage>): Promise<number> {
  return pkg.line_items_count ?? tables.package_line_items.where('return_package_id').equals(pkg.id).count();
}

/** L views of a page of packages: carriers and locations from memory, counts from the records. */
export async function packageListViews(tables: EngineTables, config: ConfigCache, packages: ReadonlyArray<Readonly<ReturnPackage>>): Promise<PackageListView[]> {
  const views: PackageListView[] = [];
  for (const pkg of packages) views.push(listViewOf(config, pkg, await lineItemsCount(tables, pkg)));
  return views;
}

/**
 * `packageListViews` without a read (for the engine's own records, which must become JSON within
 * this turn): undefined when a package does not carry its line-item count (written before it did).
 */
export function packageListViewsNow(config: ConfigCache, packages: ReadonlyArray<Readonly<ReturnPackage>>): PackageListView[] | undefined {
  const views: PackageListView[] = [];
  for (const pkg of packages) {
    if (pkg.line_items_count === undefined) return undefined;
    views.push(listViewOf(config, pkg, pkg.line_items_count));
  }
  return views;
}

function listViewOf(config: ConfigCache, pkg: Readonly<ReturnPackage>, lineItemsCount: number): PackageListView {
  return packageListView(pkg, { carrier: config.carrier(pkg.carrier_id), location: config.location(pkg.location_id), lineItemsCount });
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
 * The G view of package `id` of an account made from the engine's own records (store/engine-reads.ts,
 * `peek`: no copies) when memory can answer at once — no write running on these tables, the package
 * hot and the account's — else undefined. Its line items' tags are the engine's own arrays: make it
 * into JSON in the same turn, never keep or change it.
 */
export function packageDetailInMemory(store: StationStore, config: ConfigCache, accountId: number, id: number, origin: string): PackageGetView | undefined {
  const memory = store.inMemory;
  const pkg = memory.peek('return_packages', id);
  if (pkg?.account_id !== accountId) return undefined;
  // Its line items and media files are of its return's cluster (hot-set/rule.ts).
  const lineItems = memory.peekWhere('package_line_items', 'return_package_id', id, pkg.return_id);
  const mediaFiles = lineItems && memory.peekWhere('media_files', 'return_package_id', id, pkg.return_id);
  if (!lineItems || !mediaFiles) return undefined;
  return packageGetView(pkg, { carrier: config.carrier(pkg.carrier_id), location: config.location(pkg.location_id), lineItems, mediaFiles, origin });
}

/**
 * The G view of package `id` of an account (NOT_FOUND otherwise), read through Dexie: from the
 * engine or, for a cold package, from SQLite.
 */
export async function packageDetailOf(store: StationStore, config: ConfigCache, accountId: number, id: number, origin: string): Promise<PackageGetView> {
  return packageDetailView(store.db, config, await packageOfAccount(store.db, accountId, id), origin);
}
