import { devices } from '@playwright/test';
import { expect, startDemoStation, test } from './fixtures.ts';
import { launchTrustingStation } from './site-browser.ts';
import { scan } from './receiving-helpers.ts';

/*
 * A handheld pairs with a station serving the site's network over TLS (docs/decisions/handheld-pairing.md):
 * Chromium in mobile emulation (touch, 412×915) trusting the station's certificate authority's key,
 * not told to ignore errors, opens the QR code's address, gets a token of its own (no code or token
 * left in the address) and a worker signs in with a badge.
 */

test('a handheld opens the QR code’s address, pairs at once and a worker signs in by badge', async () => {
  const station = await startDemoStation({ args: ['--host', '0.0.0.0'] });
  // Chromium trusts the station's certificate authority's key, not any certificate error.
  const browser = await launchTrustingStation(station.dataDir);
  try {
    const context = await browser.newContext({ ...devices['Pixel 7'], viewport: { width: 412, height: 915 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const pairing = await station.api.createHandheldPairing();
    expect(pairing.pair_url).toBe(`${station.origin}/pair#code=${pairing.code}`);
    await page.goto(pairing.pair_url ?? '');
    await expect(page.getByTestId('link-state')).toHaveText('Station online');
    // Neither the code nor a token stays in the address the browser keeps.
    expect(page.url()).toBe(`${station.origin}/`);
    expect(await page.evaluate('history.length + location.href')).not.toMatch(/code=|token=/);

    // The station recorded a terminal token named after the device.
    const devicesListed = (await station.api.listTokens()).data.filter((t) => t.name.startsWith('handheld: '));
    expect(devicesListed).toHaveLength(1);
    expect(devicesListed[0]).toMatchObject({ role: 'terminal', revoked_at: null });

    const operator = (await station.api.listOperators({ per_page: 100 })).data.find((o) => o.badge_code);
    if (!operator) throw new Error('the demo has no worker with a badge');
    await expect(page.getByTestId('scan-field')).toBeFocused();
    await scan(page, operator.badge_code ?? '');
    await expect(page.getByTestId('operator')).toContainText(operator.name);
    await page.screenshot({ path: test.info().outputPath('handheld-paired-412x915.png') });

    // A reload keeps the device's own token; the code cannot be used again.
    await page.reload();
    await expect(page.getByTestId('link-state')).toHaveText('Station online');
    const again = await context.newPage();
    await again.goto(pairing.pair_url ?? '');
    await expect(again.getByTestId('pair-problem')).toContainText('a code works once');
    await again.screenshot({ path: test.info().outputPath('handheld-pair-refused-412x915.png') });
  } finally {
    await browser.close();
    await station.stop();
  }
});
