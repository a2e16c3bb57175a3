import type { Page } from '@playwright/test';
import { manualReturnBody, returnLine } from '../support/manual-return.ts';
import { expect, test } from './fixtures.ts';
import { firstAccount, leaveSettings, lineRow, openAndSignIn, openSettings, uid, waitForQuietSync } from './receiving-helpers.ts';
import { scannerKeys, typeTimed } from './wedge-keyboard.ts';
import type { DemoStation } from './fixtures.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * A key pressed by hand just before a scan never spoils it, typed with real timings: a keyboard-wedge
 * scanner types a key every 10–30 ms, a person every 60–80 ms or slower. Codes start with digits, the
 * condition keys, so a glued key or a scan taken for a condition would show.
 */

const SCANNER_MS = 15;

/** A wedge scanner: the code at scanner pace, then Enter. */
async function wedgeScan(page: Page, code: string, gapMs = SCANNER_MS): Promise<void> {
  await typeTimed(page, scannerKeys(code, 0, gapMs));
}

/** A key pressed by hand `leadMs` before a scan at `gapMs` a key. */
async function keyThenScan(page: Page, key: string, leadMs: number, code: string, gapMs = SCANNER_MS): Promise<void> {
  await typeTimed(page, [{ key, atMs: 0 }, ...scannerKeys(code, leadMs, gapMs)]);
}

async function digitScenario(demo: DemoStation) {
  const tag = uid();
  const accountId = await firstAccount(demo.api);
  const skus = [`2${tag}-WBN-01`, `3${tag}-LBT-90`, `5${tag}-MUG-07`] as const;
  const ret = await demo.api.createReturn(
    manualReturnBody({
      account_id: accountId,
      email: `timing-${tag.toLowerCase()}@example.com`,
      return_line_items: skus.map((sku) => returnLine(sku, 2, { name: `Item ${sku}` })),
    }),
  );
  const tracking = `TIM${tag}`;
  const pkg = await demo.api.createPackage(accountId, { return_id: ret.id, tracking_number: tracking, status: 'delivered' });
  const operator = await demo.api.createOperator({ name: `Timing ${tag}`, badge_code: `TIMING-${tag}` });
  const skuOfLine = new Map(ret.return_line_items.map((l) => [l.id, l.merchant_sku]));
  return { accountId, skus, tracking, packageId: pkg.id, operator, skuOfLine };
}

async function itemsOnStation(demo: DemoStation, s: { accountId: number; packageId: number; skuOfLine: Map<number, string> }) {
  const pkg = await demo.api.getPackage(s.accountId, s.packageId);
  return pkg.line_items.map((li) => [s.skuOfLine.get(li.return_line_item_id ?? -1) ?? li.barcode, li.quantity, li.condition]).sort();
}

test('timing mode: a condition key pressed just before a scan sets the condition and leaves the scan whole', async ({ page, demo }) => {
  const s = await digitScenario(demo);
  const [a, b, c] = s.skus;
  await openAndSignIn(page, demo, s.operator);
  await wedgeScan(page, s.tracking);
  await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);

  // Scans that start with condition digits are items, never conditions.
  await wedgeScan(page, a);
  await expect(lineRow(page, a).getByTestId('line-here')).toHaveText('1');
  await expect(lineRow(page, a)).toContainText('Not set');

  // 2 pressed by hand 60 ms before the next scan (a quick person): the condition goes to the item selected then.
  await keyThenScan(page, '2', 60, b);
  await expect(lineRow(page, b).getByTestId('line-here')).toHaveText('1');
  await expect(lineRow(page, a)).toContainText('Like new');
  await expect(lineRow(page, b)).toContainText('Not set');
  // The held 2 showed a's disposition at once; b, selected now, has none (no preview left behind).
  await expect(page.getByTestId('disposition')).toHaveCount(0);

  // 3 pressed, then a scan a moment later (the hold has run out): condition set, scan whole.
  await keyThenScan(page, '3', 120, c, 25);
  await expect(lineRow(page, c).getByTestId('line-here')).toHaveText('1');
  await expect(lineRow(page, b)).toContainText('Good');

  // A slower scanner (30 ms a key) right behind a key pressed by hand (≈ 80 ms).
  await keyThenScan(page, '5', 80, a, 30);
  await expect(lineRow(page, a).getByTestId('line-here')).toHaveText('2');
  await expect(lineRow(page, c)).toContainText('Damaged');
  await expect(lineRow(page, a)).toContainText('Like new');
  // The second a is a unit of its own, selected and not inspected: no condition, so no disposition.
  await expect(page.getByTestId('disposition')).toHaveCount(0);

  await expect(page.getByTestId('unexpected-row')).toHaveCount(0);
  await waitForQuietSync(page);
  expect(await itemsOnStation(demo, s)).toEqual(
    [
      [a, 1, 'like_new'],
      [a, 1, null],
      [b, 1, 'good'],
      [c, 1, 'damaged'],
    ].sort(),
  );
});

