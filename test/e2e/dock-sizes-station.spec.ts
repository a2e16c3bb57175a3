import { fakeZplPrinter } from '../support/fake-zpl-printer.ts';
import { expect, test } from './fixtures.ts';
import { scan, scenario, uid } from './receiving-helpers.ts';
import { expectFits, expectNoCutText, expectSideBySide, openFromHeader, SIZES } from './screen-fit.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * The screens of dock-sizes.spec.ts that keep the station rather than receive, at the same three
 * sizes: sign-in with a worker whose name is long (and the header with it signed in), the print queue
 * with labels printed and labels waiting for a printer that does not answer, the command barcodes, and
 * every Settings tab (Station, Printer and labels, Supervisor/workers/rules, Site with a join code and a
 * handheld's pairing shown). On each, nothing is wider than the window, the next action and the key bar
 * are in view, and no text is cut. A screenshot of each is attached to the run for a person to look at.
 */

/** A worker's name as long as some are: it reads whole in the header and on the sign-in screen. */
const LONG_NAME = 'Maria-Fernanda Oyelaran-Castellanos';

for (const size of SIZES) {
  test.describe(`at ${size.name}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    const handheld = size.width < 700;

    test('sign-in, the header with a long name, the print queue, the commands and every settings tab fit', async ({ page, demo }, testInfo) => {
      test.slow();
      const look = (screen: string, actions: Parameters<typeof expectFits>[3]) => expectFits(page, testInfo, `${screen}-${size.name}`, actions, handheld);
      const s = await scenario(demo, 'delivered');
      const worker = await demo.api.createOperator({ name: `${LONG_NAME} ${uid()}`, badge_code: `BADGE-${uid()}` });
      // Labels on a network printer: one printed, then the printer goes off and two wait with why.
      const printer = await fakeZplPrinter();
      await demo.api.updateStationSettings({ labels: { printer: { kind: 'zpl_tcp', host: '127.0.0.1', port: printer.port }, package_slip: false } });
      try {
        const units = [];
        for (const line of s.ret.return_line_items)
          units.push(await demo.api.createLineItem(s.accountId, s.packageId, { return_line_item_id: line.id, condition: 'like_new' }));
        const [first, ...rest] = units;
        if (!first) throw new Error('no unit');
        await demo.api.createUnitLabel(s.accountId, s.packageId, first.id);
        await printer.waitForJobs(1);
        await printer.down();
        for (const unit of rest) await demo.api.createUnitLabel(s.accountId, s.packageId, unit.id);

        await page.goto(demo.uiUrl);
        await expect(page.getByTestId('link-state')).toHaveText('Station online');
        // Every worker by name, each whole; the list scrolls in the work area to the last one.
        const names = page.locator('.choice-list button');
        const long = names.filter({ hasText: worker.name });
        await long.scrollIntoViewIfNeeded();
        await look('signin-long-name', [page.getByTestId('scan-field'), long]);
        await expectNoCutText(names);

        await scan(page, worker.badge_code ?? '');
        await expect(page.getByTestId('operator')).toContainText(worker.name);
        // The worker's name reads whole beside Sign out and the screens' buttons, none under another.
        if (handheld) {
          // Under Menu: the name whole above Sign out and the screens.
          await page.getByTestId('menu-button').click();
          await expect(page.getByRole('button', { name: 'Sign out', exact: true })).toBeInViewport();
          await expectNoCutText(page.getByTestId('operator'));
          await page.getByTestId('menu-button').click();
        } else {
          await expectNoCutText(page.getByTestId('operator'));
          await expectSideBySide(page.getByTestId('station-menu').locator('.operator, :scope > button, .nav > button'));
        }
        await look('scan-long-name', [
          page.getByTestId('scan-field'),
          ...(handheld
            ? [page.getByTestId('menu-button')]
            : [page.getByRole('button', { name: 'Sign out', exact: true }), page.getByTestId('settings-button')]),
        ]);

        await page.keyboard.press('Alt+L');
        const jobs = page.getByTestId('print-job');
        await expect(page.getByTestId('print-queue').locator('.print-error').filter({ hasText: 'does not answer' }).first()).toBeVisible({ timeout: 15_000 });
        // This test's three labels (the demo station's queue may hold other tests' too): one printed, two waiting.
        for (const sku of s.skus) await expect(jobs.filter({ hasText: sku })).toHaveCount(1);
        await look('print-queue-jobs', [page.getByRole('button', { name: /^Cancel job/ }).first()]);
        await expectNoCutText(page.getByTestId('print-queue').locator('caption, tbody td'));

        await openFromHeader(page, handheld, page.getByTestId('settings-button'));
        const tabs = ['station', 'printer', 'more', 'site'].map((id) => page.getByTestId(`settings-tab-${id}`));
        await look('settings-station', [...tabs, page.getByTestId('scanner-save'), page.getByTestId('unset-conditions'), page.getByTestId('station-currency')]);
        await page.keyboard.press('Alt+2');
        await look('settings-printer', [
          ...tabs,
          page.getByTestId('printer-host'),
          page.getByTestId('printer-save'),
          page.getByTestId('printer-test'),
          page.getByTestId('print-queue-link'),
        ]);
        await page.keyboard.press('Alt+3');
        await look('settings-more', [
          ...tabs,
          page.getByTestId('supervisor-sign-in'),
          page.getByTestId('workers-link'),
          page.getByTestId('disposition-rules-link'),
          page.getByTestId('command-barcodes-link'),
        ]);
        await page.keyboard.press('Alt+4');
        await look('settings-site', [
          ...tabs,
          page.getByTestId('site-invite'),
          page.getByTestId('handheld-pair'),
          page.getByTestId('site-join-url'),
          page.getByTestId('site-join'),
        ]);
        // A supervisor makes a join code and pairs a handheld: the code, the QR and the join form.
        await signInSupervisor(page);
        await page.getByTestId('site-invite').click();
        await expect(page.getByTestId('site-invite-code')).toBeInViewport();
        // A pairing made is brought into view whole: its QR code for the handheld's camera, and its code.
        await page.getByTestId('handheld-name').fill('TC52 dock 3');
        await page.getByTestId('handheld-pair').click();
        await expect(page.getByTestId('handheld-qr')).toBeVisible();
        await look('settings-site-pairing', [page.getByTestId('handheld-qr'), page.getByTestId('handheld-code')]);
        await expectNoCutText(page.getByTestId('station-settings').locator('p, label, code'));

        await page.keyboard.press('Alt+3');
        await page.getByTestId('command-barcodes-link').click();
        await expect(page.getByTestId('command-barcode').locator('svg')).toHaveCount(await page.getByTestId('command-barcode').count());
        await look('commands', [page.getByRole('button', { name: /^Print/ }), page.getByTestId('command-barcode').first()]);
        await expectNoCutText(page.getByTestId('command-barcode'));
      } finally {
        // Back to the browser (the waiting labels go to it, out of the next test's queue).
        await demo.api.updateStationSettings({ labels: { printer: { kind: 'browser' }, package_slip: false } });
        await printer.down();
      }
    });
  });
}
