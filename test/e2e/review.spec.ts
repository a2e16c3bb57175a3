import type { Locator, Page } from '@playwright/test';
import { DEMO_SUPERVISOR, expect, test, type DemoStation } from './fixtures.ts';
import { createReturn, firstAccount, openAndSignIn, scan, uid } from './receiving-helpers.ts';
import { expectFits, SIZES } from './screen-fit.ts';
import { signInSupervisor } from './supervisor-helpers.ts';
import { typedKeys, typeTimed } from './wedge-keyboard.ts';

/*
 * The review, by keyboard as people do it: a parcel weighed light is held; the package screen says
 * "Held for review" with the finding; a supervisor opens the review list from the dock day (Alt+D,
 * Tab to "Review list", Enter), releases one parcel and confirms another's finding with a typed reason — and the
 * station recorded each, with who and when (read through its API). At 1024×600, 800×600 and 412×915.
 */

/** A parcel that should weigh 1.8 kg with one inspected unit, weighed at 0.21 kg: held by the weight check. */
async function heldParcel(demo: DemoStation, accountId: number) {
  const tag = uid();
  const { ret } = await createReturn(demo.api, accountId, tag);
  const tracking = `1Z${tag}HELD${tag}`;
  const pkg = await demo.api.createPackage(accountId, { return_id: ret.id, tracking_number: tracking, status: 'delivered', weight: 1.8, weight_unit: 'kg' });
  await demo.api.createLineItem(accountId, pkg.id, { return_line_item_id: ret.return_line_items[0]?.id ?? null, condition: 'new' });
  await demo.api.weighPackage(accountId, pkg.id, { source: 'typed', weight: 0.21, unit: 'kg' });
  const review = await demo.api.packageReview(accountId, pkg.id);
  expect(review.review?.state, 'held by the weight check').toBe('held');
  return { id: pkg.id, tracking, finding: review.review?.findings[0]?.text ?? '' };
}

/** Tab, as a person does, until `target` has the focus. */
async function tabTo(page: Page, target: Locator, most = 60): Promise<void> {
  for (let i = 0; i < most; i += 1) {
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target, 'reached by Tab').toBeFocused();
}

for (const size of SIZES) {
  test.describe(`at ${size.name}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('a held parcel shows why on its screen; a supervisor releases one and confirms another from the review list, recorded with who and when', async ({
      page,
      demo,
    }, testInfo) => {
      const handheld = size.width < 600;
      const accountId = await firstAccount(demo.api);
      const released = await heldParcel(demo, accountId);
      const confirmed = await heldParcel(demo, accountId);
      expect(released.finding).toMatch(/^weighed 0\.21 kg, expected 1\.8/);
      const worker = await demo.api.createOperator({ name: `Dock worker ${uid()}`, badge_code: `BADGE-${uid()}` });

      // The dock: the parcel scanned opens with "Held for review" and its finding.
      await openAndSignIn(page, demo, worker);
      await scan(page, released.tracking);
      const notice = page.getByTestId('held-for-review');
      await expect(notice).toContainText('Held for review');
      await expect(notice).toContainText(released.finding);
      await notice.scrollIntoViewIfNeeded();
      await expect(notice).toBeInViewport();
      await page.screenshot({ path: testInfo.outputPath(`package-held-${size.name}.png`) });

      // The supervisor: signed in by badge and PIN, the dock day (Alt+D), Tab to "Held for review", Enter.
      await page.keyboard.press('Escape');
      await signInSupervisor(page);
      await page.keyboard.press('Alt+D');
      const toList = page.getByTestId('supervisor-reviews');
      await expect(toList).toContainText(/Review list \(\d+\)/);
      await tabTo(page, toList);
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('review-screen')).toBeVisible();
      const first = page.locator(`[data-testid="review-package"][data-package-id="${released.id}"]`);
      const second = page.locator(`[data-testid="review-package"][data-package-id="${confirmed.id}"]`);
      await expect(first).toContainText(released.tracking);
      await expect(first).toContainText(`Weight: ${released.finding}`);
      await expect(second).toContainText(confirmed.tracking);
      await expectFits(page, testInfo, `review-list-${size.name}`, [first.getByTestId('review-release'), first.getByTestId('review-confirm-open')], handheld);

      // Release the first: Tab to its Release, Enter.
      await tabTo(page, first.getByTestId('review-release'));
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('review-done')).toContainText(`Released ${released.tracking}`);
      await expect(first).toHaveCount(0);

      // Confirm the second's finding: Tab to "Confirm finding…", Enter, the reason typed, Enter.
      await tabTo(page, second.getByTestId('review-confirm-open'));
      await page.keyboard.press('Enter');
      await expect(second.getByTestId('review-reason')).toBeFocused();
      await typeTimed(
        page,
        typedKeys('empty box', () => 120),
      );
      await expect(page.getByTestId('review-done')).toContainText(`Confirmed the finding on ${confirmed.tracking}`);
      await expect(second).toHaveCount(0);
      const decided = page.locator(`[data-testid="review-decided"][data-package-id="${confirmed.id}"]`);
      await expect(decided).toContainText(`finding confirmed by ${DEMO_SUPERVISOR.name}`);
      await expect(decided).toContainText('“empty box”');
      await expectFits(page, testInfo, `review-decided-${size.name}`, [decided], handheld);

      // What the station recorded: who and when, the units' dispositions, the confirmed finding in the notes.
      const sessionStart = Date.now() - 10 * 60_000;
      const releasedReview = (await demo.api.packageReview(accountId, released.id)).review;
      expect(releasedReview).toMatchObject({ state: 'released', decided_by_name: DEMO_SUPERVISOR.name, reason: null });
      expect(releasedReview?.decided_by).not.toBeNull();
      expect(Date.parse(releasedReview?.decided_at ?? '')).toBeGreaterThan(sessionStart);
      expect((await demo.api.getPackage(accountId, released.id)).line_items.map((i) => [i.disposition, i.disposition_source])).toEqual([['restock', 'rule']]);
      const confirmedReview = (await demo.api.packageReview(accountId, confirmed.id)).review;
      expect(confirmedReview).toMatchObject({ state: 'confirmed', decided_by_name: DEMO_SUPERVISOR.name, reason: 'empty box' });
      expect((await demo.api.getPackage(accountId, confirmed.id)).line_items.map((i) => i.disposition)).toEqual(['quarantine']);
      expect((await demo.api.getSiteReceipt(accountId, confirmed.id)).notes).toBe(`${confirmed.finding}: empty box confirmed`);
    });
  });
}
