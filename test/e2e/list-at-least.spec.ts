import type { Page } from '@playwright/test';
import { manualReturnBody } from '../support/manual-return.ts';
import { type DemoStation, expect, startDemoStation, test } from './fixtures.ts';
import { openAndSignIn, uid } from './receiving-helpers.ts';

/*
 * A search most records match is counted within a budget of rows (store/list-queries.ts): the lists
 * of every account say "at least N" and still page on. The station's own setting lowers the budget
 * (RETURNS_STATION_LIST_COUNT_BUDGET, 30 here) so 40 records make a broad search; the pages on screen
 * are the pages the API gives.
 */

const BUDGET = 30;
const MADE = 40;
let demo: DemoStation;
const tag = uid();

test.beforeAll(async () => {
  demo = await startDemoStation({ env: { RETURNS_STATION_LIST_COUNT_BUDGET: String(BUDGET) } });
  const accounts = (await demo.api.station()).accounts.map((a) => a.id).slice(0, 2);
  expect(accounts).toHaveLength(2);
  // Half in each account: every account's list holds them all.
  for (let n = 0; n < MADE; n++) {
    const accountId = accounts[n % 2] ?? 0;
    const ret = await demo.api.createReturn(manualReturnBody({ account_id: accountId, email: `atl-${tag.toLowerCase()}-${n}@example.com` }));
    await demo.api.createPackage(accountId, {
      return_id: ret.id,
      tracking_number: `ATL${tag}${String(n).padStart(3, '0')}`,
      status: n % 3 ? 'in_transit' : 'delivered',
    });
  }
});
test.afterAll(async () => {
  await demo.stop();
});

/** The list's account choice: every account. */
async function allAccounts(page: Page) {
  await page
    .locator('label', { has: page.locator('span', { hasText: /^Account$/ }) })
    .locator('select')
    .selectOption({ label: 'All accounts' });
}

test('a broad search over every account says "at least", and Next reaches the rest', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  const operator = await demo.api.createOperator({ name: `Pager ${tag}`, badge_code: `ATL-${tag}` });
  await openAndSignIn(page, demo, operator);

  // The package list, newest change first, as the API lists it.
  const api = await demo.api.listStationPackages({ tracking_number_contains: `atl${tag}`, sort: '-updated_at', per_page: 25 });
  expect(api.meta.total_count_lower_bound).toBe(true);
  await page.keyboard.press('Alt+P');
  await page.getByTestId('package-list').waitFor();
  await allAccounts(page);
  await page.getByTestId('list-search').fill(`atl${tag.toLowerCase()}`);
  await page.getByTestId('list-search').press('Enter');
  await expect(page.getByTestId('package-row')).toHaveCount(25);
  await expect(page.getByTestId('pager')).toHaveText(`Page 1 · at least ${api.meta.total_count}`);
  const shown = async () => (await page.getByTestId('package-row').locator('th').allInnerTexts()).map((text) => text.trim());
  expect(await shown()).toEqual(api.data.map((p) => p.tracking_number));
  await page.screenshot({ path: test.info().outputPath('packages-at-least-1024.png') });
  await page.getByRole('button', { name: 'Next →' }).click();
  // The rest: a short page, which ends the matches and makes the count exact.
  await expect(page.getByTestId('package-row')).toHaveCount(MADE - 25);
  await expect(page.getByTestId('pager')).toHaveText(`Page 2 of 2 · ${MADE} in all`);
  await expect(page.getByRole('button', { name: 'Next →' })).toBeDisabled();
  const second = await demo.api.listStationPackages({ tracking_number_contains: `atl${tag}`, sort: '-updated_at', per_page: 25, page: 2 });
  expect(await shown()).toEqual(second.data.map((p) => p.tracking_number));

  // The returns list, by a part of the email.
  await page.keyboard.press('Alt+R');
  await page.getByTestId('return-list').waitFor();
  await allAccounts(page);
  await page.getByTestId('list-search').fill(`atl-${tag.toLowerCase()}`);
  await page.getByTestId('list-search').press('Enter');
  await expect(page.getByTestId('return-row')).toHaveCount(25);
  await expect(page.getByTestId('pager')).toContainText('at least');
  await page.screenshot({ path: test.info().outputPath('returns-at-least-1024.png') });
  await page.getByRole('button', { name: 'Next →' }).click();
  await expect(page.getByTestId('return-row')).toHaveCount(MADE - 25);
  await expect(page.getByTestId('pager')).toHaveText(`Page 2 of 2 · ${MADE} in all`);
  for (const viewport of [
    { width: 800, height: 600 },
    { width: 412, height: 915 },
  ]) {
    await page.setViewportSize(viewport);
    await page.getByRole('button', { name: '← Previous' }).click();
    await expect(page.getByTestId('pager')).toContainText('at least');
    await page.screenshot({ path: test.info().outputPath(`returns-at-least-${viewport.width}.png`) });
    await page.getByRole('button', { name: 'Next →' }).click();
    await expect(page.getByTestId('return-row')).toHaveCount(MADE - 25);
  }
});
