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
  // Tabs name every section; the Station section is first, whole, with its save in view.
  for (const id of [
    'settings-tab-station',
    'settings-tab-printer',
    'settings-tab-more',
    'settings-tab-site',
    'settings-tab-scale',
    'scanner-save',
    'unset-conditions',
    'station-currency',
    'key-legend',
  ])
    await expect(page.getByTestId(id), id).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('settings-tab-station')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('key-legend')).toContainText('Esc');
  await expect(page.getByTestId('key-legend')).toContainText('Alt+1–5');

  // Alt+2 shows the printer with its save; ← and → on the tabs move between the sections.
  await page.keyboard.press('Alt+2');
  await expect(page.getByTestId('settings-tab-printer')).toBeFocused();
  for (const id of ['printer-save', 'printer-test', 'print-queue-link']) await expect(page.getByTestId(id), id).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('scanner-save')).toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('settings-tab-more')).toBeFocused();
  await expect(page.getByTestId('settings-tab-more')).toHaveAttribute('aria-selected', 'true');
  // A tab names the panel it controls only while that panel is on the page (the selected tab's).
  await expect(page.locator('[role="tab"][aria-controls]')).toHaveCount(1);
  const controlled = await page.getByTestId('settings-tab-more').getAttribute('aria-controls');
  await expect(page.locator(`[role="tabpanel"][id="${controlled}"]`)).toHaveCount(1);
  for (const id of ['workers-link', 'disposition-rules-link', 'command-barcodes-link']) await expect(page.getByTestId(id), id).toBeInViewport({ ratio: 1 });
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('settings-tab-site')).toBeFocused();
  for (const id of ['site-invite', 'site-join']) await expect(page.getByTestId(id), id).toBeInViewport({ ratio: 1 });
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('settings-tab-scale')).toBeFocused();
  await expect(page.getByTestId('scale-save')).toBeInViewport({ ratio: 1 });
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('settings-tab-station')).toBeFocused();
  await expect(page.getByTestId('scanner-save')).toBeInViewport({ ratio: 1 });
  // Tab from the tab goes into the section's fields.
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('scanner-prefix')).toBeFocused();

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
