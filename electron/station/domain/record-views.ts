import type { MediaFile as MediaFileView } from '#shared/api/media.ts';
import type { PackageLineItem as LineItemView } from '#shared/api/line-items.ts';
import type { z } from 'zod';
import {
  type Dimensions,
  type ReturnPackage as PackageGetView,
  type ReturnPackageCreated as PackageCreatedView,
  ReturnPackageCreatedSchema,
  type ReturnPackageListItem as PackageListView,
  ReturnPackageListItemSchema,
  ReturnPackageSchema,
  type ReturnPackageUpdated as PackageUpdatedView,
  ReturnPackageUpdatedSchema,
} from '#shared/api/return-packages.ts';
import type { ReturnRecord as ReturnView } from '#shared/api/returns.ts';
import type { Carrier, Frozen, Location, MediaFile, PackageLineItem, ReturnPackage, ReturnRecord } from '../store/index.ts';

/*
 * Records → the API's response shapes (the L/C/G/U field sets, docs/api-reference.md), typed by the
 * shared zod schemas' inferred types.
 */

export const MEDIA_PATH_PREFIX = '/media/';

function dimensionsOf(p: Readonly<ReturnPackage>): Dimensions {
  return { length: p.length, width: p.width, height: p.height, dimension_unit: p.dimension_unit };
}

/** The package's own fields a view may show, by their spec names. */
function fieldsOf(p: Readonly<ReturnPackage>) {
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
    processed_at: p.processed_at,
    processor_id: p.processor_id,
    notes: p.notes,
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

/**
 * Exactly the fields of one presence column, in its order: the keys come from the shared response
 * schema, so a view can neither miss a field nor leak one (account_id, tracking_key stay inside).
 */
function presentIn<S extends z.ZodObject>(schema: S, fields: Record<string, unknown>): z.output<S> {
  const view: Record<string, unknown> = {};
  for (const key of Object.keys(schema.shape)) view[key] = fields[key];
  return view as z.output<S>;
}

export function packageListView(
  p: Readonly<ReturnPackage>,
  related: { carrier: Carrier | undefined; location: Location | undefined; lineItemsCount: number },
): PackageListView {
  return presentIn(ReturnPackageListItemSchema, {
    ...fieldsOf(p),
    carrier: related.carrier ? { id: related.carrier.id, name: related.carrier.name, service: related.carrier.service } : null,
    fulfillment_center_id: related.location?.fulfillment_center_id ?? null,
    line_items_count: related.lineItemsCount,
  });
}

export function packageCreatedView(p: ReturnPackage): PackageCreatedView {
  return presentIn(ReturnPackageCreatedSchema, fieldsOf(p));
}

export function packageGetView(
  p: Readonly<ReturnPackage>,
  related: {
    carrier: Carrier | undefined;
    location: Location | undefined;
    lineItems: ReadonlyArray<Frozen<PackageLineItem>>;
    mediaFiles: ReadonlyArray<Frozen<MediaFile>>;
    origin: string;
  },
): PackageGetView {
  return presentIn(ReturnPackageSchema, {
    ...fieldsOf(p),
    carrier: related.carrier ? { id: related.carrier.id, name: related.carrier.name, code: related.carrier.code } : null,
    fulfillment_center_id: related.location?.fulfillment_center_id ?? null,
    line_items: related.lineItems.map(lineItemView),
    media_files: related.mediaFiles.map((m) => mediaFileView(m, related.origin)),
  });
}

export function packageUpdatedView(p: Readonly<ReturnPackage>): PackageUpdatedView {
  return presentIn(ReturnPackageUpdatedSchema, fieldsOf(p));
}

export function lineItemView(l: Frozen<PackageLineItem>): LineItemView {
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
    // Shared, not copied: the engine's own array is frozen (a view is JSON before anything could change it).
    tags: l.tags as string[],
    disposition: l.disposition ?? null,
    bin: l.bin ?? null,
    unit_id: l.unit_id ?? null,
    disposition_source: l.disposition_source ?? null,
    disposition_override: l.disposition_override
      ? { by: l.disposition_override.by, reason: l.disposition_override.reason, at: l.disposition_override.at }
      : null,
    put_confirmed_at: l.put_confirmed_at ?? null,
    put_by: l.put_by ?? null,
    condition_by: l.condition_by ?? null,
    condition_at: l.condition_at ?? null,
    labelled_at: l.labelled_at ?? null,
  };
}

/** A capability URL: the random token is the permission, so an `<img src>` works without a header. */
export function mediaFileView(m: Readonly<MediaFile>, origin: string): MediaFileView {
  return { id: m.id, url: `${origin}${MEDIA_PATH_PREFIX}${m.url_token}`, type: m.type, created_at: m.created_at, captured_at: m.captured_at ?? null };
}

export function returnView(r: Frozen<ReturnRecord>): ReturnView {
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
