import { expect, test } from './fixtures.ts';
import { createReturn, firstAccount, openAndSignIn, uid } from './receiving-helpers.ts';

/*
 * List search finds by the start of an email or a tracking number (served from the store's indexes,
 * docs/api-decisions.md, List search), not only by exact values: "chloe" finds chloe@….
 */

test('the returns list finds a return by the start of its email, whatever the case', async ({ page, demo }) => {
  const tag = uid();
  const accountId = await firstAccount(demo.api);
  const { ret } = await createReturn(demo.api, accountId, tag);
  const operator = await demo.api.createOperator({ name: `Search ${tag}`, badge_code: `SRCH-${tag}` });
  await openAndSignIn(page, demo, operator);
  await page.keyboard.press('Alt+R');
  // The helper's email is buyer-<tag>@example.com: its start, upper-cased.
  await page.getByTestId('list-search').fill(`BUYER-${tag.slice(0, 6)}`);
  await page.getByTestId('list-search').press('Enter');
  await expect(page.getByTestId('return-row')).toHaveCount(1);
  await expect(page.getByTestId('return-row')).toContainText(ret.email);
  // Nothing starts with this: an empty list, said so, not an error.
  await page.getByTestId('list-search').fill(`nobody-${tag}`);
  await page.getByTestId('list-search').press('Enter');
  await expect(page.getByTestId('return-row')).toHaveCount(0);
});

test('the packages list finds packages by the start of their tracking number', async ({ page, demo }) => {
  const tag = uid();
  const accountId = await firstAccount(demo.api);
  const { ret } = await createReturn(demo.api, accountId, tag);
  for (const n of ['01', '02']) await demo.api.createPackage(accountId, { return_id: ret.id, tracking_number: `PFX${tag}${n}`, status: 'pending' });
  const operator = await demo.api.createOperator({ name: `Search ${tag}`, badge_code: `SRCP-${tag}` });
  await openAndSignIn(page, demo, operator);
  await page.keyboard.press('Alt+P');
  await page.getByTestId('list-search').fill(`pfx${tag}`);
  await page.getByTestId('list-search').press('Enter');
  await expect(page.getByTestId('package-row')).toHaveCount(2);
  await expect(page.getByTestId('package-list')).toContainText(`PFX${tag}01`);
  await expect(page.getByTestId('package-list')).toContainText(`PFX${tag}02`);
});

test('a return in the returns list opens its parcels', async ({ page, demo }) => {
  const tag = uid();
  const accountId = await firstAccount(demo.api);
  const { ret } = await createReturn(demo.api, accountId, tag);
  await demo.api.createPackage(accountId, { return_id: ret.id, tracking_number: `RETP${tag}`, status: 'in_transit' });
  const operator = await demo.api.createOperator({ name: `Open ${tag}`, badge_code: `OPEN-${tag}` });
  await openAndSignIn(page, demo, operator);
  await page.keyboard.press('Alt+R');
  await page.getByTestId('list-search').fill(ret.email);
  await page.getByTestId('list-search').press('Enter');
  await expect(page.getByTestId('return-row')).toHaveCount(1);
  await page.getByTestId('return-open').click();
  await expect(page.getByTestId('package-list')).toBeVisible();
  await expect(page.getByTestId('package-row')).toHaveCount(1);
  await expect(page.getByTestId('package-row')).toContainText(`RETP${tag}`);
  // And from there, the package itself.
  await page.getByRole('button', { name: `RETP${tag}` }).click();
  await expect(page.getByTestId('tracking-number')).toHaveText(`RETP${tag}`);
});

test('the returns list shows all accounts at once for the station', async ({ page, demo }) => {
  const tag = uid();
  const accounts = (await demo.api.station()).accounts.map((a) => a.id);
  expect(accounts.length).toBeGreaterThan(1);
  const made = [];
  for (const accountId of accounts.slice(0, 2)) made.push((await createReturn(demo.api, accountId, `${tag}${accountId}`)).ret);
  const operator = await demo.api.createOperator({ name: `All ${tag}`, badge_code: `ALL-${tag}` });
  await openAndSignIn(page, demo, operator);
  await page.keyboard.press('Alt+R');
  await page.getByTestId('return-list').waitFor();
  await page
    .locator('label', { has: page.locator('span', { hasText: /^Account$/ }) })
    .locator('select')
    .selectOption({ label: 'All accounts' });
  // Both accounts' returns in one list (searched by the start of their emails).
  await page.getByTestId('list-search').fill(`buyer-${tag.toLowerCase()}`);
  await page.getByTestId('list-search').press('Enter');
  await expect(page.getByTestId('return-row')).toHaveCount(2);
  for (const ret of made) await expect(page.getByTestId('return-list')).toContainText(ret.email);
});

test('the packages list shows all accounts at once and opens a package of any of them', async ({ page, demo }) => {
  const tag = uid();
  const accounts = (await demo.api.station()).accounts.map((a) => a.id).slice(0, 2);
  expect(accounts.length).toBe(2);
  for (const accountId of accounts) {
    const { ret } = await createReturn(demo.api, accountId, `${tag}${accountId}`);
    await demo.api.createPackage(accountId, { return_id: ret.id, tracking_number: `ALLP${tag}${accountId}`, status: 'delivered' });
  }
  const operator = await demo.api.createOperator({ name: `All packages ${tag}`, badge_code: `ALLP-${tag}` });
  await openAndSignIn(page, demo, operator);
  await page.keyboard.press('Alt+P');
  await page.getByTestId('package-list').waitFor();
  await page
    .locator('label', { has: page.locator('span', { hasText: /^Account$/ }) })
    .locator('select')
    .selectOption({ label: 'All accounts' });
  await page.getByTestId('list-search').fill(`allp${tag}`);
  await page.getByTestId('list-search').press('Enter');
  await expect(page.getByTestId('package-row')).toHaveCount(2);
  // The second account's package opens from the one list.
  const second = accounts[1] ?? 0;
  await expect(page.getByTestId('package-row').filter({ hasText: `ALLP${tag}${second}` })).toContainText(String(second));
  await page.getByRole('button', { name: `ALLP${tag}${second}` }).click();
  await expect(page.getByTestId('tracking-number')).toHaveText(`ALLP${tag}${second}`);
});

test('both lists find by the start of a SKU ("sku-…" finds SKU-…-A)', async ({ page, demo }) => {
  const tag = uid();
  const accountId = await firstAccount(demo.api);
  const { ret, skus } = await createReturn(demo.api, accountId, tag);
  await demo.api.createPackage(accountId, { return_id: ret.id, tracking_number: `SKUP${tag}`, status: 'in_transit' });
  const operator = await demo.api.createOperator({ name: `SKU ${tag}`, badge_code: `SKUS-${tag}` });
  await openAndSignIn(page, demo, operator);
  // The start of the SKU only, lower case: no exact match anywhere, so the SKU index answers.
  const start = skus[0].slice(0, -2).toLowerCase();
  await page.keyboard.press('Alt+R');
  await page.getByTestId('list-search').fill(start);
  await page.getByTestId('list-search').press('Enter');
  await expect(page.getByTestId('return-row')).toHaveCount(1);
  await expect(page.getByTestId('return-row')).toContainText(ret.email);
  await page.keyboard.press('Alt+P');
  await page.getByTestId('list-search').fill(start);
  await page.getByTestId('list-search').press('Enter');
  await expect(page.getByTestId('package-row')).toHaveCount(1);
  await expect(page.getByTestId('package-row')).toContainText(`SKUP${tag}`);
});
