import type { Page } from '@playwright/test';
import { manualReturnBody, returnLine } from '../support/manual-return.ts';
import { expect, test } from './fixtures.ts';
import { firstAccount, leaveSettings, openAndSignIn, openSettings, scan, uid } from './receiving-helpers.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * A new manual return takes the currency its account works in (that of the account's latest return),
 * else the station's currency (Settings), never a blind USD; the worker can still pick another.
 */

/** The manual-return form's currency select (its label also holds every option's text). */
const currencyOf = (page: Page) =>
  page
    .getByTestId('register-view')
    .locator('label', { has: page.locator('span', { hasText: /^Currency$/ }) })
    .locator('select');

test('a new manual return defaults to the account’s currency', async ({ page, demo }) => {
  const tag = uid();
  const accountId = await firstAccount(demo.api);
  await demo.api.createReturn(
    manualReturnBody({ account_id: accountId, currency: 'GBP', return_line_items: [returnLine(`GBP-${tag}`, 1, { currency: 'GBP' })] }),
  );
  const operator = await demo.api.createOperator({ name: `Currency ${tag}`, badge_code: `CUR-${tag}` });
  await openAndSignIn(page, demo, operator);
  await scan(page, `NEWCUR${tag}`);
  await expect(page.getByTestId('register-view')).toBeVisible();
  await expect(currencyOf(page)).toHaveValue('GBP');
  await page.getByLabel('Customer email').fill(`cur-${tag.toLowerCase()}@example.com`);
  await page.getByLabel('Reason').fill('No slip');
  await page.getByRole('textbox', { name: 'SKU', exact: true }).fill(`SKU-${tag}`);
  await page.getByRole('button', { name: 'Create return and register parcel' }).click();
  await expect(page.getByTestId('tracking-number')).toHaveText(`NEWCUR${tag}`);
  const created = (await demo.api.lookup(`NEWCUR${tag}`)).packages[0];
  const ret = (await demo.api.lookup(String(created?.return_id))).returns.find((r) => r.return.id === created?.return_id)?.return;
  expect(ret?.currency).toBe('GBP');
  expect(ret?.return_line_items.map((l) => l.currency)).toEqual(['GBP']);
});

test('without returns on the account, the station’s currency; without that, USD', async ({ page, demo }) => {
  const tag = uid();
  const operator = await demo.api.createOperator({ name: `Currency ${tag}`, badge_code: `CUR2-${tag}` });
  // The account has no return yet (its list comes back empty).
  await page.route(/\/returns\?.*per_page=1/, (route) =>
    route.fulfill({ json: { data: [], meta: { current_page: 1, total_pages: 0, total_count: 0, per_page: 1 } } }),
  );
  await openAndSignIn(page, demo, operator);
  await scan(page, `NEWST${tag}`);
  await expect(currencyOf(page)).toHaveValue('USD');
  await signInSupervisor(page);
  await openSettings(page);
  await page.getByTestId('station-currency').selectOption('CHF');
  await leaveSettings(page);
  await expect(currencyOf(page)).toHaveValue('CHF');
  // Kept by the station for all its terminals.
  expect((await demo.api.stationSettings()).currency).toBe('CHF');
  // The worker's own pick wins.
  await currencyOf(page).selectOption('JPY');
  await expect(currencyOf(page)).toHaveValue('JPY');
});
