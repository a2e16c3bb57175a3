import bwipjs from 'bwip-js';
import { expect, test } from './fixtures.ts';
import { lineRow, openAndSignIn, openSettings, scenario, waitForQuietSync } from './receiving-helpers.ts';
import { scannerKeys, typeTimed } from './wedge-keyboard.ts';
import type { Page } from '@playwright/test';

/*
 * A handheld scanner alone is enough: the station prints command barcodes (Settings → Command
 * barcodes), and scanning one does what its key does. Every move below is a scan at a wedge
 * scanner's pace; no key is pressed by hand.
 */

const COMMANDS = ['RECEIVE', 'UNDO', 'COND-1', 'COND-2', 'COND-3', 'COND-4', 'COND-5', 'COND-6', 'DEFECTIVE', 'SPLIT', 'NEXT', 'BACK', 'SIGNOUT'].map(
  (c) => `RSCMD-${c}`,
);

/** The bars of an SVG barcode (its paths' strokes), whatever the markup's serialisation. */
const bars = (svg: string) => [...svg.matchAll(/stroke-width="([\d.]+)" d="([^"]+)"/g)].map((m) => `${m[1]}:${m[2]}`);

const scan = (page: Page, code: string) => typeTimed(page, scannerKeys(code, 0, 12));

test('the command sheet shows every command as a Code 128 barcode of its code, ready to print', async ({ page, demo }) => {
  const s = await scenario(demo, 'delivered');
  await openAndSignIn(page, demo, s.operator);
  await openSettings(page, 'more');
  await page.getByTestId('command-barcodes-link').click();
  const cards = page.getByTestId('command-barcode');
  await expect(cards).toHaveCount(COMMANDS.length);
  expect(await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-code')))).toEqual(COMMANDS);
  // Each picture is exactly what bwip-js draws for the code (what a scanner reads back).
  for (const code of ['RSCMD-RECEIVE', 'RSCMD-COND-5']) {
    const svg = await page.locator(`[data-testid="command-barcode"][data-code="${code}"] .command-svg`).innerHTML();
    const expected = bwipjs.toSVG({ bcid: 'code128', text: code, scale: 3, height: 14, includetext: false, paddingwidth: 10, paddingheight: 6 });
    expect(bars(svg)).toEqual(bars(expected));
    expect(bars(svg).length).toBeGreaterThan(0);
  }
  // On paper only the sheet is printed: no header, scan bar or key legend.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('key-legend')).toBeHidden();
  await expect(page.getByTestId('scan-field')).toBeHidden();
  await expect(cards.first()).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
  // The sheet is left by a scan too.
  await scan(page, 'RSCMD-BACK');
  await expect(page.getByTestId('command-sheet')).toHaveCount(0);
});

test('a worker receives a three-line package with conditions by scans alone', async ({ page, demo }) => {
  const s = await scenario(demo, 'delivered');
  const [a, b, c] = s.skus;
  await openAndSignIn(page, demo, s.operator);

  await scan(page, s.tracking);
  await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);
  await scan(page, a);
  await scan(page, 'RSCMD-COND-2');
  // Each unit of b scanned and given its condition in turn.
  await scan(page, b);
  await scan(page, 'RSCMD-COND-3');
  await scan(page, b);
  await scan(page, 'RSCMD-COND-3');
  await scan(page, c);
  await scan(page, 'RSCMD-COND-5');
  await scan(page, 'RSCMD-DEFECTIVE');
  await expect(lineRow(page, c)).toContainText('Damaged · defective');
  // A mistake, undone by a scan; NEXT moves the selection like ↓.
  await scan(page, c);
  await expect(lineRow(page, c).getByTestId('line-here')).toHaveText('2');
  await scan(page, 'RSCMD-UNDO');
  await expect(lineRow(page, c).getByTestId('line-here')).toHaveText('1');
  await expect(lineRow(page, a)).toContainText('Like new');
  await expect(lineRow(page, b)).toContainText('Good');
  // A command scanned while the notes box has focus is still a command, not notes.
  await page.getByLabel('Notes').focus();
  await scan(page, 'RSCMD-NEXT');
  await expect(page.getByLabel('Notes')).toHaveValue('');
  await expect(page.getByTestId('notice')).toContainText('Selected:');
  await expect(page.getByTestId('unexpected-row')).toHaveCount(0);
  await waitForQuietSync(page);
  // No bin scanned: receiving asks once, a second Receive scan confirms.
  await scan(page, 'RSCMD-RECEIVE');
  await expect(page.getByTestId('notice')).toContainText('not put in their bins');
  await scan(page, 'RSCMD-RECEIVE');
  await expect(page.getByTestId('notice')).toContainText(`Received ${s.tracking}`);
  await expect(page.getByTestId('package-view')).toHaveCount(0);

  const pkg = await demo.api.getPackage(s.accountId, s.packageId);
  expect(pkg).toMatchObject({ status: 'received', processor_id: s.operator.id });
  const skuOf = new Map(s.ret.return_line_items.map((l) => [l.id, l.merchant_sku]));
  expect(pkg.line_items.map((li) => [skuOf.get(li.return_line_item_id ?? -1), li.quantity, li.condition, li.defective]).sort()).toEqual(
    [
      [a, 1, 'like_new', false],
      [b, 1, 'good', false],
      [b, 1, 'good', false],
      [c, 1, 'damaged', true],
    ].sort(),
  );

  // An unknown command says so and records nothing; SIGNOUT signs the worker out.
  await scan(page, 'RSCMD-LAUNCH');
  await expect(page.getByTestId('notice')).toContainText('RSCMD-LAUNCH is not a command this station knows');
  await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'error');
  await scan(page, 'RSCMD-SIGNOUT');
  await expect(page.getByTestId('operator')).toHaveText('Nobody signed in');
  await expect(page.getByTestId('notice')).toContainText(`Signed out: ${s.operator.name}`);
});
