import { expect, test } from './fixtures.ts';
import { createReturn, firstAccount, lineRow, openAndSignIn, scan, scenario, uid, waitForQuietSync } from './receiving-helpers.ts';
import { typeTimed } from './wedge-keyboard.ts';

/*
 * Receiving asks, once, when something is missing — nothing scanned, fewer units than the return
 * expects, conditions, bin puts — and a second F2 receives. Through the keyboard (CDP keys), checked
 * on the station: the package (on its way, delivered when opened at the dock) is not received after
 * the first F2 and is received after the second;
 * a partial receipt is on the Today screen's review list. A received or cancelled package shows one
 * state and offers no receive.
 */

const F2 = () => [{ key: 'F2', atMs: 0 }];

test('F2 on a package with nothing scanned asks first, also when the station allows unset conditions; a second F2 receives', async ({ page, demo }) => {
  await demo.api.updateStationSettings({ unset_conditions: 'allow' });
  const s = await scenario(demo);
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);
  await typeTimed(page, F2());
  await expect(page.getByTestId('notice')).toHaveText(
    `Receive ${s.tracking} — nothing scanned? Press F2 (or scan or tap Receive) again to receive it as it is.`,
  );
  await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'warning');
  expect((await demo.api.getPackage(s.accountId, s.packageId)).status).toBe('delivered');
  await typeTimed(page, F2());
  await expect(page.getByTestId('notice')).toContainText(`Received ${s.tracking} — 0 units`);
  await expect.poll(async () => (await demo.api.getPackage(s.accountId, s.packageId)).status).toBe('received');
});

test('a partial receipt is asked about once, listing what is missing, and is on the Today screen to review', async ({ page, demo }) => {
  const s = await scenario(demo);
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  // One unit of four: the second line expects two.
  await scan(page, s.skus[1]);
  await expect(lineRow(page, s.skus[1]).getByTestId('line-here')).toHaveText('1');
  await waitForQuietSync(page);
  await typeTimed(page, F2());
  const notice = page.getByTestId('notice');
  await expect(notice).toContainText(`Receive ${s.tracking} — 1 of 4 units scanned (Item A `);
  await expect(notice).toContainText(' 0 of 1, Item B ');
  await expect(notice).toContainText(' 1 of 2, Item C ');
  await expect(notice).toContainText('1 unit with no condition');
  expect((await demo.api.getPackage(s.accountId, s.packageId)).status).toBe('delivered');
  // Something changed (a condition): the question is asked again, for what is missing now.
  await typeTimed(page, [
    { key: '2', atMs: 0 },
    { key: 'Enter', atMs: 200 },
  ]);
  await expect(lineRow(page, s.skus[1])).toContainText('Like new');
  await waitForQuietSync(page);
  await typeTimed(page, F2());
  await expect(notice).toContainText('1 of 4 units scanned');
  await expect(notice).not.toContainText('no condition');
  await expect(notice).toContainText('1 unit not put in its bin');
  expect((await demo.api.getPackage(s.accountId, s.packageId)).status).toBe('delivered');
  await typeTimed(page, F2());
  await expect(notice).toContainText(`Received ${s.tracking} — 1 unit`);
  await expect.poll(async () => (await demo.api.getPackage(s.accountId, s.packageId)).status).toBe('received');

  // On the station's dock day, and on the Today screen, with why.
  const day = await demo.api.dockDay();
  expect(day.review.filter((r) => r.package_id === s.packageId).map((r) => [r.kind, r.item, r.expected, r.received])).toEqual([
    ['short_receipt', s.skus[0], 1, 0],
    ['short_receipt', s.skus[1], 2, 1],
    ['short_receipt', s.skus[2], 1, 0],
  ]);
  await page.keyboard.press('Alt+D');
  await expect(page.getByTestId('supervisor-review')).toContainText(`Partial receipt ${s.skus[1]} — 1 of 2 in ${s.tracking}`);
});

