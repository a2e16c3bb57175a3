import { normaliseScan } from '#shared/barcode.ts';
import { parseStrictId } from '#shared/api/common.ts';
import type { LookupResponse, LookupReturn, LookupUnit } from '#shared/api/station.ts';
import type { Frozen, ListedPackage, ReturnRecord } from '../store/index.ts';
import type { DomainContext } from './context.ts';
import { packageListViewOf } from './package-view-loader.ts';
import { unitIdOf } from './print-jobs.ts';
import { skuKey } from './returns.ts';
import { returnView } from './record-views.ts';

const MAX_MATCHES = 25;

/**
 * What a scan means across every account (docs/api-reference.md, Station resources): a unit id (a
 * `unit:<id>` tag: the unit's package, with `unit` naming the item); else packages whose tracking number is
 * one of the scan's candidates (indexed, case-insensitive); only when none, returns matching it as
 * an id, a customer email or a line's SKU. An empty answer means the code is unknown.
 */
export async function lookupCode(ctx: DomainContext, raw: string): Promise<LookupResponse> {
  const { store } = ctx;
  const scan = normaliseScan(raw);
  const packages: ListedPackage[] = [];
  // A unit label: the unit's package, and which item it is.
  let unit: LookupUnit | null = null;
  for (const candidate of scan.candidates) {
    const [item] = await store.packages.lineItemsOfUnit(candidate, 1);
    if (!item) continue;
    unit = { unit_id: unitIdOf(item) ?? candidate, account_id: item.account_id, return_package_id: item.return_package_id, line_item_id: item.id };
    packages.push(...(await store.packages.page([item.return_package_id])));
    break;
  }
  for (const candidate of unit ? [] : scan.candidates) {
    const { ids } = store.listIds('return_packages', { tracking_number: candidate, sort: '-created_at', per_page: MAX_MATCHES });
    for (const listed of await store.packages.page(ids)) if (!packages.some((p) => p.pkg.id === listed.pkg.id)) packages.push(listed);
    if (packages.length > 0) break;
  }
  // Open packages first: a cancelled namesake should not hide the parcel on the dock.
  packages.sort((a, b) => Number(a.pkg.status === 'cancelled') - Number(b.pkg.status === 'cancelled'));

  const returns: LookupReturn[] = [];
  if (packages.length === 0) {
    const add = (record: Frozen<ReturnRecord> | undefined, matchedBy: LookupReturn['matched_by'], lineIds: number[] = []) => {
      if (!record || returns.length >= MAX_MATCHES || returns.some((r) => r.return.id === record.id)) return;
      returns.push({ account_id: record.account_id, matched_by: matchedBy, matched_line_item_ids: lineIds, return: returnView(record) });
    };
    for (const candidate of scan.candidates) {
      const id = parseStrictId(candidate);
      if (id !== null) add(await store.returns.get(id), 'id');
    }
    if (raw.includes('@')) {
      const { ids } = store.listIds('returns', { email: raw.trim(), per_page: MAX_MATCHES });
      for (const record of await store.returns.many(ids)) add(record, 'email');
    }
    for (const candidate of scan.candidates) {
      const key = skuKey(candidate);
      for (const record of await store.tables.returns.withSkuKey(key, MAX_MATCHES)) {
        add(
          record,
          'merchant_sku',
          record.return_line_items.filter((line) => skuKey(line.merchant_sku) === key).map((line) => line.id),
        );
      }
    }
  }
  return {
    code: scan.code,
    candidates: scan.candidates,
    packages: packages.map((listed) => ({ ...packageListViewOf(ctx.config, listed), account_id: listed.pkg.account_id })),
    returns,
    unit,
  };
}
