import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStation, type TestStation } from '../api/support.ts';
import { usePackage } from '../../renderer/src/receiving/page-package.ts';
import { followAccounts } from '../../renderer/src/workflow/live-events.ts';
import { ApiClient } from '../../shared/api/client.ts';
import { manualReturnBody, returnLine } from '../support/manual-return.ts';
import { StationCable } from './station-cable.ts';

/*
 * The page following the station's event stream, against a real station: what another terminal (or
 * sync) changes on the package open on this bench shows here without a reload, and the stream comes
 * back after the station was out of reach.
 */

let ts: TestStation;
let other: ApiClient;
beforeAll(async () => {
  ts = await startStation();
  other = new ApiClient({ baseUrl: ts.origin, token: ts.stationToken });
});
afterAll(async () => {
  usePackage.getState().close();
  await ts.close();
});

async function openParcel() {
  const tag = Date.now().toString(36).toUpperCase();
  const ret = await other.createReturn(manualReturnBody({ account_id: 1, return_line_items: [returnLine(`LIVE-${tag}`, 1)] }));
  const pkg = await other.createPackage(1, { return_id: ret.id, tracking_number: `1ZLIVE${tag}`, status: 'delivered' });
  usePackage.getState().open({ accountId: 1, pkg: await other.getPackage(1, pkg.id), ret });
  return pkg;
}

describe('live events', () => {
  it("another terminal's change to the open package shows on this bench", async () => {
    const cable = new StationCable(ts);
    const stop = followAccounts(cable.client(), [1], 50);
    try {
      const pkg = await openParcel();
      await expect.poll(() => cable.requests.includes('GET /api/v1/accounts/1/events'), { timeout: 5000 }).toBe(true);
      await other.updatePackage(1, pkg.id, { weight: 2.5, weight_unit: 'kg' });
      await expect.poll(() => usePackage.getState().current?.pkg.weight, { timeout: 5000 }).toBe(2.5);
    } finally {
      stop();
    }
  });

  it('follows again after the station was out of reach', async () => {
    const cable = new StationCable(ts);
    cable.down = true;
    const stop = followAccounts(cable.client(), [1], 50);
    try {
      const pkg = await openParcel();
      await new Promise((r) => setTimeout(r, 150));
      cable.down = false;
      await expect.poll(() => cable.requests.includes('GET /api/v1/accounts/1/events'), { timeout: 5000 }).toBe(true);
      await other.updatePackage(1, pkg.id, { weight: 4, weight_unit: 'kg' });
      await expect.poll(() => usePackage.getState().current?.pkg.weight, { timeout: 5000 }).toBe(4);
    } finally {
      stop();
    }
  });
});
