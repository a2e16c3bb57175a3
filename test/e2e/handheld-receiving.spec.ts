import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, devices, type Page } from '@playwright/test';
import { fetchTrusting } from '../../electron/station/tls/pinned-fetch.ts';
import { expect, startDemoStation, test } from './fixtures.ts';
import { launchTrustingStation } from './site-browser.ts';
import { lineRow, scan, scenario } from './receiving-helpers.ts';

/*
 * A handheld receives a whole package by touch (issue: handhelds join the site): paired with a station
 * serving the site's network over TLS, Chromium in mobile emulation (touch, 412×915) trusting the
 * station's certificate authority, its camera a fake one. The Wi-Fi drops in the middle of the package
 * (offline emulation) and comes back later: what the worker did meanwhile is held on the handheld and
 * recorded once, and the station's own API is what is checked.
 */

/** The handheld's camera: Chromium's fake device, allowed without a prompt (the page is a secure context). */
const FAKE_CAMERA = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

test.use({ actionTimeout: 10_000 });

const HANDHELD = { ...devices['Pixel 7'], viewport: { width: 412, height: 915 }, hasTouch: true, isMobile: true };

async function pairedHandheld(context: BrowserContext, pairUrl: string | null): Promise<Page> {
  const page = await context.newPage();
  await page.goto(pairUrl ?? '');
  await expect(page.getByTestId('link-state')).toHaveText('Station online');
  return page;
}

/**
 * Types on the handheld's touch keyboard, then its Go key: as Android's keyboards do, each key reaches
 * the page as an `Unidentified` key (229) and its text as input, a person's gap between keys.
 */
async function touchKeyboard(page: Page, text: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const unidentified = { key: 'Unidentified', code: '', windowsVirtualKeyCode: 229 };
  for (const char of text) {
    await cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...unidentified });
    await cdp.send('Input.insertText', { text: char });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...unidentified });
    await new Promise((r) => setTimeout(r, 120));
  }
  const go = { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 };
  await cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...go });
  await cdp.send('Input.dispatchKeyEvent', { type: 'char', ...go, text: '\r' });
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...go });
  await cdp.detach();
}

/** Taps a condition button of the selected item's panel. */
const tapCondition = (page: Page, label: string) =>
  page
    .getByTestId('condition-panel')
    .getByRole('button', { name: new RegExp(`\\b${label}\\b`) })
    .tap();

