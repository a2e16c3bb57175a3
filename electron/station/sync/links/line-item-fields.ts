import type { SiteUnit } from '#shared/api/line-items.ts';
import { PACKAGE_LINE_ITEM_FIELDS } from '#shared/fields/package-line-item.ts';
import { pickWhere } from '#shared/fields/table.ts';
import type { PackageLineItem } from '../../store/index.ts';

/*
 * A package's line item as its upstream twin should have it: what a push sends and what the link's
 * snapshot (`line_items` of the package's link) holds after it went up or came down from a hub.
 */

/**
 * The item as the upstream should have it: its return line by the upstream's id; for a site's hub,
 * with the unit's decision as this station recorded it (`site_unit`), so the hub does not decide again.
 */
export function itemBody(item: PackageLineItem, returnLineIds: Record<string, number>, site: boolean): Record<string, unknown> {
  // The fields its table sends up, its return line mapped to the upstream's.
  const body = pickWhere(PACKAGE_LINE_ITEM_FIELDS, item, (row) => row.up !== 'never');
  body.return_line_item_id = item.return_line_item_id === null ? null : (returnLineIds[String(item.return_line_item_id)] ?? null);
  if (site) body.site_unit = siteUnitOf(item);
  return body;
}

/** The unit's decision as the station recorded it (operator ids stay here: the hub has other operators). */
export function siteUnitOf(item: PackageLineItem): SiteUnit {
  const override = item.disposition_override ?? null;
  return {
    disposition: item.disposition ?? null,
    bin: item.bin ?? null,
    unit_id: item.unit_id ?? null,
    disposition_source: item.disposition ? (item.disposition_source ?? null) : null,
    disposition_override: override ? { reason: override.reason, at: override.at } : null,
    put_confirmed_at: item.put_confirmed_at ?? null,
    condition_at: item.condition_at ?? null,
  };
}
