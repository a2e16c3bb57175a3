import { startScaleSimulator } from '../support/scale-simulator.ts';
import { expect, test } from './fixtures.ts';
import { openAndSignIn, scenario } from './receiving-helpers.ts';
import { expectFits, openFromHeader, SIZES } from './screen-fit.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * Choosing the dock's scale in Settings and a test read, as a supervisor does it: a network scale
 * (the NCI simulator on TCP) saved, read stable; then the same scale moving, overloaded and
 * unplugged mid-read, each said plainly on screen and by the station's API alike. At the dock's
 * sizes the section fits with its save and its test read in view (a screenshot of each).
 */

for (const size of SIZES) {
  test(`a network scale chosen and test-read in Settings at ${size.name}`, async ({ page, demo }, testInfo) => {
    test.slow();
    await page.setViewportSize({ width: size.width, height: size.height });
    const scale = await startScaleSimulator('nci', { weight: 2.35, unit: 'kg', movingFor: 2 });
    try {
      const s = await scenario(demo);
      await openAndSignIn(page, demo, s.operator);
      await signInSupervisor(page);
      const handheld = size.name === '412x915';
      await openFromHeader(page, handheld, page.getByTestId('settings-button'));
      await page.getByTestId('settings-tab-scale').click();
      const form = page.getByTestId('scale-settings');
      await expect(form.getByTestId('scale-kind-manual')).toBeChecked();
      await form.getByTestId('scale-kind-tcp').check();
      await form.getByTestId('scale-host').fill('127.0.0.1');
      await form.getByTestId('scale-port').fill(String(scale.port));
      await form.getByTestId('scale-protocol').selectOption('nci');
      await form.getByTestId('scale-save').click();
      await expect(page.getByTestId('scale-saved')).toHaveText('Scale saved.');
      // The station keeps it (every terminal reads the same scale).
      expect((await demo.api.scale()).scale).toEqual({ kind: 'tcp', host: '127.0.0.1', port: scale.port, protocol: 'nci' });

      // A parcel that settles: the weight, stable, once the scale stopped moving.
      await page.getByTestId('scale-test').click();
      await expect(page.getByTestId('scale-reading')).toHaveAttribute('data-state', 'stable');
      await expect(page.getByTestId('scale-weight')).toHaveText(/2\.35 kg\s*Stable/);
      expect(scale.commands.filter((c) => c === 'W').length).toBe(3);
      await expectFits(page, testInfo, `scale-stable-${size.name}`, [page.getByTestId('scale-save'), page.getByTestId('scale-reading')], handheld);

      // A parcel that never settles: no weight is taken, and the screen says why.
      scale.set({ movingFor: Infinity, weight: 0.4 });
      await page.getByTestId('scale-test').click();
      await expect(page.getByTestId('scale-reading')).toHaveAttribute('data-state', 'in_motion', { timeout: 10_000 });
      await expect(page.getByTestId('scale-state')).toContainText('Not steady');

      // Overloaded.
      scale.set({ movingFor: 0, over: true });
      await page.getByTestId('scale-test').click();
      await expect(page.getByTestId('scale-reading')).toHaveAttribute('data-state', 'overload');
      await expect(page.getByTestId('scale-state')).toContainText('over its capacity');

      // The cable pulled during the read.
      scale.set({ over: false, pullCableOnRequest: true });
      await page.getByTestId('scale-test').click();
      await expect(page.getByTestId('scale-reading')).toHaveAttribute('data-state', 'disconnected');
      await expect(page.getByTestId('scale-weight')).toHaveText(/—\s*Cable pulled/);
      await expectFits(page, testInfo, `scale-unplugged-${size.name}`, [page.getByTestId('scale-save'), page.getByTestId('scale-reading')], handheld);

      // No scale at the address at all.
      await scale.close();
      await page.getByTestId('scale-test').click();
      await expect(page.getByTestId('scale-reading')).toHaveAttribute('data-state', 'not_connected');
      await expect(page.getByTestId('scale-state')).toContainText('Nothing answers at 127.0.0.1');
    } finally {
      await scale.close();
    }
  });
}
