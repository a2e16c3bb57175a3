import { expect, test } from './fixtures.ts';
import { createReturn, firstAccount, openAndSignIn, uid } from './receiving-helpers.ts';

test('a package created by an integration appears in the open list without a reload', async ({ page, demo }) => {
  const tag = uid();
  const accountId = await firstAccount(demo.api);
  const operator = await demo.api.createOperator({ name: `Lister ${tag}`, badge_code: `LIST-${tag}` });
  await openAndSignIn(page, demo, operator);
  await page.keyboard.press('Alt+P');
  const list = page.getByTestId('package-list');
  await expect(page.getByTestId('pager')).toContainText('in all');

  const { ret } = await createReturn(demo.api, accountId, tag);
  const tracking = `LIVE${tag}`;
  await page.evaluate(() => {
    (globalThis as Record<string, unknown>).reloadedMarker = true;
  });
  await demo.api.createPackage(accountId, { return_id: ret.id, tracking_number: tracking, status: 'pending' });
  await expect(list.getByTestId('package-row').first()).toContainText(tracking);
  expect(await page.evaluate(() => (globalThis as Record<string, unknown>).reloadedMarker)).toBe(true);

  // Status filter and search work on the same list.
  await page.getByRole('button', { name: 'received', exact: true }).click();
  await expect(list).not.toContainText(tracking);
  await page.getByRole('button', { name: 'All', exact: true }).click();
  await page.getByTestId('list-search').fill(ret.email);
  await page.getByTestId('list-search').press('Enter');
  await expect(list.getByTestId('package-row')).toHaveCount(1);
  await expect(list).toContainText(tracking);
});

test('the returns list filters by status and finds a return by SKU', async ({ page, demo }) => {
  const tag = uid();
  const accountId = await firstAccount(demo.api);
  const { ret, skus } = await createReturn(demo.api, accountId, tag);
  const operator = await demo.api.createOperator({ name: `Returns ${tag}`, badge_code: `RET-${tag}` });
  await openAndSignIn(page, demo, operator);
  await page.keyboard.press('Alt+R');
  await page.getByRole('button', { name: 'awaiting', exact: true }).click();
  await expect(page.getByTestId('return-list')).toContainText(ret.email);
  await page.getByTestId('list-search').fill(skus[1]);
  await page.getByTestId('list-search').press('Enter');
  await expect(page.getByTestId('return-row')).toHaveCount(1);
  await expect(page.getByTestId('return-row')).toContainText(`#${ret.id}`);
});