test('timing mode: a stray key before a scan on the scan screen is not glued to the tracking number', async ({ page, demo }) => {
  const s = await digitScenario(demo);
  await openAndSignIn(page, demo, s.operator);
  // Nothing to pick with 7 on the scan screen: it is text, and a scan follows it.
  await keyThenScan(page, '7', 90, s.tracking);
  await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);
  await expect(page.getByTestId('scan-field')).toHaveValue('');
});

test('timing mode: a tracking number typed by hand is still one code', async ({ page, demo }) => {
  const s = await digitScenario(demo);
  await openAndSignIn(page, demo, s.operator);
  await typeTimed(page, scannerKeys(s.tracking, 0, 90));
  await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);
});

test('prefix/suffix mode: what the scanner frames is a scan, every other key is typed by hand', async ({ page, demo }) => {
  const s = await digitScenario(demo);
  const [a, b] = s.skus;
  await openAndSignIn(page, demo, s.operator);
  await signInSupervisor(page);
  await openSettings(page);
  await page.getByTestId('scanner-prefix').fill('F12');
  await page.getByTestId('scanner-suffix').fill('Enter');
  await page.getByTestId('scanner-save').click();
  await expect(page.getByTestId('scanner-framing-state')).toContainText('between F12 and Enter');
  await leaveSettings(page);
  // The setting belongs to the station, not to this browser: the station holds it, another terminal
  // (its own browser profile) shows it, and it survives a reload.
  expect((await demo.api.stationSettings()).scanner).toEqual({ prefix: 'F12', suffix: 'Enter' });
  const otherTerminal = await page.context().browser()?.newContext();
  if (otherTerminal) {
    const other = await otherTerminal.newPage();
    await openAndSignIn(other, demo, s.operator);
    await openSettings(other);
    await expect(other.getByTestId('scanner-prefix')).toHaveValue('F12');
    await otherTerminal.close();
  }
  await page.reload();
  await expect(page.getByTestId('scan-field')).toBeFocused();

  const framedScan = (code: string) => typeTimed(page, [{ key: 'F12', atMs: 0 }, ...scannerKeys(code, 15)]);
  await framedScan(s.tracking);
  await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);
  await framedScan(a);
  await expect(lineRow(page, a).getByTestId('line-here')).toHaveText('1');
  // A key pressed the very instant before a scan: still a condition, and the scan is whole.
  await typeTimed(page, [{ key: '2', atMs: 0 }, { key: 'F12', atMs: 5 }, ...scannerKeys(b, 20)]);
  await expect(lineRow(page, b).getByTestId('line-here')).toHaveText('1');
  await expect(lineRow(page, a)).toContainText('Like new');
  // A lone key is held with a framing scanner too (a code typed by hand starts with digits): Enter does it.
  await page.keyboard.press('4');
  await page.keyboard.press('Enter');
  await expect(lineRow(page, b)).toContainText('Fair');
  // A scan into the notes box is still an item scan; fast typing there stays notes.
  await page.getByLabel('Notes').focus();
  await framedScan(b);
  await expect(lineRow(page, b).getByTestId('line-here')).toHaveText('2');
  await expect(page.getByLabel('Notes')).toHaveValue('');
  await page.getByLabel('Notes').focus();
  await typeTimed(
    page,
    [...'box torn'].map((key, i) => ({ key, atMs: i * 10 })),
  );
  await expect(page.getByLabel('Notes')).toHaveValue('box torn');

  await expect(page.getByTestId('unexpected-row')).toHaveCount(0);
  await waitForQuietSync(page);
  expect(await itemsOnStation(demo, s)).toEqual(
    [
      [a, 1, 'like_new'],
      // The second b is a unit of its own, never given a condition (none is copied from the first).
      [b, 1, 'fair'],
      [b, 1, null],
    ].sort(),
  );
});
