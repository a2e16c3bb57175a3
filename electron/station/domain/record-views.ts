import type { MediaFile as MediaFileView } from '#shared/api/media.ts';
import { type PackageLineItem as LineItemView, PackageLineItemSchema } from '#shared/api/line-items.ts';
import { PACKAGE_LINE_ITEM_FIELDS } from '#shared/fields/package-line-item.ts';
import type { z } from 'zod';
import { RETURN_PACKAGE_FIELDS } from '#shared/fields/return-package.ts';
import { answerValuesOf } from '#shared/fields/table.ts';
import {
  type ReturnPackage as PackageGetView,
  type ReturnPackageCreated as PackageCreatedView,
  ReturnPackageCreatedSchema,
  type ReturnPackageListItem as PackageListView,
  ReturnPackageListItemSchema,
  ReturnPackageSchema,
  type ReturnPackageUpdated as PackageUpdatedView,
  ReturnPackageUpdatedSchema,
} from '#shared/api/return-packages.ts';
import { type ReturnRecord as ReturnView, ReturnLineItemSchema, ReturnRecordSchema } from '#shared/api/returns.ts';
import { RETURN_FIELDS } from '#shared/fields/return.ts';
import type { Carrier, Frozen, Location, MediaFile, PackageLineItem, ReturnPackage, ReturnRecord } from '../store/index.ts';

/*
 * Records → the API's response shapes (the L/C/G/U field sets, docs/api-reference.md), typed by the
 * shared zod schemas' inferred types.
 */

export const MEDIA_PATH_PREFIX = '/media/';

/** The package's own fields a view may show, by their spec names (its field table says which and how). */
const fieldsOf: (p: Readonly<ReturnPackage>) => Record<string, unknown> = answerValuesOf(RETURN_PACKAGE_FIELDS);

/**
 * Exactly the fields of one presence column, in its order: the keys come from the shared response
 * schema, so a view can neither miss a field nor leak one (account_id, tracking_key stay inside).
 */
function presentIn<S extends z.ZodObject>(schema: S, fields: object): z.output<S> {
  const values = fields as Readonly<Record<string, unknown>>;
  const view: Record<string, unknown> = {};
  for (const key of Object.keys(schema.shape)) view[key] = values[key];
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

const lineItemValuesOf = answerValuesOf(PACKAGE_LINE_ITEM_FIELDS);

/** The item as answered: its table's fields (those added later null where absent). */
export function lineItemView(l: Frozen<PackageLineItem>): LineItemView {
  // The engine's own arrays and objects are shared, not copied: a view is JSON before anything could change them.
  return presentIn(PackageLineItemSchema, lineItemValuesOf(l));
}

/** A capability URL: the random token is the permission, so an `<img src>` works without a header. */
export function mediaFileView(m: Readonly<MediaFile>, origin: string): MediaFileView {
  return { id: m.id, url: `${origin}${MEDIA_PATH_PREFIX}${m.url_token}`, type: m.type, created_at: m.created_at, captured_at: m.captured_at ?? null };
}

const returnValuesOf = answerValuesOf(RETURN_FIELDS);

/** The return as answered: its table's fields, each line without what only the station keeps. */
export function returnView(r: Frozen<ReturnRecord>): ReturnView {
  return presentIn(ReturnRecordSchema, {
    ...returnValuesOf(r),
    return_line_items: r.return_line_items.map((line) => presentIn(ReturnLineItemSchema, line)),
  });
}
