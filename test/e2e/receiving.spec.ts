import { expect, test } from './fixtures.ts';
import { lineRow, openAndSignIn, scan, scenario, waitForQuietSync } from './receiving-helpers.ts';
import { scannerKeys, typeTimed, type TimedKey } from './wedge-keyboard.ts';

/*
 * The dock worker's whole flow against the real `serve --demo` station: sign in, scan the parcel,
 * scan each item, set conditions, photograph with Chromium's fake camera, receive — then check the
 * station's own records through the API.
 */

test('receive a three-line return: scanner for codes, touch for the rest', async ({ page, demo }) => {
  const s = await scenario(demo);
  await page.goto(demo.uiUrl);
  // Sign in by picking the name.
  await page.getByRole('button', { name: new RegExp(s.operator.name) }).click();
  await expect(page.getByTestId('operator')).toContainText(s.operator.name);
  await expect(page.getByTestId('scan-field')).toBeFocused();

  await scan(page, s.tracking.toLowerCase().replace(/(.{4})/g, '$1 '));
  await expect(page.getByTestId('package-view')).toBeVisible();
  await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);
  await expect(page.getByTestId('customer')).toHaveText(s.ret.email);
  await expect(page.getByTestId('status-badge').first()).toContainText('Delivered');

  const [a, b, c] = s.skus;
  const conditions: [string, string][] = [
    [a, 'Like new'],
    [b, 'Good'],
    [c, 'Damaged'],
  ];
  for (const [sku, condition] of conditions) {
    // Each unit is its own: the second unit of b is scanned and given its condition like the first.
    for (let unit = 0; unit < (sku === b ? 2 : 1); unit++) {
      await scan(page, sku);
      await page.getByRole('button', { name: new RegExp(condition) }).click();
      await expect(page.getByTestId('scan-field')).toBeFocused();
    }
  }
  await expect(lineRow(page, a).getByTestId('line-here')).toHaveText('1');
  await expect(lineRow(page, b).getByTestId('line-here')).toHaveText('2');
  await expect(lineRow(page, b).getByTestId('line-remaining')).toHaveText('0');

  await page.getByTestId('take-photo').click();
  await expect(page.getByTestId('photo')).toHaveCount(1);
  await expect(page.getByTestId('photo')).toHaveAttribute('data-state', 'done');

  // Every unit is here with its condition; their bins were not scanned: receiving asks once.
  await page.getByTestId('receive').click();
  await expect(page.getByTestId('notice')).toContainText(`Receive ${s.tracking} — 4 units not put in their bins?`);
  expect((await demo.api.getPackage(s.accountId, s.packageId)).status).toBe('delivered');
  await page.getByTestId('receive').click();
  await expect(page.getByTestId('notice')).toContainText(`Received ${s.tracking}`);
  await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'success');
  await expect(page.getByTestId('package-view')).toHaveCount(0);
  await expect(page.getByTestId('scan-field')).toBeFocused();

  const pkg = await demo.api.getPackage(s.accountId, s.packageId);
  expect(pkg.status).toBe('received');
  expect(pkg.processor_id).toBe(s.operator.id);
  expect(pkg.media_files).toHaveLength(1);
  const [la, lb, lc] = s.ret.return_line_items;
  expect(pkg.line_items.map((li) => [li.return_line_item_id, li.quantity, li.condition])).toEqual([
    [la?.id, 1, 'like_new'],
    [lb?.id, 1, 'good'],
    [lb?.id, 1, 'good'],
    [lc?.id, 1, 'damaged'],
  ]);
  // The photo is served at its capability URL.
  const photo = await fetch(new URL(pkg.media_files[0]?.url ?? '', demo.origin));
  expect(photo.headers.get('content-type')).toContain('image/jpeg');

  const after = await demo.api.lookup(String(s.ret.id));
  const ret = after.returns.find((r) => r.return.id === s.ret.id)?.return;
  expect(ret?.return_line_items.map((l) => l.unreceived_quantity)).toEqual([0, 0, 0]);
  expect(ret?.status).toBe('received');
});

test('receive a three-line return with the keyboard alone', async ({ page, demo }) => {
  const s = await scenario(demo, 'pending');
  await openAndSignIn(page, demo, s.operator);

  await scan(page, s.tracking);
  await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);
  const [a, b, c] = s.skus;
  // A person presses a condition key after looking at the item: wait for it as they would.
  await scan(page, a);
  await page.keyboard.press('2'); // like new
  await page.keyboard.press('Enter');
  await expect(lineRow(page, a)).toContainText('Like new');
  for (let unit = 0; unit < 2; unit++) {
    await scan(page, b);
    await page.keyboard.press('3'); // good, each unit of b in turn
    await page.keyboard.press('Enter');
  }
  await expect(lineRow(page, b)).toContainText('Good');
  await expect(page.locator(`[data-testid="unit-row"][data-sku="${b}"]`)).toContainText('Good');
  await scan(page, c);
  await page.keyboard.press('5'); // damaged
  await page.keyboard.press('F3'); // defective
  await expect(lineRow(page, c)).toContainText('Damaged · defective');
  // A mistake, undone with one key.
  await scan(page, c);
  await expect(lineRow(page, c).getByTestId('line-here')).toHaveText('2');
  await page.keyboard.press('F8');
  await expect(lineRow(page, c).getByTestId('line-here')).toHaveText('1');
  await expect(lineRow(page, c)).toContainText('Damaged · defective');

  await page.keyboard.press('F4');
  await expect(page.getByTestId('photo')).toHaveAttribute('data-state', 'done');
  await waitForQuietSync(page);
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toContainText('not put in their bins? Press F2');
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toContainText(`Received ${s.tracking}`);
  await expect(page.getByTestId('count-received')).not.toContainText('—');

  const pkg = await demo.api.getPackage(s.accountId, s.packageId);
  expect(pkg).toMatchObject({ status: 'received', processor_id: s.operator.id });
  expect(pkg.media_files).toHaveLength(1);
  expect(pkg.line_items.map((li) => [li.quantity, li.condition, li.defective]).sort()).toEqual(
    [
      [1, 'like_new', false],
      [1, 'good', false],
      [1, 'good', false],
      [1, 'damaged', true],
    ].sort(),
  );
});

