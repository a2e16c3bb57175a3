import type { MediaType } from '#shared/api/media.ts';
import type { ReturnPackage as PackageGetView, ReturnPackageListItem as PackageListView, SiteReceipt } from '#shared/api/return-packages.ts';
import { fail } from '../errors.ts';
import type { Frozen, ListedPackage, ReadTables, ReturnPackage, StationStore } from '../store/index.ts';
import type { ConfigCache } from './config-cache.ts';
import { lineItemsOf } from './line-items.ts';
import { mediaFilesOf } from './media-files.ts';
import { mediaFileView, packageGetView, packageListView } from './record-views.ts';

/*
 * Package views that need more than the package record: the related records (line items, media
 * files) come from the store's package reads (`store.packages`, which decides the path that serves
 * them), carriers and locations from the configuration in memory; `record-views.ts` maps them.
 */

/** The L view of a package of a list page (`store.packages.page`). */
export function packageListViewOf(config: ConfigCache, { pkg, lineItemsCount }: ListedPackage): PackageListView {
  return packageListView(pkg, { carrier: config.carrier(pkg.carrier_id), location: config.location(pkg.location_id), lineItemsCount });
}

/** The G view of `pkg` as given (a change-log entry's copy) with its line items and media files as they are now (absolute capability URLs). */
export async function packageDetailView(tables: ReadTables, config: ConfigCache, pkg: Frozen<ReturnPackage>, origin: string): Promise<PackageGetView> {
  return packageGetView(pkg, {
    carrier: config.carrier(pkg.carrier_id),
    location: config.location(pkg.location_id),
    lineItems: await lineItemsOf(tables, pkg.id),
    mediaFiles: await mediaFilesOf(tables, pkg.id),
    origin,
  });
}

/** The G view of package `id` of an account (NOT_FOUND otherwise), of one moment (`store.packages.whole`). */
export async function packageDetailOf(store: StationStore, config: ConfigCache, accountId: number, id: number, origin: string): Promise<PackageGetView> {
  const whole = await store.packages.whole(id);
  if (whole?.pkg.account_id !== accountId) throw fail('NOT_FOUND', `No return package ${id} in account ${accountId}.`);
  const { pkg, lineItems, mediaFiles } = whole;
  return packageGetView(pkg, { carrier: config.carrier(pkg.carrier_id), location: config.location(pkg.location_id), lineItems, mediaFiles, origin });
}

/** A site's whole receipt of package `id` (docs/decisions/site-receipt.md): G, the dock's notes, and each media file's bytes named. */
export async function siteReceiptOf(store: StationStore, config: ConfigCache, accountId: number, id: number, origin: string): Promise<SiteReceipt> {
  const whole = await store.packages.whole(id);
  if (whole?.pkg.account_id !== accountId) throw fail('NOT_FOUND', `No return package ${id} in account ${accountId}.`);
  const { pkg, lineItems, mediaFiles } = whole;
  const view = packageGetView(pkg, { carrier: config.carrier(pkg.carrier_id), location: config.location(pkg.location_id), lineItems, mediaFiles, origin });
  // Stored types are the allowed ones: an upload of any other is refused before it is recorded.
  return {
    ...view,
    notes: pkg.notes,
    processor_name: pkg.processor_name ?? null,
    media_files: mediaFiles.map((m) => ({ ...mediaFileView(m, origin), sha256: m.sha256, content_type: m.content_type as MediaType, size: m.size })),
  };
}