test('a handheld receives a package by touch while the Wi-Fi drops mid-package: nothing is lost, each thing recorded once', async () => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'returns-station-handheld-'));
  let station = await startDemoStation({ dataDir, args: ['--host', '0.0.0.0'] });
  const browser = await launchTrustingStation(station.dataDir, FAKE_CAMERA);
  try {
    const s = await scenario(station, 'delivered');
    const context = await browser.newContext(HANDHELD);
    const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`handheld-${name}-412x915.png`) });
    const page = await pairedHandheld(context, (await station.api.createHandheldPairing({ device_name: 'TC52 dock 3' })).pair_url);

    // The handheld's own scanner reads the badge; the parcel's number is typed on the touch keyboard.
    await scan(page, s.operator.badge_code ?? '');
    await expect(page.getByTestId('operator')).toContainText(s.operator.name);
    await page.getByTestId('scan-field').tap();
    await touchKeyboard(page, s.tracking);
    await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);

    // First item, online: its condition on the touch keyboard (3, Go), a photo from the handheld's camera.
    await scan(page, s.skus[0]);
    await page.getByTestId('scan-field').tap();
    await touchKeyboard(page, '3');
    await expect(lineRow(page, s.skus[0])).toContainText('Good');
    await page.getByTestId('take-photo').tap();
    await expect(page.getByTestId('photo').and(page.locator('[data-state="done"]'))).toHaveCount(1);
    await shot(page, 'first-item');
    await expect.poll(async () => (await station.api.getPackage(s.accountId, s.packageId)).line_items.map((i) => i.condition)).toEqual(['good']);

    // The Wi-Fi drops: the rest of the package is worked with no station.
    await context.setOffline(true);
    await scan(page, s.skus[1]);
    await tapCondition(page, 'Damaged');
    await scan(page, s.skus[1]);
    await tapCondition(page, 'Fair');
    const notes = page.getByTestId('selected-item').getByLabel('Notes');
    await notes.tap();
    await page.keyboard.type('box crushed');
    await page.getByTestId('selected-item').getByRole('heading').tap();
    // A code not on the return needs the station to say what it is: refused in words, nothing recorded.
    await scan(page, 'EAN4006381333931');
    await expect(page.getByTestId('notice')).toContainText('EAN4006381333931 not recorded: it is not on this return, and the station cannot be reached');
    await scan(page, s.skus[2]);
    await tapCondition(page, 'New');
    await page.getByTestId('take-photo').tap();
    await expect(page.getByTestId('photo').and(page.locator('[data-state="retrying"]'))).toHaveCount(1);
    await expect(page.getByTestId('link-state')).toContainText('Station unreachable');
    await expect(page.getByTestId('sync-state')).toContainText('Station unreachable');
    await shot(page, 'offline');

    // Received by touch: the screen asks once (units not put in their bins), then says it waits.
    await page.getByTestId('receive').tap();
    await expect(page.getByTestId('notice')).toContainText('(or scan or tap Receive) again');
    await shot(page, 'receive-question');
    await page.getByTestId('receive').tap();
    await expect(page.getByTestId('notice')).toContainText(`Receiving ${s.tracking} — 4 units… (waiting for the station)`);
    await expect(page.getByTestId('pending-package')).toHaveAttribute('data-tracking', s.tracking);
    await shot(page, 'receive-pending');
    const meanwhile = await station.api.getPackage(s.accountId, s.packageId);
    expect(meanwhile).toMatchObject({ status: 'delivered', processed_at: null });
    expect(meanwhile.line_items).toHaveLength(1);
    expect(meanwhile.media_files).toHaveLength(1);

    // The Wi-Fi comes back: the held work goes to the station on its own, once.
    await context.setOffline(false);
    await expect(page.getByTestId('link-state')).toHaveText('Station online', { timeout: 15_000 });
    await expect(page.getByTestId('pending-package')).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByTestId('notice')).toContainText(`Received ${s.tracking} — 4 units`);
    await expect(page.getByTestId('pending-uploads')).toHaveCount(0, { timeout: 15_000 });
    await shot(page, 'back-online');

    const port = Number(new URL(station.origin).port);
    await station.stop();
    // What the station recorded outlives its restart.
    station = await startDemoStation({ dataDir, port, args: ['--host', '0.0.0.0'] });
    const pkg = await station.api.getPackage(s.accountId, s.packageId);
    expect(pkg).toMatchObject({ status: 'received', processor_id: s.operator.id });
    const skuOf = new Map(s.ret.return_line_items.map((l) => [l.id, l.merchant_sku]));
    expect(pkg.line_items.map((i) => [skuOf.get(i.return_line_item_id ?? -1), i.quantity, i.condition, i.notes])).toEqual([
      [s.skus[0], 1, 'good', null],
      [s.skus[1], 1, 'damaged', null],
      [s.skus[1], 1, 'fair', 'box crushed'],
      [s.skus[2], 1, 'new', null],
    ]);
    // Both photos, the one taken offline with the time it was taken, not when it reached the station.
    expect(pkg.media_files).toHaveLength(2);
    const [online, offline] = pkg.media_files;
    expect(Date.parse(offline?.captured_at ?? '')).toBeLessThan(Date.parse(offline?.created_at ?? ''));
    const fetchMedia = fetchTrusting({ ca: readFileSync(join(dataDir, 'tls', 'site-ca.pem'), 'utf8') });
    for (const media of [online, offline]) {
      const answer = await fetchMedia(media?.url ?? '');
      expect(answer.headers.get('content-type')).toBe('image/jpeg');
      expect((await answer.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
  } finally {
    await browser.close();
    await station.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the handheld’s page is reloaded while the Wi-Fi is down: the dock opens from its copy with the worker, the open package and its held work; a new parcel scanned then is held and opens when the station answers; everything recorded once', async () => {
  test.setTimeout(120_000);
  const station = await startDemoStation({ args: ['--host', '0.0.0.0'] });
  const browser = await launchTrustingStation(station.dataDir, FAKE_CAMERA);
  try {
    const s = await scenario(station, 'delivered');
    // The next parcel, still on its way: opening it marks it arrived, which the station's API shows.
    const next = await scenario(station, 'in_transit');
    const context = await browser.newContext(HANDHELD);
    const page = await pairedHandheld(context, (await station.api.createHandheldPairing({ device_name: 'TC52 dock 5' })).pair_url);
    const shot = (name: string) => page.screenshot({ path: test.info().outputPath(`handheld-${name}-412x915.png`) });
    // The page keeps its copy once its service worker is active (the test's node types have no DOM, hence the string).
    await expect.poll(() => page.evaluate<string | undefined>('navigator.serviceWorker.ready.then((r) => r.active?.state)')).toBe('activated');
    await scan(page, s.operator.badge_code ?? '');
    await expect(page.getByTestId('operator')).toContainText(s.operator.name);
    await scan(page, s.tracking);
    await scan(page, s.skus[0]);
    await tapCondition(page, 'Good');
    await expect(page.getByTestId('sync-state')).toHaveText('All changes saved on the station');

    await context.setOffline(true);
    await scan(page, s.skus[1]);
    await tapCondition(page, 'Damaged');

    // The browser reloads the dock with no network: the dock opens from the copy the handheld keeps,
    // the worker signed in, the package reopened with what was done offline.
    await page.reload();
    await expect(page.getByTestId('link-state')).toHaveText('Station unreachable — held 1 change');
    await expect(page.getByTestId('operator')).toContainText(s.operator.name);
    await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);
    await expect(page.getByTestId('notice')).toContainText(`${s.tracking} reopened from this device’s copy`);
    await expect(lineRow(page, s.skus[0])).toContainText('Good');
    await expect(lineRow(page, s.skus[1])).toContainText('Damaged');
    await shot('reloaded-offline');
    expect((await station.api.getPackage(s.accountId, s.packageId)).line_items).toHaveLength(1);

    // Work done after the reload is held too: the last item, then Receive.
    await scan(page, s.skus[2]);
    await tapCondition(page, 'Like new');
    await page.getByTestId('receive').tap();
    await expect(page.getByTestId('notice')).toContainText('(or scan or tap Receive) again');
    await page.getByTestId('receive').tap();
    await expect(page.getByTestId('notice')).toContainText(`Receiving ${s.tracking} — 3 units… (waiting for the station)`);

    // The next parcel, scanned while the Wi-Fi is still down: held, not refused.
    await scan(page, next.tracking);
    await expect(page.getByTestId('notice')).toContainText(`${next.tracking} held: it opens when the station answers.`);
    await expect(page.getByTestId('held-scan')).toHaveAttribute('data-code', next.tracking);
    await expect(page.getByTestId('link-state')).toHaveText('Station unreachable — held 2 changes');
    await shot('held-scan');
    // Scanned again, it is held once.
    await scan(page, next.tracking);
    await expect(page.getByTestId('notice')).toContainText(`${next.tracking} is already held`);
    await expect(page.getByTestId('held-scan')).toHaveCount(1);
    expect((await station.api.getPackage(next.accountId, next.packageId)).status).toBe('in_transit');

    // The Wi-Fi is back: the held work goes up on its own, once, and the held parcel opens.
    await context.setOffline(false);
    await expect(page.getByTestId('link-state')).toHaveText('Station online', { timeout: 15_000 });
    await expect(page.getByTestId('tracking-number')).toHaveText(next.tracking, { timeout: 15_000 });
    await expect.poll(async () => (await station.api.getPackage(s.accountId, s.packageId)).status, { timeout: 15_000 }).toBe('received');
    await expect(page.getByTestId('held-scan')).toHaveCount(0);
    await shot('held-scan-opened');

    const pkg = await station.api.getPackage(s.accountId, s.packageId);
    expect(pkg).toMatchObject({ status: 'received', processor_id: s.operator.id });
    expect(pkg.line_items.map((i) => [i.quantity, i.condition])).toEqual([
      [1, 'good'],
      [1, 'damaged'],
      [1, 'like_new'],
    ]);
    expect((await station.api.getPackage(next.accountId, next.packageId)).status).toBe('delivered');

    // Reloaded online, the page starts at the scan screen (the package opens fresh when scanned) and holds nothing.
    await page.reload();
    await expect(page.getByTestId('link-state')).toHaveText('Station online');
    await expect(page.locator('main')).toHaveAttribute('data-screen', 'scan');
    await expect(page.getByTestId('held-scans')).toHaveCount(0);
  } finally {
    await browser.close();
    await station.stop();
  }
});

