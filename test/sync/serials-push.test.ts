import { expect, it } from 'vitest';
import { seedSpecReturn, setSpecUpstream, useSpecUpstream } from './spec-support.ts';
import { startLocal, syncOnce, waitFor } from './support.ts';

/*
 * Serial numbers upstream (docs/decisions/serials.md): a spec-only returns service with line items
 * gets a unit's serial as its tag `serial:<value>` beside the worker's own tags, and never a
 * `serial` or `serial_check` field; a corrected serial replaces the tag, once.
 */

const ACCOUNT = 1;
const SPEC_LINE_ITEM_FIELDS = ['return_line_item_id', 'quantity', 'merchant_sku', 'name', 'condition', 'defective', 'notes', 'barcode', 'tags'];
const rig = useSpecUpstream({ accounts: [ACCOUNT], dataDirPrefix: 'spec-serials-', modes: { lineItemRoutes: true } });

it("sends the serial as the line item's serial: tag, the worker's tags kept, no field of its own", async () => {
  const { fake, dataDir } = rig;
  seedSpecReturn(fake, ACCOUNT, 'serials@example.com');
  await setSpecUpstream(dataDir, fake, [ACCOUNT]);
  expect((await syncOnce(dataDir)).status).toBe(0);

  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '300' });
  try {
    const ret = (await local.api.listAccountReturns(ACCOUNT)).data.find((r) => r.email === 'serials@example.com');
    const line = ret?.return_line_items[0];
    if (!ret || !line) throw new Error('The upstream return was not pulled.');
    const pkg = await local.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: 'SERIALS-UP-1', status: 'delivered' });
    const unit = await local.api.createLineItem(ACCOUNT, pkg.id, { return_line_item_id: line.id, condition: 'new', serial: 'SN-UP-0001', tags: ['boxed'] });
    await waitFor('every change taken', async () => (await local.api.station()).sync.pending_changes === 0, 60_000);

    const theirs = () => fake.packages(ACCOUNT).find((p) => p.tracking_number === 'SERIALS-UP-1')?.line_items[0];
    expect(theirs()?.tags).toEqual(['boxed', 'serial:SN-UP-0001', 'disposition:restock', 'bin:RESTOCK', `unit:${unit.unit_id}`]);
    const sent = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/line_items'));
    expect(sent).toHaveLength(1);
    for (const request of sent) expect(Object.keys(JSON.parse(request.body) as object).sort()).toEqual([...SPEC_LINE_ITEM_FIELDS].sort());

    // Corrected at the dock: the tag is replaced upstream, the worker's tag kept, one serial tag.
    await local.api.updateLineItem(ACCOUNT, pkg.id, unit.id, { serial: 'SN-UP-0002' });
    await waitFor('the correction taken', async () => theirs()?.tags.includes('serial:SN-UP-0002') === true, 60_000);
    expect(theirs()?.tags.filter((t) => t.startsWith('serial:'))).toEqual(['serial:SN-UP-0002']);
    expect(theirs()?.tags).toContain('boxed');
    expect(JSON.stringify(fake.requests.map((r) => r.body))).not.toContain('serial_check');
  } finally {
    await local.station.stop();
  }
}, 120_000);
