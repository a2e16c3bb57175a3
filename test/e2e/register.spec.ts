import { expect, test } from './fixtures.ts';
import { createReturn, firstAccount, openAndSignIn, scan, uid } from './receiving-helpers.ts';

test('an unknown tracking number is registered from the scan screen, keyboard only', async ({ page, demo }) => {
  const tag = uid();
  const accountId = await firstAccount(demo.api);
  const { ret } = await createReturn(demo.api, accountId, tag);
  const operator = await demo.api.createOperator({ name: `Registrar ${tag}`, badge_code: `REG-${tag}` });
  await openAndSignIn(page, demo, operator);

  const tracking = `UNKNOWN${tag}`;
  await scan(page, tracking);
  await expect(page.getByTestId('register-view')).toContainText(tracking);
  await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'warning');
  // Find the return by the customer's email, then press its number.
  await scan(page, ret.email);
  await expect(page.getByTestId('register-candidates')).toContainText(`Return #${ret.id}`);
  await page.keyboard.press('1');
  await expect(page.getByTestId('register-candidates').getByRole('button').first()).toHaveAttribute('data-held', '');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('package-view')).toBeVisible();
  await expect(page.getByTestId('tracking-number')).toHaveText(tracking);

  const found = await demo.api.lookup(tracking);
  expect(found.packages).toHaveLength(1);
  expect(found.packages[0]).toMatchObject({ return_id: ret.id, account_id: accountId, status: 'delivered' });
});

test('an unknown parcel gets a manual return created on the spot', async ({ page, demo }) => {
  const tag = uid();
  const operator = await demo.api.createOperator({ name: `Manual ${tag}`, badge_code: `MAN-${tag}` });
  await openAndSignIn(page, demo, operator);
  const tracking = `NEW${tag}`;
  await scan(page, tracking);
  await expect(page.getByTestId('register-view')).toBeVisible();
  await page.getByLabel('Customer email').fill(`walk-in-${tag.toLowerCase()}@example.com`);
  await page.getByLabel('Reason').fill('No slip in parcel');
  await page.getByRole('textbox', { name: 'SKU', exact: true }).fill(`SKU-${tag}`);
  await page.getByRole('button', { name: 'Create return and register parcel' }).click();
  await expect(page.getByTestId('tracking-number')).toHaveText(tracking);
  await expect(page.getByTestId('line-row')).toHaveCount(1);

  const found = await demo.api.lookup(tracking);
  expect(found.packages).toHaveLength(1);
});
