import { expect, test } from './fixtures.ts';
import { openAndSignIn, scan, scenario } from './receiving-helpers.ts';

/*
 * A notice belongs to the screen that made it: what the receive screen said (an item's count, the
 * package left in progress) is not shown on the packages list, the returns list, Today or Sync, and is
 * back at the dock.
 */

test('a notice from the receive screen does not stay on the lists, Today and Sync screens', async ({ page, demo }) => {
  const s = await scenario(demo, 'delivered');
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await scan(page, s.skus[0]);
  const notice = page.getByTestId('notice');
  await expect(notice).toContainText(': 1');
  // What the station recorded: the item scanned at the dock.
  await expect
    .poll(async () => (await demo.api.getPackage(s.accountId, s.packageId)).line_items.map((item) => [item.merchant_sku, item.quantity]))
    .toEqual([[s.skus[0], 1]]);

  const empty = async (screenTestId: string) => {
    await expect(page.getByTestId(screenTestId)).toBeVisible();
    await expect(notice).toHaveAttribute('data-tone', '');
    await expect(notice).not.toContainText(s.skus[0]);
  };
  await page.keyboard.press('Alt+P');
  await empty('package-list');
  await page.keyboard.press('Alt+R');
  await empty('return-list');
  await page.keyboard.press('Alt+D');
  await empty('supervisor-hour-chart');
  await page.getByTestId('sync-indicator').click();
  await empty('sync-summary');

  // Back at the dock, its last word is there: the package left in progress when the lists were opened.
  await page.keyboard.press('Alt+S');
  await expect(notice).toContainText(`Left ${s.tracking} in progress`);
});
