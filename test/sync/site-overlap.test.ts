import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ApiClient } from '#shared/api/client.ts';
import { fetchTrusting } from '../../electron/station/tls/pinned-fetch.ts';
import { manualReturnBody, returnLine } from '../support/manual-return.ts';
import { type RunningStation, startStation } from '../support/station-process.ts';
import { type FakeReturnsService, startFakeReturnsService } from './fake-returns-service.ts';
import { setSpecUpstream } from './spec-support.ts';
import { runCli, tempDir, tracking, waitFor } from './support.ts';

/*
 * A station that joins a hub holding the same parcel under a return of its own (both registered it
 * before there was a hub): the hub's package is adopted by tracking number, so the station's package
 * moves to the hub's return, and its inspected items must be received against that return's lines
 * (by SKU; a SKU the return lacks is an unexpected item). Before, the items kept the lines of the
 * station's own return and the hub refused them ("Return N has no line M"), held for a person.
 */

const ACCOUNT = 1;
const ENV = { RETURNS_STATION_LOG_LEVEL: 'warn' };
const running: RunningStation[] = [];
const dirs: string[] = [];
let fake: FakeReturnsService | undefined;

afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  await fake?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

it('a joining station with the same parcel under its own return sends its items against the hub’s return, across a restart', { timeout: 180_000 }, async () => {
  fake = await startFakeReturnsService({ accounts: [ACCOUNT] });
  const hubDir = tempDir('site-overlap-hub-');
  const memberDir = tempDir('site-overlap-member-');
  dirs.push(hubDir, memberDir);
  await setSpecUpstream(hubDir, fake, [ACCOUNT]);
  const hub = await startStation({ dataDir: hubDir, args: ['--host', '0.0.0.0'], env: ENV });
  running.push(hub);
  const hubApi = new ApiClient({
    baseUrl: hub.origin,
    token: hub.stationToken,
    fetch: fetchTrusting({ ca: readFileSync(join(hubDir, 'tls', 'site-ca.pem'), 'utf8') }),
  });
  // The station has the account (a token of it made there before it joined), not the returns service.
  expect((await runCli(['token', 'create', '--account', String(ACCOUNT), '--data-dir', memberDir])).status).toBe(0);
  let member = await startStation({ dataDir: memberDir, env: ENV });
  running.push(member);
  let memberApi = new ApiClient({ baseUrl: member.origin, token: member.stationToken });

  // The same parcel, registered at both: the hub's return lists the lines in another order than the station's.
  const parcel = tracking('OVERLAP');
  const shirt = returnLine('TS-RED-M', 2, { name: 'T-shirt', price: 19.95 });
  const jeans = returnLine('JN-32', 1, { name: 'Jeans' });
  const hubReturn = await hubApi.createReturn({ ...manualReturnBody({ return_line_items: [jeans, shirt] }), account_id: ACCOUNT });
  await hubApi.createPackage(ACCOUNT, { return_id: hubReturn.id, tracking_number: parcel });
  const ownReturn = await memberApi.createReturn({ ...manualReturnBody({ return_line_items: [shirt, jeans] }), account_id: ACCOUNT });
  const ownPackage = await memberApi.createPackage(ACCOUNT, { return_id: ownReturn.id, tracking_number: parcel });
  const lineId = (ret: { return_line_items: Array<{ id: number; merchant_sku: string }> }, sku: string) =>
    ret.return_line_items.find((l) => l.merchant_sku === sku)?.id ?? null;
  const lineOf = (sku: string) => lineId(ownReturn, sku);
  for (const [sku, condition] of [
    ['JN-32', 'good'],
    ['TS-RED-M', 'like_new'],
  ] as const)
    await memberApi.createLineItem(ACCOUNT, ownPackage.id, {
      return_line_item_id: lineOf(sku),
      quantity: 1,
      condition,
      defective: false,
      notes: null,
      barcode: null,
      tags: [],
    });

  await memberApi.joinHub({ hub_url: hub.origin, code: (await hubApi.createSiteInvite()).code, name: 'Dock 2' });

  // The hub gets the station's two units, each against its own return's line of that SKU; nothing is held.
  const atHub = async () => (await hubApi.listPackages(ACCOUNT, { tracking_number: parcel })).data;
  const hubPackage = await waitFor(
    'the units at the hub',
    async () => {
      const [pkg] = await atHub();
      const full = pkg && (await hubApi.getPackage(ACCOUNT, pkg.id));
      return full && full.line_items.length === 2 ? full : undefined;
    },
    60_000,
  ).catch(async (e: unknown) => {
    console.log(
      JSON.stringify((await memberApi.listSyncChanges({ per_page: 100 })).data, null, 1),
      JSON.stringify(await memberApi.syncOverview()).slice(0, 800),
      JSON.stringify(await atHub()),
    );
    throw e;
  });
  expect(await atHub()).toHaveLength(1);
  const hubLineOf = (sku: string) => lineId(hubReturn, sku);
  expect(hubPackage.line_items.map((i) => [i.merchant_sku, i.condition, i.return_line_item_id]).sort()).toEqual([
    ['JN-32', 'good', hubLineOf('JN-32')],
    ['TS-RED-M', 'like_new', hubLineOf('TS-RED-M')],
  ]);
  const held = async () => (await memberApi.listSyncChanges({ per_page: 100, state: ['parked'] })).data;
  await waitFor('nothing waiting at the station', async () => (await memberApi.syncOverview()).status.pending_changes === 0, 60_000);
  expect(await held()).toEqual([]);

  // At the station the package is under the hub's return, and each item names a line of that return.
  const [local] = (await memberApi.listPackages(ACCOUNT, { tracking_number: parcel })).data;
  if (!local) throw new Error('the station lost its package');
  const localReturn = await memberApi.getReturn(ACCOUNT, local.return_id);
  const localItems = (await memberApi.getPackage(ACCOUNT, local.id)).line_items;
  for (const item of localItems) expect(localReturn.return_line_items.find((l) => l.id === item.return_line_item_id)?.merchant_sku).toBe(item.merchant_sku);

  // Across a stop and start of the station, it stays so and nothing more is sent or held.
  await member.stop();
  running.splice(running.indexOf(member), 1);
  member = await startStation({ dataDir: memberDir, env: ENV });
  running.push(member);
  memberApi = new ApiClient({ baseUrl: member.origin, token: member.stationToken });
  expect((await memberApi.getPackage(ACCOUNT, local.id)).line_items.map((i) => i.return_line_item_id)).toEqual(localItems.map((i) => i.return_line_item_id));
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  expect((await memberApi.syncOverview()).status.pending_changes).toBe(0);
  expect(await held()).toEqual([]);
  expect((await hubApi.getPackage(ACCOUNT, hubPackage.id)).line_items).toHaveLength(2);
});
