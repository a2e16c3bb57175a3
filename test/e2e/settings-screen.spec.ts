import { expect, test } from './fixtures.ts';
import { leaveSettings, openAndSignIn, openSettings, scan, scenario } from './receiving-helpers.ts';

/*
 * Settings is a screen of its own: it takes the work area (no box over another screen), Esc leaves
 * it for the screen it was opened from (a package being inspected stays open).
 */

test.use({ viewport: { width: 1024, height: 600 } });

test('Settings opens as a screen from a package and Esc goes back to the same package', async ({ page, demo }) => {
  const s = await scenario(demo, 'delivered');
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);

  await openSettings(page);
  await expect(page.locator('main')).toHaveAttribute('data-screen', 'settings');
  await expect(page.getByTestId('package-view')).toHaveCount(0);
  for (const id of ['scanner-save', 'unset-conditions', 'printer-save', 'disposition-rules-link', 'key-legend']) await expect(page.getByTestId(id), id).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('key-legend')).toContainText('Esc');

  // Esc from a field of the screen leaves it too.
  await page.getByTestId('scanner-prefix').focus();
  await leaveSettings(page);
  await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);
  await expect(page.getByTestId('scan-field')).toBeFocused();

  // From the scan screen, Back returns to it.
  await page.keyboard.press('Escape');
  await expect(page.locator('main')).toHaveAttribute('data-screen', 'scan');
  await openSettings(page);
  await page.getByTestId('settings-close').click();
  await expect(page.locator('main')).toHaveAttribute('data-screen', 'scan');
});
