import type { MediaFile as MediaFileView } from '#shared/api/media.ts';
import type { PackageLineItem as LineItemView } from '#shared/api/line-items.ts';
import type {
  Dimensions,
  ReturnPackage as PackageGetView,
  ReturnPackageCreated as PackageCreatedView,
  ReturnPackageListItem as PackageListView,
  ReturnPackageUpdated as PackageUpdatedView,
} from '#shared/api/return-packages.ts';
import type { ReturnRecord as ReturnView } from '#shared/api/returns.ts';
import type { Carrier, Location, MediaFile, PackageLineItem, ReturnPackage, ReturnRecord } from '../store/index.ts';

/*
 * Records → the contract's response shapes. Each function builds exactly the fields of its view
 * (the spec's L/C/G/U presence table), typed by the shared zod schemas' inferred types, so a field
 * can neither go missing nor leak (internal fields such as account_id or tracking_key stay inside).
 */

export const MEDIA_PATH_PREFIX = '/media/';

function dimensionsOf(p: ReturnPackage): Dimensions {
  return { length: p.length, width: p.width, height: p.height, dimension_unit: p.dimension_unit };
}

export function packageListView(p: ReturnPackage, related: { carrier: Carrier | undefined; location: Location | undefined; lineItemsCount: number }): PackageListView {
  return {
    id: p.id,
    return_id: p.return_id,
    tracking_number: p.tracking_number,
    status: p.status,
    estimated_arrival: p.estimated_arrival,
    weight: p.weight,
    weight_unit: p.weight_unit,
    dimensions: dimensionsOf(p),
    carrier: related.carrier ? { id: related.carrier.id, name: related.carrier.name, service: related.carrier.service } : null,
    location_id: p.location_id,
    fulfillment_center_id: related.location?.fulfillment_center_id ?? null,
    line_items_count: related.lineItemsCount,
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

export function packageCreatedView(p: ReturnPackage): PackageCreatedView {
  return {
    id: p.id,
    return_id: p.return_id,
    tracking_number: p.tracking_number,
    status: p.status,
    estimated_arrival: p.estimated_arrival,
    shipping_method: p.shipping_method,
    weight: p.weight,
    weight_unit: p.weight_unit,
    dimensions: dimensionsOf(p),
    shipping_label_cost: p.shipping_label_cost,
    shipping_label_cost_currency: p.shipping_label_cost_currency,
    carrier_id: p.carrier_id,
    location_id: p.location_id,
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

export function packageGetView(
  p: ReturnPackage,
  related: { carrier: Carrier | undefined; location: Location | undefined; lineItems: PackageLineItem[]; mediaFiles: MediaFile[]; origin: string },
): PackageGetView {
  return {
    id: p.id,
    return_id: p.return_id,
    tracking_number: p.tracking_number,
    status: p.status,
    estimated_arrival: p.estimated_arrival,
    actual_arrival: p.actual_arrival,
    shipping_method: p.shipping_method,
    weight: p.weight,
    weight_unit: p.weight_unit,
    dimensions: dimensionsOf(p),
    shipping_label_cost: p.shipping_label_cost,
    shipping_label_cost_currency: p.shipping_label_cost_currency,
    carrier_id: p.carrier_id,
    carrier: related.carrier ? { id: related.carrier.id, name: related.carrier.name, code: related.carrier.code } : null,
    location_id: p.location_id,
    fulfillment_center_id: related.location?.fulfillment_center_id ?? null,
    line_items: related.lineItems.map(lineItemView),
    media_files: related.mediaFiles.map((m) => mediaFileView(m, related.origin)),
    processed_at: p.processed_at,
    processor_id: p.processor_id,
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

export function packageUpdatedView(p: ReturnPackage): PackageUpdatedView {
  return {
    id: p.id,
    return_id: p.return_id,
    tracking_number: p.tracking_number,
    status: p.status,
    estimated_arrival: p.estimated_arrival,
    actual_arrival: p.actual_arrival,
    shipping_method: p.shipping_method,
    weight: p.weight,
    weight_unit: p.weight_unit,
    dimensions: dimensionsOf(p),
    shipping_label_cost: p.shipping_label_cost,
    shipping_label_cost_currency: p.shipping_label_cost_currency,
    carrier_id: p.carrier_id,
    location_id: p.location_id,
    notes: p.notes,
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

export function lineItemView(l: PackageLineItem): LineItemView {
  return {
    id: l.id,
    return_line_item_id: l.return_line_item_id,
    quantity: l.quantity,
    merchant_sku: l.merchant_sku,
    name: l.name,
    condition: l.condition,
    defective: l.defective,
    notes: l.notes,
    barcode: l.barcode,
    tags: l.tags,
  };
}

/** A capability URL: the random token is the permission, so an `<img src>` works without a header. */
export function mediaFileView(m: MediaFile, origin: string): MediaFileView {
  return { id: m.id, url: `${origin}${MEDIA_PATH_PREFIX}${m.url_token}`, type: m.type, created_at: m.created_at };
}

export function returnView(r: ReturnRecord): ReturnView {
  return {
    id: r.id,
    account_id: r.account_id,
    status: r.status,
    email: r.email,
    receive_by: r.receive_by,
    total_price: r.total_price,
    currency: r.currency,
    weight: r.weight,
    weight_unit: r.weight_unit,
    reason_of_return: r.reason_of_return,
    length: r.length,
    width: r.width,
    height: r.height,
    dimension_unit: r.dimension_unit,
    return_line_items: r.return_line_items.map((line) => ({
      id: line.id,
      quantity: line.quantity,
      unreceived_quantity: line.unreceived_quantity,
      name: line.name,
      price: line.price,
      currency: line.currency,
      merchant_sku: line.merchant_sku,
    })),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