test('the Wi-Fi drops while the station is answering: the scan and the receive it took are not recorded twice', async () => {
  test.setTimeout(120_000);
  const station = await startDemoStation({ args: ['--host', '0.0.0.0'] });
  const browser = await launchTrustingStation(station.dataDir);
  try {
    const s = await scenario(station, 'delivered');
    const context = await browser.newContext(HANDHELD);
    const page = await pairedHandheld(context, (await station.api.createHandheldPairing({ device_name: 'TC52 dock 6' })).pair_url);
    await scan(page, s.operator.badge_code ?? '');
    await expect(page.getByTestId('operator')).toContainText(s.operator.name);
    await scan(page, s.tracking);
    await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);

    // The station gets a request and acts on it; the Wi-Fi drops before its answer reaches the handheld.
    // (The request is passed on by the test's own client, which trusts the station's authority as the handheld does.)
    const toStation = fetchTrusting({ ca: readFileSync(join(station.dataDir, 'tls', 'site-ca.pem'), 'utf8') });
    const answerLost = (pattern: RegExp, method: string) =>
      page.route(
        pattern,
        async (route) => {
          const request = route.request();
          if (request.method() !== method) return route.fallback();
          const headers = await request.allHeaders();
          const reached = await toStation(request.url(), { method, headers, body: request.postData() ?? undefined });
          expect(reached.status).toBeLessThan(300);
          await context.setOffline(true);
          await route.abort('internetdisconnected');
        },
        { times: 1 },
      );
    await answerLost(/\/line_items$/, 'POST');
    await scan(page, s.skus[0]);
    await expect(page.getByTestId('link-state')).toContainText('Station unreachable');
    await tapCondition(page, 'Good');
    expect((await station.api.getPackage(s.accountId, s.packageId)).line_items).toHaveLength(1);
    await context.setOffline(false);
    await expect(page.getByTestId('sync-state')).toHaveText('All changes saved on the station', { timeout: 15_000 });

    await answerLost(new RegExp(`/return_packages/${s.packageId}$`), 'PATCH');
    await page.getByTestId('receive').tap();
    await expect(page.getByTestId('notice')).toContainText('(or scan or tap Receive) again');
    await page.getByTestId('receive').tap();
    await expect(page.getByTestId('notice')).toContainText('waiting for the station');
    expect((await station.api.getPackage(s.accountId, s.packageId)).status).toBe('received');
    await context.setOffline(false);
    await expect(page.getByTestId('pending-package')).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByTestId('notice')).toContainText(`Received ${s.tracking} — 1 unit`);

    const pkg = await station.api.getPackage(s.accountId, s.packageId);
    expect(pkg).toMatchObject({ status: 'received', processor_id: s.operator.id });
    expect(pkg.line_items.map((i) => [i.quantity, i.condition])).toEqual([[1, 'good']]);
  } finally {
    await browser.close();
    await station.stop();
  }
});