test('a received package shows one state and offers its correction, not a receive; a cancelled one offers nothing', async ({ page, demo }) => {
  const s = await scenario(demo);
  const gone = await scenario(demo);
  await demo.api.createLineItem(s.accountId, s.packageId, { return_line_item_id: s.ret.return_line_items[0]?.id ?? null, quantity: 1, condition: 'good' });
  await demo.api.updatePackage(s.accountId, s.packageId, { status: 'received', processor_id: s.operator.id });
  await demo.api.updatePackage(gone.accountId, gone.packageId, { status: 'cancelled' });
  await openAndSignIn(page, demo, s.operator);

  await scan(page, s.tracking);
  const state = page.getByTestId('package-locked');
  await expect(state).toHaveAttribute('data-status', 'received');
  await expect(state).toContainText('already received');
  await expect(page.getByTestId('notice')).toHaveText(`Opened ${s.tracking} — received.`);
  await expect(page.getByTestId('receive')).toHaveCount(0);
  await expect(page.getByTestId('correct-receipt')).toBeVisible();
  await expect(page.getByTestId('key-legend')).toContainText('F7 correct receipt');
  await expect(page.getByTestId('key-legend')).not.toContainText('F2');
  await typeTimed(page, F2());
  await expect(page.getByTestId('notice')).toContainText('Press F7 to correct the receipt');
  expect((await demo.api.getPackage(s.accountId, s.packageId)).processor_id).toBe(s.operator.id);

  await scan(page, gone.tracking);
  await expect(state).toHaveAttribute('data-status', 'cancelled');
  await expect(page.getByTestId('notice')).toHaveText(`Opened ${gone.tracking} — cancelled.`);
  await expect(page.getByText('Scan an item to record it')).toHaveCount(0);
  await expect(page.getByTestId('receive')).toHaveCount(0);
  await expect(page.getByTestId('correct-receipt')).toHaveCount(0);
  await expect(page.getByTestId('key-legend')).not.toContainText('F2');
  await expect(page.getByTestId('key-legend')).not.toContainText('F7');
  await typeTimed(page, F2());
  await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'error');
  expect((await demo.api.getPackage(gone.accountId, gone.packageId)).status).toBe('cancelled');
});

test('a return sent in two parcels: each is received at once with what it brought, and neither is a partial receipt on Today', async ({ page, demo }) => {
  const tag = uid();
  const accountId = await firstAccount(demo.api);
  // Item A twice, B and C once; the first parcel brings A and B, the second A and C.
  const { ret, skus } = await createReturn(demo.api, accountId, tag, [2, 1, 1]);
  const parcels = [`1Z${tag}00001${tag}`, `1Z${tag}00002${tag}`];
  const ids: number[] = [];
  for (const tracking of parcels)
    ids.push((await demo.api.createPackage(accountId, { return_id: ret.id, tracking_number: tracking, status: 'in_transit' })).id);
  const operator = await demo.api.createOperator({ name: `Dock worker ${tag}`, badge_code: `BADGE-${tag}` });
  await openAndSignIn(page, demo, operator);
  const notice = page.getByTestId('notice');

  const contents = [
    [skus[0], skus[1]],
    [skus[0], skus[2]],
  ];
  for (const [i, tracking] of parcels.entries()) {
    await scan(page, tracking);
    await expect(page.getByTestId('tracking-number')).toHaveText(tracking);
    for (const sku of contents[i] ?? []) {
      await scan(page, sku);
      await typeTimed(page, [
        { key: '1', atMs: 0 },
        { key: 'Enter', atMs: 200 },
      ]);
      await expect(lineRow(page, sku)).toContainText('New');
      await scan(page, 'RESTOCK');
      await expect(notice).toContainText('Put in RESTOCK');
    }
    await waitForQuietSync(page);
    // One F2: nothing is missing, in the first parcel (the second is still to come) as in the second.
    await typeTimed(page, F2());
    await expect(notice).toContainText(`Received ${tracking} — 2 units`);
    await expect.poll(async () => (await demo.api.getPackage(accountId, ids[i] ?? 0)).status).toBe('received');
  }

  const recorded = await demo.api.getReturn(accountId, ret.id);
  expect(recorded.return_line_items.map((l) => l.unreceived_quantity)).toEqual([0, 0, 0]);
  const day = await demo.api.dockDay();
  expect(day.review.filter((r) => ids.includes(r.package_id))).toEqual([]);
});
