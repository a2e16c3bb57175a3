import { startScaleSimulator } from '../support/scale-simulator.ts';
import { expect, test } from './fixtures.ts';
import { lineRow, openAndSignIn, scan, scenario } from './receiving-helpers.ts';
import { expectFits, SIZES } from './screen-fit.ts';
import { scannerKeys, typedKeys, typeTimed } from './wedge-keyboard.ts';

/*
 * The weight check at the dock (docs/operator-guide.md, The weight check): the parcel on the
 * station's network scale (the MT-SICS simulator on TCP) is weighed by itself when its tracking
 * number is scanned; a light one is said at once in colour and sound, a photo of the open parcel is
 * asked for (F4) and taken — and the station recorded the weight, the verdict and the photo. A
 * keyboard scale's burst on the package screen is the parcel's weight, never a scan.
 */

for (const size of SIZES) {
  test(`a light parcel on the scale is flagged and photographed at ${size.name}`, async ({ page, demo }, testInfo) => {
    test.slow();
    await page.setViewportSize({ width: size.width, height: size.height });
    const scale = await startScaleSimulator('mt_sics', { weight: 0.21, unit: 'kg', movingFor: 1 });
    try {
      await demo.api.chooseScale({ kind: 'tcp', host: '127.0.0.1', port: scale.port, protocol: 'mt_sics' });
      // The return weighs 800 g (its one package has no weight of its own).
      const s = await scenario(demo);
      await openAndSignIn(page, demo, s.operator);
      await scan(page, s.tracking);
      await expect(page.getByTestId('package-view')).toBeVisible();
      const weighing = page.getByTestId('weighing');
      await expect(weighing).toHaveAttribute('data-verdict', 'light');
      await expect(page.getByTestId('weight-measured')).toHaveText('0.21 kg');
      await expect(page.getByTestId('weight-verdict')).toHaveText('Too light');
      await expect(page.getByTestId('weight-expected')).toHaveText('expected 0.8 kg (the return)');
      await expect(page.getByTestId('notice')).toContainText('Too light: weighed 0.21 kg, expected 0.8 kg. Open the parcel and take a photo (F4).');
      await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'error');
      // In colour: the panel is the error's red, not the plain one.
      await expect(weighing).toHaveCSS('background-color', 'rgb(253, 226, 229)');
      await expect(page.getByTestId('weight-photo-ask')).toHaveAttribute('data-taken', 'no');
      // The failed check held the parcel for a supervisor's review, with the finding.
      await expect(page.getByTestId('held-for-review')).toContainText('Weight: weighed 0.21 kg, expected 0.8 kg');
      const handheld = size.name === '412x915';
      await expectFits(
        page,
        testInfo,
        `weight-light-${size.name}`,
        [weighing, page.getByTestId('weight-photo-ask'), page.getByTestId('receive'), page.getByTestId('take-photo')],
        handheld,
      );

      await page.keyboard.press('F4');
      await expect(page.getByTestId('photo')).toHaveAttribute('data-state', 'done');
      await expect(page.getByTestId('weight-photo-ask')).toHaveAttribute('data-taken', 'yes');
      await expectFits(page, testInfo, `weight-photo-taken-${size.name}`, [weighing, page.getByTestId('receive'), page.getByTestId('take-photo')], handheld);

      // What the station recorded: the weight with its verdict, who weighed it, and the photo.
      expect(await demo.api.packageWeight(s.accountId, s.packageId)).toMatchObject({
        weight: 0.21,
        unit: 'kg',
        source: 'scale',
        scale: `MT-SICS at 127.0.0.1:${scale.port}`,
        operator_id: s.operator.id,
        expected_weight: 0.8,
        expected_from: 'return',
        verdict: 'light',
      });
      const pkg = await demo.api.getPackage(s.accountId, s.packageId);
      expect(pkg.weighing).toMatchObject({ measured_weight: 0.21, weight_verdict: 'light', weighed_by: s.operator.id });
      expect(pkg.media_files).toHaveLength(1);
      // Only a stable weight was taken: the scale was asked again while it moved.
      expect(scale.commands.filter((c) => c === 'SI').length).toBeGreaterThanOrEqual(2);
    } finally {
      await scale.close();
    }
  });
}

test('a parcel within the tolerance, its tracking number typed at a person’s pace: weight OK, nothing asked', async ({ page, demo }) => {
  test.slow();
  await page.setViewportSize({ width: 1024, height: 600 });
  const scale = await startScaleSimulator('mt_sics', { weight: 0.83, unit: 'kg' });
  try {
    await demo.api.chooseScale({ kind: 'tcp', host: '127.0.0.1', port: scale.port, protocol: 'mt_sics' });
    const s = await scenario(demo);
    await openAndSignIn(page, demo, s.operator);
    await typeTimed(
      page,
      typedKeys(s.tracking, (i) => 110 + (i % 3) * 40),
    );
    await expect(page.getByTestId('package-view')).toBeVisible();
    await expect(page.getByTestId('weighing')).toHaveAttribute('data-verdict', 'ok');
    await expect(page.getByTestId('weight-verdict')).toHaveText('Weight OK');
    await expect(page.getByTestId('weight-photo-ask')).toHaveCount(0);
    expect(await demo.api.packageWeight(s.accountId, s.packageId)).toMatchObject({ weight: 0.83, verdict: 'ok', expected_weight: 0.8 });
  } finally {
    await scale.close();
  }
});

test('a keyboard scale’s burst on the package screen sets the weight and is never taken for a scan', async ({ page, demo }) => {
  test.slow();
  await page.setViewportSize({ width: 1024, height: 600 });
  await demo.api.chooseScale({ kind: 'wedge', prefix: null });
  const s = await scenario(demo);
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await expect(page.getByTestId('package-view')).toBeVisible();
  await expect(page.getByTestId('weight-measured')).toHaveText('Not weighed');
  const [a, b] = s.skus;
  await scan(page, a);
  await expect(lineRow(page, a).getByTestId('line-here')).toHaveText('1');

  // The scale types "0.21 kg" and Enter at a device's pace, a leading digit first.
  await typeTimed(page, scannerKeys('0.21 kg', 0, 12));
  await expect(page.getByTestId('weight-measured')).toHaveText('0.21 kg');
  await expect(page.getByTestId('weighing')).toHaveAttribute('data-verdict', 'light');
  // Not a scan: no item was added and the scan field is empty.
  await expect(lineRow(page, a).getByTestId('line-here')).toHaveText('1');
  await expect(page.getByTestId('scan-field')).toHaveValue('');
  await expect(page.getByTestId('notice')).not.toContainText('not on this return');
  const recorded = await demo.api.packageWeight(s.accountId, s.packageId);
  expect(recorded).toMatchObject({ weight: 0.21, unit: 'kg', source: 'scale', scale: 'keyboard scale', verdict: 'light' });
  expect((await demo.api.getPackage(s.accountId, s.packageId)).line_items).toHaveLength(1);

  // A scan right after is still a scan.
  await scan(page, b);
  await expect(lineRow(page, b).getByTestId('line-here')).toHaveText('1');
  await expect.poll(async () => (await demo.api.getPackage(s.accountId, s.packageId)).line_items.length).toBe(2);
});
