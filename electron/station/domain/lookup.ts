import { normaliseScan } from '#shared/barcode.ts';
import { parseStrictId } from '#shared/api/common.ts';
import type { LookupResponse, LookupReturn } from '#shared/api/station.ts';
import type { ReturnPackage, ReturnRecord } from '../store/index.ts';
import type { DomainContext } from './context.ts';
import { packageListViews } from './package-view-loader.ts';
import { skuKey } from './returns.ts';
import { returnView } from './record-views.ts';

const MAX_MATCHES = 25;

/**
 * What a scan means across every account (docs/api-reference.md, Station resources): packages whose tracking number is
 * one of the scan's candidates (indexed, case-insensitive); only when none, returns matching it as
 * an id, a customer email or a line's SKU. An empty answer means the code is unknown.
 */
export async function lookupCode(ctx: DomainContext, raw: string): Promise<LookupResponse> {
  const { store } = ctx;
  const scan = normaliseScan(raw);
  const packages: ReturnPackage[] = [];
  for (const candidate of scan.candidates) {
    const { ids } = store.listIds('return_packages', { tracking_number: candidate, sort: '-created_at', per_page: MAX_MATCHES });
    for (const pkg of await store.db.return_packages.bulkGet(ids)) if (pkg && !packages.some((p) => p.id === pkg.id)) packages.push(pkg);
    if (packages.length > 0) break;
  }
  // Open packages first: a cancelled namesake should not hide the parcel on the dock.
  packages.sort((a, b) => Number(a.status === 'cancelled') - Number(b.status === 'cancelled'));
  const packageViews = await packageListViews(store.db, ctx.config, packages);

  const returns: LookupReturn[] = [];
  if (packages.length === 0) {
    const add = (record: ReturnRecord | undefined, matchedBy: LookupReturn['matched_by'], lineIds: number[] = []) => {
      if (!record || returns.length >= MAX_MATCHES || returns.some((r) => r.return.id === record.id)) return;
      returns.push({ account_id: record.account_id, matched_by: matchedBy, matched_line_item_ids: lineIds, return: returnView(record) });
    };
    for (const candidate of scan.candidates) {
      const id = parseStrictId(candidate);
      if (id !== null) add(await store.db.returns.get(id), 'id');
    }
    if (raw.includes('@')) {
      const { ids } = store.listIds('returns', { email: raw.trim(), per_page: MAX_MATCHES });
      for (const record of await store.db.returns.bulkGet(ids)) add(record, 'email');
    }
    for (const candidate of scan.candidates) {
      const key = skuKey(candidate);
      for (const record of await store.db.returns.where('sku_keys').equals(key).limit(MAX_MATCHES).toArray()) {
        add(record, 'merchant_sku', record.return_line_items.filter((line) => skuKey(line.merchant_sku) === key).map((line) => line.id));
      }
    }
  }
  return {
    code: scan.code,
    candidates: scan.candidates,
    packages: packageViews.map((view, index) => ({ ...view, account_id: packages[index]?.account_id ?? 0 })),
    returns,
  };
}
