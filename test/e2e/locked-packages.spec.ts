import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { lineRow, openAndSignIn, scan, scenario, waitForQuietSync } from './receiving-helpers.ts';
import { scannerKeys, typeTimed } from './wedge-keyboard.ts';

/*
 * Received and cancelled packages cannot be changed by a stray scan or key; correcting a receipt is
 * an explicit, recorded action (F7); an exception package needs every item inspected and a second F2.
 */

test('a received package refuses scans and keys until "Correct receipt", which records who changed what', async ({ page, demo }) => {
  const s = await scenario(demo, 'delivered');
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await scan(page, s.skus[1]);
  await scan(page, s.skus[1]);
  await waitForQuietSync(page);
  // Items without a condition: the station's default asks for a second F2.
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toContainText('no condition');
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toContainText(`Received ${s.tracking}`);

  // Re-opened by a stray scan: the scan of an item is refused with the error tone, nothing changes.
  await scan(page, s.tracking);
  await expect(page.getByTestId('package-locked')).toContainText('already received');
  await scan(page, s.skus[1]);
  await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'error');
  await expect(page.getByTestId('notice')).toContainText('F7');
  await expect(lineRow(page, s.skus[1]).getByTestId('line-here')).toHaveText('2');
  // Keys pressed by hand, one at a time (each answered before the next, as a person would).
  for (const key of ['3', '+']) {
    await pressAndWaitForAnswer(page, key);
    await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'error');
    await expect(page.getByTestId('notice')).toContainText('Press F7');
  }
  let pkg = await demo.api.getPackage(s.accountId, s.packageId);
  expect(pkg.line_items.map((i) => [i.quantity, i.condition])).toEqual([
    [1, null],
    [1, null],
  ]);

  // The explicit correction: allowed, and recorded on the changed item.
  await page.keyboard.press('F7');
  await expect(page.getByTestId('correcting-receipt')).toContainText(s.operator.name);
  await pressAndWaitForAnswer(page, '3');
  await expect(page.getByTestId('notice')).toContainText('Condition: Good');
  await expect(lineRow(page, s.skus[1])).toContainText('Good');
  await waitForQuietSync(page);
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toContainText(`Corrected the receipt of ${s.tracking}`);
  pkg = await demo.api.getPackage(s.accountId, s.packageId);
  expect(pkg).toMatchObject({ status: 'received', processor_id: s.operator.id });
  // The correction's own tag, then the station's for the disposition the new condition gives,
  // on the unit selected when the package opened (the first); the other unit is as it was.
  const unitId = pkg.line_items[0]?.unit_id;
  expect(pkg.line_items[0]).toMatchObject({
    quantity: 1,
    condition: 'good',
    condition_by: s.operator.id,
    disposition: 'refurbish',
    tags: [`corrected-by-${s.operator.id}`, 'disposition:refurbish', 'bin:REFURB', `unit:${unitId}`],
  });
  expect(pkg.line_items[1]).toMatchObject({ quantity: 1, condition: null, disposition: null, tags: [] });
});

test('a cancelled package takes nothing', async ({ page, demo }) => {
  const s = await scenario(demo, 'pending');
  await demo.api.updatePackage(s.accountId, s.packageId, { status: 'cancelled' });
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await expect(page.getByTestId('package-locked')).toContainText('cancelled');
  await scan(page, s.skus[0]);
  await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'error');
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'error');
  const pkg = await demo.api.getPackage(s.accountId, s.packageId);
  expect(pkg).toMatchObject({ status: 'cancelled', line_items: [] });
});

test('an exception package is received only with every item inspected and a second F2', async ({ page, demo }) => {
  const s = await scenario(demo, 'delivered');
  await demo.api.updatePackage(s.accountId, s.packageId, { status: 'exception' });
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await expect(page.getByTestId('exception-rule')).toBeVisible();
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'error');
  await scan(page, s.skus[0]);
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toContainText('set the condition of every item');
  await page.keyboard.press('4');
  await page.keyboard.press('Enter');
  await waitForQuietSync(page);
  await page.keyboard.press('F2');
  // One question, with what is short and not put besides.
  await expect(page.getByTestId('notice')).toContainText(`${s.tracking} is an exception — 1 of 4 units scanned`);
  await expect(page.getByTestId('notice')).toContainText('1 unit not put in its bin. Press F2 again');
  expect((await demo.api.getPackage(s.accountId, s.packageId)).status).toBe('exception');
  // A unit scanned right before the second F2 is looked at first: no condition, no receipt.
  await typeTimed(page, [...scannerKeys(s.skus[2], 0, 10), { key: 'F2', atMs: s.skus[2].length * 10 + 20 }]);
  await expect(page.getByTestId('notice')).toContainText('set the condition of every item first (1 not set)');
  await page.keyboard.press('4');
  await page.keyboard.press('Enter');
  await waitForQuietSync(page);
  // The units changed since the question: it is asked again, not taken as confirmed.
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toContainText('2 units not put in their bins. Press F2 again');
  expect((await demo.api.getPackage(s.accountId, s.packageId)).status).toBe('exception');
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toContainText(`Received ${s.tracking}`);
  expect((await demo.api.getPackage(s.accountId, s.packageId)).status).toBe('received');
});

/** Presses one key and waits until the station's notice answers it. */
async function pressAndWaitForAnswer(page: Page, key: string): Promise<void> {
  const notice = page.getByTestId('notice');
  const before = await notice.getAttribute('data-seq');
  // A lone key is held (shown, not done) until Enter.
  await page.keyboard.press(key);
  await page.keyboard.press('Enter');
  await expect(notice).not.toHaveAttribute('data-seq', before ?? '');
}
