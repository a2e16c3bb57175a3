import { DEFAULT_WEIGHT_CHECK } from '../../shared/api/weight-check.ts';
import { expect, test } from './fixtures.ts';
import { openAndSignIn, scenario } from './receiving-helpers.ts';
import { expectFits, openFromHeader, SIZES } from './screen-fit.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * The weight check's tolerance and box tare set in Settings by a supervisor, as a person types them:
 * a bad value refused in words with nothing saved, then the new values saved and kept by the station
 * (its API), the form fitting at the dock's sizes with its save in view.
 */

for (const size of SIZES) {
  test(`the weight check's tolerance and tare set in Settings at ${size.name}`, async ({ page, demo }, testInfo) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const s = await scenario(demo);
    await openAndSignIn(page, demo, s.operator);
    await signInSupervisor(page);
    const handheld = size.name === '412x915';
    await openFromHeader(page, handheld, page.getByTestId('settings-button'));
    await page.getByTestId('settings-tab-more').click();
    const form = page.getByTestId('weight-check-settings');
    await form.scrollIntoViewIfNeeded();
    await expect(form.getByTestId('weight-tolerance-percent')).toHaveValue(String(DEFAULT_WEIGHT_CHECK.tolerance_percent));

    // Emptied and typed over at a person's pace: an empty field is refused, nothing changes on the station.
    await form.getByTestId('weight-tolerance-absolute').fill('');
    await form.getByTestId('weight-check-save').click();
    await expect(form.getByTestId('weight-check-state')).toHaveText('Absolute: give a number.');
    expect((await demo.api.stationSettings()).weight_check).toEqual(DEFAULT_WEIGHT_CHECK);
    await form.getByTestId('weight-tolerance-percent').fill('');
    await form.getByTestId('weight-tolerance-percent').pressSequentially('150', { delay: 60 });
    await form.getByTestId('weight-tolerance-absolute').pressSequentially('0.05', { delay: 60 });
    await form.getByTestId('weight-check-save').click();
    await expect(form.getByTestId('weight-check-state')).toContainText('Percent:');
    expect((await demo.api.stationSettings()).weight_check).toEqual(DEFAULT_WEIGHT_CHECK);

    await form.getByTestId('weight-tolerance-percent').fill('5');
    await form.getByTestId('weight-box-tare').fill('0.3');
    await form.getByTestId('weight-unit').selectOption('kg');
    await form.getByTestId('weight-check-save').click();
    await expect(form.getByTestId('weight-check-state')).toHaveText('Saved: a parcel is off when it is more than 5 % and more than 0.05 kg from its weight.');
    expect((await demo.api.stationSettings()).weight_check).toEqual({ tolerance_percent: 5, tolerance_absolute: 0.05, box_tare: 0.3, unit: 'kg' });
    // The outcome is brought into view, not left below the fold or under the key bar.
    await expect(form.getByTestId('weight-check-state')).toBeInViewport({ ratio: 1 });
    await expectFits(
      page,
      testInfo,
      `weight-check-settings-${size.name}`,
      [form.getByTestId('weight-check-save'), form.getByTestId('weight-check-state')],
      handheld,
    );
  });
}
