import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Page } from '@playwright/test';
import { RENDERER_DIR } from '../../electron/cli/paths.ts';
import { expect, startDemoStation, test } from './fixtures.ts';
import { lineRow, openAndSignIn, scan, scenario } from './receiving-helpers.ts';

/*
 * The dock's offline copy (docs/decisions/offline-dock.md) on a plain dock browser at
 * http://127.0.0.1 (a secure context, like the site's TLS): reloaded with the network down it opens
 * the dock with the package that was open and its held work; after an upgrade of the station the next
 * load runs the new build, says so, and the copy is the new build's.
 */

/** Waits until the page's service worker is active: from then on the page has its copy (a string: the test's types have no DOM). */
const copyKept = (page: Page) =>
  expect.poll(() => page.evaluate<string | undefined>('navigator.serviceWorker.ready.then((r) => r.active?.state)')).toBe('activated');

/** The build the page runs: its entry script's address. */
const runningBuild = (page: Page) => page.evaluate<string>("document.querySelector('script[type=module]').getAttribute('src')");

test.describe('a dock browser at 1024×600', () => {
  test.use({ viewport: { width: 1024, height: 600 } });

  test('reloaded with the network down: the dock opens with the package and its held work; unsigned, it says why nobody can sign in; all sent once when the network is back', async ({
    demo,
    context,
    page,
  }) => {
    test.setTimeout(90_000);
    const s = await scenario(demo, 'delivered');
    await openAndSignIn(page, demo, s.operator);
    await copyKept(page);
    await scan(page, s.tracking);
    await scan(page, s.skus[0]);
    await page.keyboard.press('3');
    await page.keyboard.press('Enter');
    await expect(lineRow(page, s.skus[0])).toContainText('Good');
    await expect(page.getByTestId('sync-state')).toHaveText('All changes saved on the station');

    await context.setOffline(true);
    await scan(page, s.skus[2]);
    await page.reload();
    await expect(page.getByTestId('link-state')).toHaveText('Station unreachable — held 1 change');
    await expect(page.getByTestId('operator')).toContainText(s.operator.name);
    await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);
    await expect(lineRow(page, s.skus[2])).toContainText('1');
    await page.screenshot({ path: test.info().outputPath('dock-reloaded-offline-1024x600.png') });
    await page.setViewportSize({ width: 800, height: 600 });
    await page.screenshot({ path: test.info().outputPath('dock-reloaded-offline-800x600.png') });

    // Signed out while the station is away, the page cannot check a badge: it says so.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.reload();
    await expect(page.getByText('a badge is checked by the station, so signing in waits until it answers')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('dock-sign-in-offline-800x600.png') });

    // The network is back: the held item goes up once, and the worker signs in again by badge.
    await context.setOffline(false);
    await expect(page.getByTestId('link-state')).toHaveText('Station online', { timeout: 15_000 });
    await expect.poll(async () => (await demo.api.getPackage(s.accountId, s.packageId)).line_items.length, { timeout: 15_000 }).toBe(2);
    await scan(page, s.operator.badge_code ?? '');
    await expect(page.getByTestId('operator')).toContainText(s.operator.name);
    const pkg = await demo.api.getPackage(s.accountId, s.packageId);
    const skuOf = new Map(s.ret.return_line_items.map((l) => [l.id, l.merchant_sku]));
    expect(pkg.line_items.map((i) => [skuOf.get(i.return_line_item_id ?? -1), i.quantity, i.condition])).toEqual([
      [s.skus[0], 1, 'good'],
      [s.skus[2], 1, null],
    ]);
  });
});

/**
 * Makes the built UI in `dir` another build, as an upgrade would: the entry script and the chunk that
 * imports it under new hashed names (each naming the other's new name), the page and the service
 * worker's list of files naming them. Returns the new entry's address.
 */
function upgradeBuild(dir: string, entry: string): string {
  const [indexPath, workerPath] = [join(dir, 'index.html'), join(dir, 'service-worker.js')];
  const [index, worker] = [readFileSync(indexPath, 'utf8'), readFileSync(workerPath, 'utf8')];
  const entryFile = basename(entry);
  const importer = readdirSync(join(dir, 'assets')).find((f) => f !== entryFile && readFileSync(join(dir, 'assets', f), 'utf8').includes(entryFile));
  if (!importer) throw new Error(`No chunk of the build imports ${entryFile}.`);
  const renamed = new Map([
    [entryFile, entryFile.replace(/\.js$/, '-next.js')],
    [importer, importer.replace(/\.js$/, '-next.js')],
  ]);
  const rename = (text: string) => [...renamed].reduce((t, [from, to]) => t.split(from).join(to), text);
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  for (const [from, to] of renamed) writeFileSync(join(dir, 'assets', to), rename(readFileSync(join(dir, 'assets', from), 'utf8')));
  const nextIndex = rename(index);
  writeFileSync(indexPath, nextIndex);
  writeFileSync(workerPath, rename(worker).replace(md5(index), md5(nextIndex)));
  return rename(entry);
}

test('after the station is upgraded, the next load runs the new build and says so, and the copy kept offline is the new build', async ({ context, page }) => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'returns-station-upgrade-'));
  // The station serves a copy of the build, which the upgrade changes (the build other tests serve stays as it is).
  const uiDir = mkdtempSync(join(tmpdir(), 'returns-station-ui-'));
  cpSync(RENDERER_DIR, uiDir, { recursive: true });
  const env = { RETURNS_STATION_UI_DIR: uiDir };
  let station = await startDemoStation({ dataDir, env });
  try {
    const s = await scenario(station, 'delivered');
    await openAndSignIn(page, station, s.operator);
    await copyKept(page);
    const before = await runningBuild(page);

    // The upgrade: the station stops, its UI's files become another build, it starts again on the same
    // data and port (the station serves the files it found at its start).
    const port = Number(new URL(station.origin).port);
    await station.stop();
    const upgraded = upgradeBuild(uiDir, before);
    station = await startDemoStation({ dataDir, port, env });

    await page.reload();
    await expect(page.getByTestId('notice')).toContainText('The dock was updated');
    expect(await runningBuild(page)).toBe(upgraded);
    await expect(page.getByTestId('operator')).toContainText(s.operator.name);
    // The new worker takes over and keeps the new build's files in place of the old.
    await expect.poll(() => page.evaluate<boolean>(`caches.match('${upgraded}').then((r) => r !== undefined)`), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.evaluate<boolean>(`caches.match('${before}').then((r) => r !== undefined)`)).toBe(false);

    // Offline, the copy opens the new build; it does not say "updated" again.
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByTestId('link-state')).toContainText('Station unreachable');
    expect(await runningBuild(page)).toBe(upgraded);
    await expect(page.getByTestId('operator')).toContainText(s.operator.name);
    await expect(page.getByText('The dock was updated')).toHaveCount(0);
  } finally {
    await station.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(uiDir, { recursive: true, force: true });
  }
});
