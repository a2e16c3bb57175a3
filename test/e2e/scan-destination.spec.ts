import { expect, test } from './fixtures.ts';
import type { Page } from '@playwright/test';
import { lineRow, openAndSignIn, scenario, uid, waitForQuietSync } from './receiving-helpers.ts';
import { scannerKeys, typeTimed } from './wedge-keyboard.ts';

/**
 * Scans at a wedge scanner's own pace (15 ms a key, stamped as the device would): scans into text
 * fields are told from typing by their pace, which page.keyboard cannot keep on a loaded machine.
 */
const scan = (page: Page, code: string): Promise<void> => typeTimed(page, scannerKeys(code));

/*
 * A scan goes where the worker is: a focused form field keeps it, a search box searches with it, a
 * badge switches the worker wherever it is scanned, and a parcel scanned inside an open package says
 * that the first one is still in progress and keeps it one key away.
 */

test('a SKU scanned into the manual-return form stays in its SKU field', async ({ page, demo }) => {
  const tag = uid();
  const operator = await demo.api.createOperator({ name: `Form ${tag}`, badge_code: `FORM-${tag}` });
  await openAndSignIn(page, demo, operator);
  await scan(page, `NEW${tag}`);
  await expect(page.getByTestId('register-view')).toBeVisible();
  const sku = page.getByRole('textbox', { name: 'SKU', exact: true });
  await sku.focus();
  await scan(page, `SKU-${tag}`);
  await expect(sku).toHaveValue(`SKU-${tag}`);
  await expect(sku).toBeFocused();
  // Not a return search, not a tracking number, and the half-filled form was not sent.
  await expect(page.getByTestId('register-view')).toContainText(`NEW${tag}`);
  await expect(page.getByTestId('register-candidates')).toHaveCount(0);
  expect((await demo.api.lookup(`NEW${tag}`)).packages).toHaveLength(0);
});

test('a tracking number scanned into a list search box searches the list', async ({ page, demo }) => {
  const s = await scenario(demo, 'delivered');
  await openAndSignIn(page, demo, s.operator);
  await page.keyboard.press('Alt+P');
  await page.getByTestId('list-search').focus();
  await scan(page, s.tracking);
  await expect(page.getByTestId('list-search')).toHaveValue(s.tracking);
  await expect(page.locator('main')).toContainText(s.tracking);
  // The package was not opened (the package view would replace the list).
  await expect(page.getByTestId('package-view')).toHaveCount(0);
  expect((await demo.api.getPackage(s.accountId, s.packageId)).status).toBe('delivered');
});

test('a badge scan switches the signed-in worker wherever it is scanned', async ({ page, demo }) => {
  const s = await scenario(demo, 'delivered');
  const second = await demo.api.createOperator({ name: `Second ${uid()}`, badge_code: `BADGE2-${uid()}` });
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await scan(page, s.skus[0]);
  // On the open package: the worker changes, the package stays open and nothing is added to it.
  await scan(page, second.badge_code ?? '');
  await expect(page.getByTestId('operator')).toContainText(second.name);
  await expect(page.getByTestId('notice')).toContainText(`Signed in: ${second.name} (instead of ${s.operator.name})`);
  await expect(page.getByTestId('package-view')).toBeVisible();
  await expect(page.getByTestId('line-row')).toHaveCount(3);
  await expect(lineRow(page, s.skus[0]).getByTestId('line-here')).toHaveText('1');
  // Into the notes box of the item, and into a form field: still a badge.
  await page.getByLabel('Notes').focus();
  await scan(page, s.operator.badge_code ?? '');
  await expect(page.getByTestId('operator')).toContainText(s.operator.name);
  await expect(page.getByLabel('Notes')).toHaveValue('');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await scan(page, `NEW${uid()}`);
  await page.getByLabel('Customer email').focus();
  await scan(page, second.badge_code ?? '');
  await expect(page.getByTestId('operator')).toContainText(second.name);
  await expect(page.getByLabel('Customer email')).toHaveValue('');
  await expect.poll(async () => (await demo.api.getPackage(s.accountId, s.packageId)).line_items.map((i) => i.quantity)).toEqual([1]);
});

test('scanning another parcel inside a package says so and keeps the first one a key away', async ({ page, demo }) => {
  const first = await scenario(demo, 'delivered');
  const second = await scenario(demo, 'delivered');
  await openAndSignIn(page, demo, first.operator);
  await scan(page, first.tracking);
  await scan(page, first.skus[1]);
  await waitForQuietSync(page);
  await scan(page, second.tracking);
  await expect(page.getByTestId('tracking-number')).toHaveText(second.tracking);
  await expect(page.getByTestId('notice')).toContainText(`Switched to ${second.tracking}; ${first.tracking} is still in progress`);
  await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'warning');

  // Esc: the scan screen lists both unfinished packages, newest first; a number key reopens one.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('notice')).toContainText(`Left ${second.tracking} in progress`);
  const listed = page.getByTestId('in-progress-package');
  await expect(listed).toHaveCount(2);
  await expect(listed.nth(0)).toHaveAttribute('data-tracking', second.tracking);
  await expect(listed.nth(1)).toHaveAttribute('data-tracking', first.tracking);
  // The number marks the row it picks; Enter opens it.
  await page.keyboard.press('2');
  await expect(listed.nth(1)).toHaveAttribute('data-held', '');
  await expect(page.getByTestId('tracking-number')).not.toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tracking-number')).toHaveText(first.tracking);
  await expect(lineRow(page, first.skus[1]).getByTestId('line-here')).toHaveText('1');

  // Received: it leaves the list for good.
  // Items without a condition: the station's default asks for a second F2.
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toContainText('no condition');
  await page.keyboard.press('F2');
  await expect(page.getByTestId('notice')).toContainText(`Received ${first.tracking}`);
  await expect(listed).toHaveCount(1);
  await expect(listed.nth(0)).toHaveAttribute('data-tracking', second.tracking);
});
