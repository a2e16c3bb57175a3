import { ApiClient } from '../../shared/api/client.ts';
import { startStation } from '../support/station-process.ts';
import { expect, test } from './fixtures.ts';
import { openAndSignIn, scan, scenario } from './receiving-helpers.ts';
import { expectFits, expectNoCutText, expectSideBySide, openFromHeader, packageActions, SIZES } from './screen-fit.ts';

/*
 * The screens of dock-sizes.spec.ts that belong to people and to trouble, at the same three sizes:
 * a new station's first-supervisor form, the Workers screen with its add form and a full table, the
 * supervisor's sign-in (badge + PIN), and the dock while the upstream does not answer (its header
 * keeps two rows, the inspection panel its Defective, Label, Notes and Photo). A screenshot of each
 * is attached to the run for a person to look at.
 */

for (const size of SIZES) {
  test.describe(`at ${size.name}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    const handheld = size.width < 700;

    test('first supervisor, workers and the supervisor sign-in fit', async ({ page }, testInfo) => {
      test.slow();
      const look = (screen: string, actions: Parameters<typeof expectFits>[3]) => expectFits(page, testInfo, `${screen}-${size.name}`, actions, handheld);
      const station = await startStation();
      try {
        await page.goto(`${station.origin}/#token=${station.uiToken}`);
        await expect(page.getByTestId('first-supervisor')).toBeVisible();
        await look('first-supervisor', [page.getByTestId('first-name'), page.getByTestId('first-pin-again'), page.getByTestId('first-supervisor-save')]);
        // Its key bar says what its keys do (there is nobody to pick by number yet); its words read whole.
        await expect(page.getByTestId('key-legend')).toContainText('Enter set up the supervisor');
        await expectNoCutText(page.getByTestId('first-supervisor').locator('h2, p, label'));
        await page.getByTestId('first-name').fill('Morgan Diaz');
        await page.getByTestId('first-badge').fill('SUP-01');
        await page.getByTestId('first-pin').fill('2468');
        await page.getByTestId('first-pin-again').fill('2468');
        await page.getByTestId('first-supervisor-save').click();
        const screen = page.getByTestId('workers-screen');
        await expect(screen).toBeVisible();

        // A full shift: nine workers with keys and a deactivated one; the form and a row's actions in view.
        const admin = new ApiClient({ baseUrl: station.origin, token: station.stationToken });
        for (let key = 1; key <= 9; key += 1) await admin.createOperator({ name: `Dock worker number ${key}`, badge_code: `BADGE-${key}`, sign_in_key: key });
        const gone = await admin.createOperator({ name: 'Left last week', badge_code: 'BADGE-GONE' });
        await admin.updateOperator(gone.id, { active: false });
        await page.keyboard.press('Escape');
        await page.keyboard.press('Alt+W');
        await expect(screen.getByTestId('worker-row')).toHaveCount(11);
        // With a supervisor signed in, the header's screens and both sign-outs stay in the window (on a handheld: under Menu).
        const header = handheld
          ? []
          : [page.getByTestId('settings-button'), page.getByTestId('supervisor-sign-out'), page.getByRole('button', { name: 'Sign out', exact: true })];
        // …and none lies under another.
        if (!handheld) await expectSideBySide(page.getByTestId('station-menu').locator('button'));
        // …and the supervisor's name reads whole ("Morgan Diaz", not "S…").
        if (!handheld) await expectNoCutText(page.locator('.supervisor-who'));
        await look('workers', [
          ...header,
          page.getByTestId('worker-name'),
          page.getByTestId('worker-pin'),
          page.getByTestId('worker-save'),
          screen.getByRole('button', { name: 'Deactivate Dock worker number 1' }),
        ]);
        // Every worker's name, badge, role and state read whole (a card each on a handheld).
        await expectNoCutText(screen.getByTestId('worker-row').locator('td'));

        // The supervisor signs out; Alt+U asks for a badge and PIN over the screen.
        await openFromHeader(page, handheld, page.getByTestId('supervisor-sign-out'));
        await expect(page.getByTestId('supervisor-state')).toHaveCount(0);
        await page.keyboard.press('Alt+U');
        await expect(page.getByTestId('supervisor-dialog')).toBeVisible();
        await page.getByTestId('supervisor-badge').fill('SUP-01');
        await page.getByTestId('supervisor-pin').fill('0000');
        await page.getByTestId('supervisor-submit').click();
        await expect(page.getByTestId('supervisor-error')).toBeVisible();
        await look('supervisor-signin', [
          page.getByTestId('supervisor-badge'),
          page.getByTestId('supervisor-pin'),
          page.getByTestId('supervisor-submit'),
          page.getByTestId('supervisor-error'),
        ]);
      } finally {
        await station.stop();
      }
    });

    test('the dock while the station does not answer: its header reads whole, its buttons in the window', async ({ page, demo }, testInfo) => {
      const s = await scenario(demo, 'delivered');
      await openAndSignIn(page, demo, s.operator);
      await scan(page, s.tracking);
      await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);
      // The Wi-Fi drops: nothing the page asks reaches the station.
      await page.context().setOffline(true);
      try {
        await scan(page, s.skus[0] ?? '');
        await expect(page.getByTestId('link-state')).toContainText('Station unreachable', { timeout: 15_000 });
        await page.screenshot({ path: testInfo.outputPath(`station-unreachable-${size.name}.png`) });
        await expectNoCutText(page.locator('.station-header .header-status'));
        await expect(page.getByTestId(handheld ? 'menu-button' : 'about')).toBeInViewport({ ratio: 1 });
        const header = await page.locator('.station-header').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
        expect(header.scroll, 'the header runs off the window').toBeLessThanOrEqual(header.client);
      } finally {
        await page.context().setOffline(false);
      }
    });

    test('the dock while the upstream does not answer', async ({ page, demo }, testInfo) => {
      test.slow();
      const s = await scenario(demo, 'delivered');
      // Signed in once the page is up (a badge scanned before the scan field has focus goes nowhere).
      await openAndSignIn(page, demo, s.operator);
      const header = page.locator('.station-header');
      const calm = (await header.boundingBox())?.height ?? 0;
      // Nothing listens on 127.0.0.1:9: sync finds the upstream offline and says so in the header.
      await demo.api.setUpstream({ url: 'http://127.0.0.1:9/', token: 'upstream-token', accounts: [s.accountId] });
      try {
        await expect(page.getByTestId('sync-indicator')).toContainText('Upstream offline', { timeout: 15_000 });
        // A unit the station already holds (its label can print), then one scanned now; the first selected.
        await demo.api.createLineItem(s.accountId, s.packageId, { return_line_item_id: s.ret.return_line_items[0]?.id ?? null, condition: 'like_new' });
        await scan(page, s.tracking);
        await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);
        await scan(page, s.skus[1]);
        const panel = page.getByTestId('selected-item');
        await expect(panel).toBeVisible();
        await page.keyboard.press('ArrowUp');
        await expect(panel.getByTestId('print-label')).toBeVisible();
        // The header keeps its height (two rows at a dock's size) with the upstream's state in it, whole,
        // and its last button still in the window.
        expect((await header.boundingBox())?.height ?? 0, 'the header grew with the upstream offline').toBeLessThanOrEqual(calm + 1);
        const indicator = await page.getByTestId('sync-indicator').boundingBox();
        const state = await page.getByTestId('sync-indicator').locator('.sync-state').boundingBox();
        expect((state?.x ?? 0) + (state?.width ?? 0), '"Upstream offline" is cut').toBeLessThanOrEqual((indicator?.x ?? 0) + (indicator?.width ?? 0));
        await expect(page.getByTestId(handheld ? 'menu-button' : 'about')).toBeInViewport({ ratio: 1 });
        await expectFits(page, testInfo, `package-upstream-offline-${size.name}`, [page.getByTestId('sync-indicator'), ...packageActions(page)], handheld);
      } finally {
        await demo.api.removeUpstream();
      }
    });
  });
}
