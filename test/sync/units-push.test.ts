import { expect, it } from 'vitest';
import { seedSpecReturn, setSpecUpstream, useSpecUpstream } from './spec-support.ts';
import { startLocal, syncOnce, waitFor } from './support.ts';

/*
 * Each unit its own (docs/decisions/units.md) upstream: two units of one return line reach a returns
 * service that has line items as two line items of quantity 1, each with its own condition and its
 * own `unit:` tag, and no request carries the station's own fields (who set the condition, the put,
 * the unit id as a field) — only the spec's fields and the tags.
 */

const ACCOUNT = 1;
const SPEC_LINE_ITEM_FIELDS = ['return_line_item_id', 'quantity', 'merchant_sku', 'name', 'condition', 'defective', 'notes', 'barcode', 'tags'];
const rig = useSpecUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'spec-units-', modes: { lineItemRoutes: true } });

it('pushes two units of one return line as two line items of quantity 1 with the spec fields only', async () => {
  const { fake, dataDir } = rig;
  const upstreamReturn = seedSpecReturn(fake, ACCOUNT, 'units@example.com');
  await setSpecUpstream(dataDir, fake, [ACCOUNT]);
  expect((await syncOnce(dataDir)).status).toBe(0);

  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '300' });
  try {
    const ada = await local.api.createOperator({ name: 'Ada', badge_code: 'BADGE-SPEC-UNITS' });
    const ret = (await local.api.listAccountReturns(ACCOUNT)).data.find((r) => r.email === 'units@example.com');
    const line = ret?.return_line_items[0];
    if (!ret || !line) throw new Error('The upstream return was not pulled.');
    const pkg = await local.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: 'UNITS-UP-1', status: 'delivered' });
    const first = await local.api.createLineItem(ACCOUNT, pkg.id, { return_line_item_id: line.id, condition: 'new', condition_by: ada.id });
    const second = await local.api.createLineItem(ACCOUNT, pkg.id, { return_line_item_id: line.id, condition: 'damaged', condition_by: ada.id });
    await local.api.confirmPut(ACCOUNT, pkg.id, first.id, { bin: 'RESTOCK', put_by: ada.id });
    await waitFor('every change taken', async () => (await local.api.station()).sync.pending_changes === 0, 60_000);

    const theirs = fake.packages(ACCOUNT).find((p) => p.tracking_number === 'UNITS-UP-1');
    expect(theirs?.line_items.map((i) => [i.return_line_item_id, i.quantity, i.merchant_sku, i.condition])).toEqual([
      [upstreamReturn.return_line_items[0]?.id, 1, 'SPEC-SKU', 'new'],
      [upstreamReturn.return_line_items[0]?.id, 1, 'SPEC-SKU', 'damaged'],
    ]);
    const unitTags = theirs?.line_items.map((i) => i.tags.find((t) => t.startsWith('unit:')));
    expect(unitTags).toEqual([`unit:${first.unit_id}`, `unit:${second.unit_id}`]);
    expect(theirs?.line_items.map((i) => i.tags.find((t) => t.startsWith('bin:')))).toEqual(['bin:RESTOCK', 'bin:LIQUIDATE']);

    const sent = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/line_items'));
    expect(sent).toHaveLength(2);
    for (const request of sent) expect(Object.keys(JSON.parse(request.body) as object).sort()).toEqual([...SPEC_LINE_ITEM_FIELDS].sort());

    // A unit's label is the station's own fact (its terminals hear of it): nothing goes upstream for it.
    const before = fake.requests.length;
    await local.api.createUnitLabel(ACCOUNT, pkg.id, second.id);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(fake.requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
    expect((await local.api.station()).sync.pending_changes).toBe(0);
  } finally {
    await local.station.stop();
  }
}, 120_000);
