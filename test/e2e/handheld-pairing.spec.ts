import { devices, type Page } from '@playwright/test';
import { expect, startDemoStation, test } from './fixtures.ts';
import { launchTrustingStation } from './site-browser.ts';
import { openAndSignIn, openSettings, scan } from './receiving-helpers.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * A handheld pairs with a station serving the site's network over TLS (docs/decisions/handheld-pairing.md):
 * Chromium in mobile emulation (touch, 412×915) trusting the station's certificate authority's key,
 * not told to ignore errors, opens the QR code's address, gets a token of its own (no code or token
 * left in the address) and a worker signs in with a badge.
 */

test('a handheld opens the address of a code made without a name, names itself on the page, and a worker signs in by badge', async () => {
  const station = await startDemoStation({ args: ['--host', '0.0.0.0'] });
  // Chromium trusts the station's certificate authority's key, not any certificate error.
  const browser = await launchTrustingStation(station.dataDir);
  try {
    const context = await browser.newContext({ ...devices['Pixel 7'], viewport: { width: 412, height: 915 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const pairing = await station.api.createHandheldPairing();
    expect(pairing.pair_url).toBe(`${station.origin}/pair#code=${pairing.code}`);
    await page.goto(pairing.pair_url ?? '');
    // The code carries no name: the page asks for one, the code kept in its field (and out of the address).
    await expect(page.getByTestId('pair-problem')).toContainText('Name this handheld');
    await expect(page.getByTestId('pair-name')).toBeFocused();
    await expect(page.getByTestId('pair-code')).toHaveValue(pairing.code);
    expect(page.url()).toBe(`${station.origin}/pair`);
    await page.screenshot({ path: test.info().outputPath('handheld-pair-name-412x915.png') });
    await page.keyboard.type('Pixel by the door');
    await page.getByTestId('pair-submit').tap();
    await expect(page.getByTestId('link-state')).toHaveText('Station online');
    // Neither the code nor a token stays in the address the browser keeps.
    expect(page.url()).toBe(`${station.origin}/`);
    expect(await page.evaluate('history.length + location.href')).not.toMatch(/code=|token=/);

    // The station recorded a terminal token named after the device.
    const devicesListed = (await station.api.listTokens()).data.filter((t) => t.name.startsWith('handheld: '));
    expect(devicesListed).toHaveLength(1);
    expect(devicesListed[0]).toMatchObject({ name: 'handheld: Pixel by the door', role: 'terminal', revoked_at: null });

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

const HANDHELD = { ...devices['Pixel 7'], viewport: { width: 412, height: 915 }, hasTouch: true, isMobile: true };

test('a supervisor names each handheld on the station’s screen: its QR code pairs it under that name, and the list revokes the one named', async () => {
  test.setTimeout(90_000);
  const station = await startDemoStation({ args: ['--host', '0.0.0.0'] });
  const browser = await launchTrustingStation(station.dataDir);
  try {
    const desk = await browser.newPage({ viewport: { width: 1024, height: 600 } });
    const worker = (await station.api.listOperators({ per_page: 100 })).data.find((o) => o.badge_code && o.role === 'worker');
    if (!worker) throw new Error('the demo has no worker with a badge');
    await openAndSignIn(desk, station, worker);
    await signInSupervisor(desk);
    await openSettings(desk, 'site');

    const handhelds = new Map<string, Page>();
    for (const name of ['TC52 dock 3', 'TC52 dock 4']) {
      await desk.getByTestId('handheld-name').fill(name);
      await desk.getByTestId('handheld-pair').click();
      await expect(desk.getByTestId('handheld-code-name')).toHaveText(name);
      if (name === 'TC52 dock 3') await desk.screenshot({ path: test.info().outputPath('station-handheld-qr-1024x600.png') });
      const code = (await desk.getByTestId('handheld-code').textContent()) ?? '';
      await expect(desk.getByTestId('handheld-qr')).toHaveAttribute('aria-label', `QR code of ${station.origin}/pair#code=${code}`);
      // The handheld scans the QR code: it pairs at once, under the name given at the station.
      const handheld = await (await browser.newContext(HANDHELD)).newPage();
      await handheld.goto(`${station.origin}/pair#code=${code}`);
      await expect(handheld.getByTestId('link-state')).toHaveText('Station online');
      handhelds.set(name, handheld);
    }
    // A name already paired is refused on the station's screen, and no code is shown for it.
    await desk.getByTestId('handheld-name').fill('TC52 dock 4');
    await desk.getByTestId('handheld-pair').click();
    await expect(desk.getByTestId('handheld-problem')).toContainText('already named "TC52 dock 4"');

    await desk.getByTestId('handheld-list').click();
    await expect(desk.getByTestId('handheld-device-name')).toHaveText(['TC52 dock 3', 'TC52 dock 4']);
    await desk.getByTestId('handheld-devices').scrollIntoViewIfNeeded();
    await desk.screenshot({ path: test.info().outputPath('station-handhelds-1024x600.png') });
    await desk.getByRole('button', { name: 'Revoke TC52 dock 3' }).click();
    await expect(desk.getByTestId('handheld-device-name')).toHaveText(['TC52 dock 4']);

    // The station ended that device's token alone: the other one still works.
    const tokens = (await station.api.listTokens()).data.filter((t) => t.name.startsWith('handheld: '));
    expect(tokens.map((t) => [t.name, t.revoked_at !== null])).toEqual([
      ['handheld: TC52 dock 3', true],
      ['handheld: TC52 dock 4', false],
    ]);
    const [revoked, kept] = [handhelds.get('TC52 dock 3'), handhelds.get('TC52 dock 4')];
    if (!revoked || !kept) throw new Error('both handhelds paired above');
    await kept.reload();
    await expect(kept.getByTestId('link-state')).toHaveText('Station online');
    // The revoked one is told so in words, and how to pair again.
    await revoked.reload();
    await expect(revoked.getByText('The station no longer accepts this handheld (its pairing was revoked)')).toBeVisible();
    await revoked.screenshot({ path: test.info().outputPath('handheld-revoked-412x915.png') });
  } finally {
    await browser.close();
    await station.stop();
  }
});
