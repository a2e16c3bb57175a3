import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDockDayStore, type SaveFile } from '../../renderer/src/supervisor/dock-day-store.ts';
import { createPackage, createReturn, startStation, type TestStation } from '../api/support.ts';
import { StationCable } from './station-cable.ts';

/*
 * The supervisor's dock day against a real station: today's day and an earlier one, how long a parcel
 * may wait, and a clear message (the day on screen kept) when the station cannot be reached.
 */

let ts: TestStation;
const TRACKING = `1ZDD${Date.now().toString(36)}`;
const DAMAGED = `1ZEX${Date.now().toString(36)}`;
beforeAll(async () => {
  ts = await startStation();
  const ret = await createReturn(ts.origin, ts.account1);
  await createPackage(ts.origin, ts.account1, 1, ret.id, { tracking_number: TRACKING, status: 'delivered' });
  const damaged = await createPackage(ts.origin, ts.account1, 1, ret.id, { tracking_number: DAMAGED, status: 'delivered' });
  await new StationCable(ts).client().updatePackage(1, damaged.id, { status: 'exception' });
});
afterAll(async () => {
  await ts.close();
});

/** Files the store handed over, as the page's download would save them. */
function savedFiles(): { files: Array<{ name: string; text: string; type: string }>; save: SaveFile } {
  const files: Array<{ name: string; text: string; type: string }> = [];
  return { files, save: (name, text, type) => files.push({ name, text, type }) };
}

describe('the dock day', () => {
  it('shows today, then the day and waiting time the supervisor picks', async () => {
    const dock = createDockDayStore(new StationCable(ts).client(), savedFiles().save);
    await dock.getState().load();
    const today = dock.getState().day;
    expect(dock.getState().error).toBeNull();
    expect(today).toMatchObject({ received_packages: 0, waiting_minutes: 60, waiting_total: 0 });
    expect(today?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The parcel in exception needs a person, whatever the day.
    expect(today?.exceptions.map((p) => [p.tracking_number, p.account_id])).toEqual([[DAMAGED, 1]]);

    dock.getState().setDate('2026-01-02');
    await vi.waitFor(() => expect(dock.getState().day?.date).toBe('2026-01-02'));
    expect(dock.getState().day?.exceptions_total).toBe(1);
    dock.getState().setWaitingMinutes(5);
    await vi.waitFor(() => expect(dock.getState().day?.waiting_minutes).toBe(5));
    // The delivered parcel arrived just now: not waiting yet.
    expect(dock.getState().day?.waiting.map((p) => p.tracking_number)).not.toContain(TRACKING);
  });

  it('shows where the day’s units went: by disposition, by bin with the puts confirmed, and who overrode the rules and why', async () => {
    const api = new StationCable(ts).client();
    const worker = await api.createOperator({ name: 'Sam Sorter', badge_code: `B${Date.now().toString(36)}` });
    const ret = await createReturn(ts.origin, ts.account1);
    const pkg = await createPackage(ts.origin, ts.account1, 1, ret.id, { status: 'delivered' });
    const good = await api.createLineItem(1, pkg.id, { return_line_item_id: ret.return_line_items[0]?.id ?? null, condition: 'good', quantity: 2 });
    const scratched = await api.createLineItem(1, pkg.id, { return_line_item_id: null, merchant_sku: 'SKU-SCR', condition: 'new' });
    await api.confirmPut(1, pkg.id, good.id, { bin: 'REFURB' });
    await api.updateLineItem(1, pkg.id, scratched.id, { disposition: 'liquidate', disposition_reason: 'Scratched face', disposition_by: worker.id });
    await api.updatePackage(1, pkg.id, { status: 'received', processor_id: worker.id });

    const dock = createDockDayStore(new StationCable(ts).client(), savedFiles().save);
    await dock.getState().load();
    const day = dock.getState().day;
    expect(day?.per_disposition.filter((d) => d.units > 0)).toEqual([
      { disposition: 'refurbish', units: 2, overridden: 0 },
      { disposition: 'liquidate', units: 1, overridden: 1 },
    ]);
    expect(day?.per_bin).toEqual([
      { bin: 'REFURB', units: 2, put_confirmed: 2, dispositions: ['refurbish'] },
      { bin: 'LIQUIDATE', units: 1, put_confirmed: 0, dispositions: ['liquidate'] },
    ]);
    expect(day?.overrides_per_worker).toMatchObject([
      {
        operator_id: worker.id,
        name: 'Sam Sorter',
        overrides: 1,
        latest: [{ item: 'SKU-SCR', disposition: 'liquidate', reason: 'Scratched face', line_item_id: scratched.id, package_id: pkg.id }],
      },
    ]);

    // The export carries each unit's disposition, bin and id.
    const saved = savedFiles();
    await createDockDayStore(new StationCable(ts).client(), saved.save).getState().exportCsv();
    const rows = saved.files[0]?.text.split('\r\n') ?? [];
    expect(rows[0]).toContain(',disposition,bin,unit_id,put_confirmed_at');
    expect(rows.find((r) => r.includes('SKU-SCR'))).toContain(`,liquidate,LIQUIDATE,${scratched.unit_id},`);
  });

  it('says so when the station cannot be reached, and keeps the day it showed', async () => {
    const cable = new StationCable(ts);
    const saved = savedFiles();
    const dock = createDockDayStore(cable.client(), saved.save);
    await dock.getState().load();
    const shown = dock.getState().day;
    expect(shown).not.toBeNull();
    cable.down = true;
    await dock.getState().load();
    expect(dock.getState().error).toBe('The station cannot be reached. Your work stays on screen; try again when it is back.');
    expect(dock.getState().day).toEqual(shown);
    expect(dock.getState().loading).toBe(false);
    // The export says so too, and saves nothing.
    await dock.getState().exportCsv();
    expect(saved.files).toEqual([]);
    expect(dock.getState().error).toBe('The station cannot be reached. Your work stays on screen; try again when it is back.');
  });

  it('saves the chosen day’s receipts as a CSV file named after the day', async () => {
    const saved = savedFiles();
    const dock = createDockDayStore(new StationCable(ts).client(), saved.save);
    dock.getState().setDate('2026-01-02');
    await vi.waitFor(() => expect(dock.getState().day?.date).toBe('2026-01-02'));
    await dock.getState().exportCsv();
    expect(dock.getState().error).toBeNull();
    expect(saved.files).toHaveLength(1);
    expect(saved.files[0]).toMatchObject({ name: 'receipts-2026-01-02.csv', type: 'text/csv' });
    expect(saved.files[0]?.text.split('\n')[0]).toContain('received_at');
  });
});
