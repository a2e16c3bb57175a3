import { expect, startDemoStation, test } from './fixtures.ts';
import { launchTrustingStation } from './site-browser.ts';
import { openAndSignIn, openSettings } from './receiving-helpers.ts';

/*
 * Settings shows where the station listens and, on the site's network, the fingerprint of the
 * certificate stations and handhelds trust (docs/decisions/hub-tls.md).
 */

test('on loopback, Settings says the station is reachable from this computer only', async ({ page, demo }) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  const operator = (await demo.api.listOperators({ per_page: 100 })).data.find((o) => o.badge_code);
  if (!operator) throw new Error('the demo has no worker with a badge');
  await openAndSignIn(page, demo, operator);
  await openSettings(page, 'more');
  await expect(page.getByTestId('site-address')).toHaveAttribute('data-tls', 'no');
  await expect(page.getByTestId('site-origin')).toHaveText(demo.origin);
  await expect(page.getByTestId('site-fingerprint')).toHaveCount(0);
});

test("served on the site's network, Settings shows the https address and the fingerprint the station printed", async () => {
  const station = await startDemoStation({ args: ['--host', '0.0.0.0'] });
  // Chromium trusts the station's certificate authority's key, not any certificate error.
  const browser = await launchTrustingStation(station.dataDir);
  try {
    for (const viewport of [
      { width: 1024, height: 600 },
      { width: 800, height: 600 },
      { width: 412, height: 915 },
    ]) {
      const page = await browser.newPage({ viewport });
      const operator = (await station.api.listOperators({ per_page: 100 })).data.find((o) => o.badge_code);
      if (!operator) throw new Error('the demo has no worker with a badge');
      await openAndSignIn(page, station, operator);
      if (viewport.width < 600) await page.getByTestId('menu-button').click();
      await openSettings(page, 'more');
      await expect(page.getByTestId('site-address')).toHaveAttribute('data-tls', 'yes');
      await expect(page.getByTestId('site-origin')).toHaveText(station.origin);
      expect(station.origin).toMatch(/^https:/);
      await expect(page.getByTestId('site-fingerprint')).toHaveText(station.tlsFingerprint ?? 'none printed');
      await page.getByTestId('site-address').scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath(`site-address-${viewport.width}x${viewport.height}.png`) });
      await page.close();
    }
  } finally {
    await browser.close();
    await station.stop();
  }
});
