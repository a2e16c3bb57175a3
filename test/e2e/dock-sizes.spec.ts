import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { createReturn, scan, scenario, uid } from './receiving-helpers.ts';
import { expectFits, expectNoCutText, expectPlaceholderWhole, openFromHeader, packageActions, SIZES } from './screen-fit.ts';

/*
 * Every screen at the sizes the station is used at: a dock terminal (1024×600), a small one
 * (800×600) and a handheld in portrait (412×915). On each, nothing is wider than the window, the
 * screen's next action and its key bar are in view (on the handheld: reachable by touch, the header's
 * screens under its Menu button), the lists show at least 8 rows at 1024×600 and Esc leaves
 * Settings. A screenshot of every screen is attached to the run for a person to look at. Sign-in with a
 * long name, the print queue, the command barcodes and every Settings tab: dock-sizes-station.spec.ts.
 */

for (const size of SIZES) {
  test.describe(`at ${size.name}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    const handheld = size.width < 700;

    test('every screen fits, with its next action and its key bar in view', async ({ page, demo }, testInfo) => {
      test.slow();
      const s = await scenario(demo, 'delivered');
      // More parcels and returns than the demo's, so each list has 8 rows and more to show.
      for (let i = 0; i < 4; i += 1)
        await demo.api.createPackage(s.accountId, { return_id: s.ret.id, tracking_number: `${s.tracking}L${i}`, status: 'in_transit' });
      for (let i = 0; i < 3; i += 1) await createReturn(demo.api, s.accountId, uid());
      const look = (screen: string, actions: Locator[], scrolled = handheld) => expectFits(page, testInfo, `${screen}-${size.name}`, actions, scrolled);

      await page.goto(demo.uiUrl);
      await expect(page.getByTestId('link-state')).toHaveText('Station online');
      await look('signin', [page.getByTestId('scan-field')]);
      await scan(page, s.operator.badge_code ?? '');
      await expect(page.getByTestId('operator')).toContainText(s.operator.name);
      await look('scan', [page.getByTestId('scan-field')]);
      await expectPlaceholderWhole(page.getByTestId('scan-field'));

      // A unit the station already holds (its label has a unit id), then one scanned now; the first selected.
      await demo.api.createLineItem(s.accountId, s.packageId, { return_line_item_id: s.ret.return_line_items[0]?.id ?? null, condition: 'like_new' });
      await scan(page, s.tracking);
      await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);
      await scan(page, s.skus[1]);
      await expect(page.getByTestId('selected-item')).toBeVisible();
      await page.keyboard.press('ArrowUp');
      const panel = page.getByTestId('selected-item');
      await expect(panel.getByTestId('print-label')).toBeVisible();
      await look('package', packageActions(page));
      // Every column of the line table reads whole (no "Expecte", "Like ne…"); below a dock's width the
      // items' names too (at 1024 they keep one line so that six lines are in view: dock-layout.spec.ts).
      await expectNoCutText(page.getByTestId('lines').locator(size.width >= 1024 ? 'thead th, tbody td' : 'thead th, tbody th, tbody td'));
      // The header's state and counts read whole too.
      await expectNoCutText(page.locator('.station-header .counts, .station-header .sync-indicator'));

      await page.keyboard.press('Escape');
      await scan(page, `SIZE${uid()}`);
      await expect(page.getByTestId('register-view')).toBeVisible();
      // The manual return form is long: its actions stay in view at the bottom while it scrolls.
      await look('register', [page.getByTestId('scan-field'), page.getByRole('button', { name: 'Create return and register parcel' })]);
      await page.keyboard.press('Escape');

      // A list row opens by its first cell: at 1024×600 the eighth is in view.
      await page.keyboard.press('Alt+P');
      await expect(page.getByTestId('package-row').first()).toBeVisible();
      await look('packages', [
        page.getByTestId('list-search'),
        page
          .getByTestId('package-row')
          .nth(size.width >= 1024 ? 7 : 0)
          .locator('th'),
      ]);
      // The search says what it takes, whole, at every size.
      await expectPlaceholderWhole(page.getByTestId('list-search'));
      await page.keyboard.press('Alt+R');
      await expect(page.getByTestId('return-row').first()).toBeVisible();
      await look('returns', [
        page.getByTestId('list-search'),
        page
          .getByTestId('return-row')
          .nth(size.width >= 1024 ? 7 : 0)
          .locator('th'),
      ]);
      // Below a dock's width nothing in a row is cut: a long email or a return's lines wrap in the row.
      if (size.width < 1024) {
        await expectNoCutText(page.getByTestId('return-row').locator('th, td'));
        await page.keyboard.press('Alt+P');
        await expectNoCutText(page.getByTestId('package-row').locator('th, td'));
        await page.keyboard.press('Alt+R');
      }

      await page.keyboard.press('Alt+D');
      // Today's figures are in (the screenshot shows the panels, not an empty screen).
      await expect(page.getByTestId('supervisor-workers')).toContainText(' pkg');
      await look('supervisor', [page.getByTestId('supervisor-export')]);
      // Each panel's words read whole (on a handheld the panels stand one under another).
      await expectNoCutText(page.getByTestId('supervisor-workers').locator('td, th'));

      await openFromHeader(page, handheld, page.getByTestId('sync-indicator'));
      await look('sync', [page.getByRole('button', { name: 'Save and sync' })]);
      // The waiting changes read whole within the window (on a handheld a card each, not a table running off its edge).
      const change = page.getByTestId('sync-change').first();
      await change.scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath(`sync-changes-${size.name}.png`) });
      await expectNoCutText(change.locator('td'));
      for (const cell of await change.locator('td').all()) {
        const box = await cell.boundingBox();
        if (box) expect(box.x + box.width, `sync change cell "${await cell.textContent()}" runs off the window`).toBeLessThanOrEqual(size.width);
      }

      // The rules are reached from Settings (its tabs, the print queue and the command barcodes: dock-sizes-station.spec.ts).
      await openFromHeader(page, handheld, page.getByTestId('settings-button'));
      await page.keyboard.press('Alt+3');
      await page.getByTestId('disposition-rules-link').click();
      await expect(page.getByTestId('rule-row').first()).toBeVisible();
      // The rules' actions sit above the table (which scrolls in its box): in view at once at a dock's size.
      await look('rules', [
        page.getByTestId('rules-add'),
        page.getByTestId('rules-save'),
        page.getByTestId('rules-cancel'),
        page.getByTestId('rule-name').first(),
      ]);
      // A site's bin codes run longer than the demo's ("RETURNS-HOLD-07"): typed into a rule, it reads whole too.
      const bin = page.getByTestId('rule-bin').first();
      await bin.click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('RETURNS-HOLD-07');
      await expect(bin).toHaveValue('RETURNS-HOLD-07');
      await page.screenshot({ path: testInfo.outputPath(`rules-long-bin-${size.name}.png`) });
      // Each rule's name, pickers, disposition and bin read whole, and its buttons are in the table's box.
      await expectNoCutText(page.getByTestId('rule-row').locator('td'));
      const box = await page.locator('.rules-table-box').boundingBox();
      const remove = await page.getByTestId('rule-delete').first().boundingBox();
      expect((remove?.x ?? 0) + (remove?.width ?? 0), "a rule's ✕ lies beyond the table's box").toBeLessThanOrEqual((box?.x ?? 0) + (box?.width ?? 0));
    });
  });
}