test('twenty scans typed at scanner speed count exactly twenty units, wherever focus is', async ({ page, demo }) => {
  const s = await scenario(demo);
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  const sku = s.skus[1];
  await scan(page, sku);
  // Focus in the notes box: the next scan must still count as a scan, not become notes.
  await page.getByLabel('Notes').focus();
  // Nineteen more scans back to back at scanner pace (a key every 10 ms, ≥ 10 scans/s).
  const burst: TimedKey[] = [];
  for (let i = 1; i < 20; i++) burst.push(...scannerKeys(sku, (burst.at(-1)?.atMs ?? -30) + 30, 10));
  // The station answers slowly here, so scans pile up behind requests still in flight.
  await page.route('**/line_items**', async (route) => {
    await new Promise((r) => setTimeout(r, 150));
    await route.continue();
  });
  await typeTimed(page, burst);
  await expect(lineRow(page, sku).getByTestId('line-here')).toHaveText('20');
  await expect(lineRow(page, sku).getByTestId('line-remaining')).toHaveText('18 over');
  await expect(page.getByLabel('Notes')).toHaveValue('');
  await waitForQuietSync(page);
  const pkg = await demo.api.getPackage(s.accountId, s.packageId);
  // Twenty units, each an item of its own.
  expect(pkg.line_items).toHaveLength(20);
  expect(pkg.line_items.every((li) => li.quantity === 1 && li.notes === null && li.return_line_item_id === s.ret.return_line_items[1]?.id)).toBe(true);
});

test('keys pressed while the station is slow to answer a scan act on what the scan opens, in order', async ({ page, demo }) => {
  const s = await scenario(demo, 'delivered');
  await openAndSignIn(page, demo, s.operator);
  // A loaded station: every lookup answers late, so the worker is keys ahead of the screen.
  await page.route('**/lookup**', async (route) => {
    await new Promise((r) => setTimeout(r, 700));
    await route.continue();
  });
  await scan(page, s.tracking);
  await scan(page, s.skus[0]);
  await page.keyboard.press('2'); // like new
  await page.keyboard.press('F3'); // defective
  await scan(page, s.skus[1]);
  await page.keyboard.press('+');
  await page.keyboard.press('Enter');
  await expect(lineRow(page, s.skus[0])).toContainText('Like new · defective');
  await expect(lineRow(page, s.skus[1]).getByTestId('line-here')).toHaveText('2');
  // + made a unit of its own and selected it: the key after it sets that unit's condition.
  await page.keyboard.press('3'); // good
  await page.keyboard.press('Enter');
  await expect(page.locator(`[data-testid="unit-row"][data-sku="${s.skus[1]}"]`)).toContainText('Good');
  await expect(lineRow(page, s.skus[1])).toContainText('Not set');
  await expect(page.getByTestId('scan-field')).toHaveValue('');
  await waitForQuietSync(page);
  const pkg = await demo.api.getPackage(s.accountId, s.packageId);
  expect(pkg.line_items.map((li) => [li.quantity, li.condition, li.defective]).sort()).toEqual(
    [
      [1, 'like_new', true],
      [1, null, false],
      [1, 'good', false],
    ].sort(),
  );
});

test("an integrator's line of two units in different conditions: split one off with F6", async ({ page, demo }) => {
  const s = await scenario(demo);
  const sku = s.skus[1]; // the line that expects two units
  // An integration recorded both units as one line of quantity 2 (the dock records each unit alone).
  await demo.api.createLineItem(s.accountId, s.packageId, { return_line_item_id: s.ret.return_line_items[1]?.id ?? null, quantity: 2, condition: 'like_new' });
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await expect(lineRow(page, sku).getByTestId('line-here')).toHaveText('2');
  await expect(page.getByTestId('selected-item')).toContainText('Like new');
  await page.keyboard.press('F6');
  await expect(page.locator(`[data-testid="unit-row"][data-sku="${sku}"]`)).toHaveCount(1);
  await page.keyboard.press('5'); // the split unit is damaged
  await page.keyboard.press('Enter');
  await expect(page.locator(`[data-testid="unit-row"][data-sku="${sku}"]`)).toContainText('Damaged');
  await expect(lineRow(page, sku).getByTestId('line-here')).toHaveText('2');
  await waitForQuietSync(page);
  // Only this line of the three: a partial receipt, asked about once.
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toContainText('2 of 4 units scanned');
  await page.keyboard.press('F2');
  await expect(page.getByTestId('count-received')).not.toContainText('—');
  await expect.poll(async () => (await demo.api.getPackage(s.accountId, s.packageId)).status).toBe('received');
  const pkg = await demo.api.getPackage(s.accountId, s.packageId);
  const line = s.ret.return_line_items[1];
  const items = pkg.line_items.filter((li) => li.return_line_item_id === line?.id);
  expect(items.map((li) => [li.quantity, li.condition]).sort()).toEqual([
    [1, 'damaged'],
    [1, 'like_new'],
  ]);
});
