import { expect, test } from './fixtures.ts';
import { openAndSignIn, scan, scenario, waitForQuietSync } from './receiving-helpers.ts';

/*
 * The key bar is made from the keyboard table the key handling acts through (renderer/src/workflow/
 * key-table.ts; test/renderer/key-table.test.ts holds the two equal for every screen). Here: what the
 * package screen shows at a dock, keys from it doing what it says (checked against what the station
 * recorded), and a handheld's bar.
 */

test.describe('at a dock (1024x600)', () => {
  test.use({ viewport: { width: 1024, height: 600 } });

  test('the package screen shows every key it takes; Ctrl+Enter receives, as it says', async ({ page, demo }) => {
    const s = await scenario(demo, 'delivered');
    await openAndSignIn(page, demo, s.operator);
    await scan(page, s.tracking);
    const legend = page.getByTestId('key-legend');
    for (const entry of [
      '1–6 condition',
      'F2/Ctrl+Enter receive',
      'F5 label',
      'F8/Ctrl+Z undo',
      'F9 camera',
      'F10 override',
      'Alt+S P R D L W screens',
      'Alt+U supervisor',
    ])
      await expect(legend).toContainText(entry);
    await expect(legend).not.toContainText('F7');
    for (const sku of s.skus) await scan(page, sku);
    await waitForQuietSync(page);
    // A condition for the selected unit (the last scanned), then Ctrl+Enter: asked once (units without a condition), again receives.
    await page.keyboard.press('3');
    await page.keyboard.press('Control+Enter');
    await expect(page.getByTestId('notice')).toContainText('no condition');
    await page.keyboard.press('Control+Enter');
    await expect(page.getByTestId('notice')).toContainText(`Received ${s.tracking}`);
    const pkg = await demo.api.getPackage(s.accountId, s.packageId);
    expect(pkg.status).toBe('received');
    expect(pkg.line_items.map((item) => item.condition).filter((c) => c !== null)).toEqual(['good']);
    // The received package's bar: its correction and its label, no receive.
    await scan(page, s.tracking);
    await expect(legend).toContainText('F7 correct receipt');
    await expect(legend).toContainText('F5 label');
    await expect(legend).not.toContainText('F2');
  });
});

test.describe('on a handheld (412x915)', () => {
  test.use({ viewport: { width: 412, height: 915 } });

  test('the key bar shows what a handheld can press, and Keys shows the rest', async ({ page, demo }) => {
    const s = await scenario(demo, 'delivered');
    await openAndSignIn(page, demo, s.operator);
    await scan(page, s.tracking);
    const legend = page.getByTestId('key-legend');
    await expect(legend).toHaveText(/^Scan add a unit\s*Keys$/);
    await page.getByTestId('keys-toggle').click();
    await expect(page.getByTestId('keys-toggle')).toHaveAttribute('aria-expanded', 'true');
    await expect(legend).toContainText('F2/Ctrl+Enter receive');
    await expect(legend).toContainText('F10 override');
    await page.getByTestId('keys-toggle').click();
    await expect(legend).toHaveText(/^Scan add a unit\s*Keys$/);
    await expect(legend).not.toContainText('F2');
    // The package's actions stay in view above the one-line bar.
    await page.getByTestId('receive').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('receive')).toBeInViewport({ ratio: 1 });
    await expect(legend).toBeInViewport({ ratio: 1 });
  });
});
