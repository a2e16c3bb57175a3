import { expect, test } from './fixtures.ts';
import { lineRow, openAndSignIn, scan, scenario, waitForQuietSync } from './receiving-helpers.ts';
import { typedKeys, typeTimed } from './wedge-keyboard.ts';

/*
 * What is typed is what was typed: a code typed by hand into the scan field, at a person's pace, is
 * read whole however long the person pauses, even when its first character is a key that does
 * something alone (1 picks the first package in progress, 4 sets a condition). Keys pressed through
 * CDP with the device's time stamps; what counts is what the station recorded.
 */

/** A typist whose gaps wander between 120 and 250 ms. */
const typist = (i: number) => 120 + ((i * 53) % 131);
/** Hunt and peck: a second's look for the key after the first digit, then 300 ms a key. */
const huntAndPeck = (i: number) => (i === 1 ? 1000 : 300);

test('a tracking number typed by hand on the scan screen opens its own package, not the one in progress its first digit numbers', async ({ page, demo }) => {
  const left = await scenario(demo, 'delivered');
  const [typed, pecked] = [await scenario(demo, 'delivered'), await scenario(demo, 'delivered')];
  await openAndSignIn(page, demo, left.operator);
  await scan(page, left.tracking);
  await scan(page, left.skus[0]);
  await expect(lineRow(page, left.skus[0]).getByTestId('line-here')).toHaveText('1');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('in-progress-package')).toHaveCount(1);

  expect(typed.tracking.startsWith('1Z')).toBe(true);
  await typeTimed(page, typedKeys(typed.tracking, typist));
  await expect(page.getByTestId('tracking-number')).toHaveText(typed.tracking);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('scan-field')).toBeFocused();

  // The first digit alone marks the package it would pick, and a second's pause decides nothing.
  await typeTimed(page, [{ key: pecked.tracking.charAt(0), atMs: 0 }]);
  await expect(page.getByTestId('in-progress-package').first()).toHaveAttribute('data-held', '');
  await page.waitForTimeout(1000);
  await expect(page.getByTestId('tracking-number')).toHaveCount(0);
  await typeTimed(
    page,
    typedKeys(pecked.tracking.slice(1), (i) => (i === 0 ? 0 : 300)),
  );
  await expect(page.getByTestId('tracking-number')).toHaveText(pecked.tracking);

  // At a scanner's pace the same holds.
  await page.keyboard.press('Escape');
  await scan(page, typed.tracking);
  await expect(page.getByTestId('tracking-number')).toHaveText(typed.tracking);

  // On the station: the package left in progress has its one item and nothing else; the others none.
  await waitForQuietSync(page);
  const recorded = await demo.api.getPackage(left.accountId, left.packageId);
  expect(recorded.line_items.map((li) => [li.return_line_item_id, li.barcode, li.quantity])).toEqual([[left.ret.return_line_items[0]?.id, null, 1]]);
  for (const other of [typed, pecked]) expect((await demo.api.getPackage(other.accountId, other.packageId)).line_items).toEqual([]);
});

test('an EAN typed by hand inside a package is one unexpected item with the whole code; the selected item keeps its condition', async ({ page, demo }) => {
  const s = await scenario(demo, 'delivered');
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await scan(page, s.skus[0]);
  await page.keyboard.press('2');
  await page.keyboard.press('Enter');
  await expect(lineRow(page, s.skus[0])).toContainText('Like new');

  // 4 alone previews Fair's disposition and says how to go on; Esc takes it back, nothing changed.
  await typeTimed(page, [{ key: '4', atMs: 0 }]);
  await expect(page.getByTestId('disposition')).toHaveAttribute('data-disposition', 'refurbish');
  await expect(page.getByTestId('scan-field')).toHaveAttribute('data-held', '4');
  await expect(lineRow(page, s.skus[0])).toContainText('Like new');
  await typeTimed(page, [{ key: 'Escape', atMs: 0 }]);
  await expect(page.getByTestId('scan-field')).not.toHaveAttribute('data-held', /./);
  await expect(page.getByTestId('disposition')).toHaveAttribute('data-disposition', 'restock');

  await typeTimed(page, typedKeys('4006381333931', typist));
  await expect(page.getByTestId('unexpected-row')).toHaveCount(1);
  await expect(page.getByTestId('unexpected-row')).toContainText('4006381333931');
  await typeTimed(page, typedKeys('5901234123457', huntAndPeck));
  await expect(page.getByTestId('unexpected-row')).toHaveCount(2);
  await expect(page.getByTestId('unexpected-row').nth(1)).toContainText('5901234123457');
  await expect(lineRow(page, s.skus[0])).toContainText('Like new');

  // A condition key then a scan (a person, then the scanner): the key acts on the item selected, the scan is whole.
  await typeTimed(page, [
    { key: '3', atMs: 0 },
    ...[...s.skus[1]].map((key, i) => ({ key, atMs: 300 + i * 12 })),
    { key: 'Enter', atMs: 300 + s.skus[1].length * 12 },
  ]);
  await expect(lineRow(page, s.skus[1]).getByTestId('line-here')).toHaveText('1');
  await expect(page.getByTestId('unexpected-row').nth(1)).toContainText('Good');

  await waitForQuietSync(page);
  const pkg = await demo.api.getPackage(s.accountId, s.packageId);
  const byLine = new Map(s.ret.return_line_items.map((l) => [l.id, l.merchant_sku]));
  expect(
    pkg.line_items.map((li) => [li.return_line_item_id === null ? li.barcode : byLine.get(li.return_line_item_id), li.quantity, li.condition]).sort(),
  ).toEqual(
    [
      [s.skus[0], 1, 'like_new'],
      [s.skus[1], 1, null],
      ['4006381333931', 1, null],
      ['5901234123457', 1, 'good'],
    ].sort(),
  );
});

test('shortcut keys pressed again and again are no code: + + + adds three units, 3 3 sets Good once, 1 2 is refused', async ({ page, demo }) => {
  const s = await scenario(demo, 'delivered');
  const [a] = s.skus;
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await scan(page, a);
  const person = () => 200;
  const unitRows = page.locator(`[data-testid="unit-row"][data-sku="${a}"]`);

  // The parcel of four alike: one scan, + three times, Enter.
  await typeTimed(page, typedKeys('+++', person));
  await expect(unitRows).toHaveCount(3);
  await expect(unitRows.last()).toHaveAttribute('aria-selected', 'true');
  // A worker who thought the first 3 did nothing presses it again: Good, once, on the selected unit.
  await typeTimed(page, typedKeys('33', person));
  await expect(unitRows.last()).toContainText('Good');
  // Two digits are no code and no key: refused in words, nothing recorded.
  await typeTimed(page, typedKeys('12', person));
  await expect(page.getByTestId('notice')).toContainText('12 is not a code');
  await expect(page.getByTestId('unexpected-row')).toHaveCount(0);
  await expect(unitRows.last()).toContainText('Good');
  // − pressed twice takes one unit off (the selected one), not two.
  await page.keyboard.press('ArrowUp');
  await typeTimed(page, typedKeys('--', person));
  await expect(unitRows).toHaveCount(2);

  await waitForQuietSync(page);
  const recorded = await demo.api.getPackage(s.accountId, s.packageId);
  expect(recorded.line_items.map((li) => [li.return_line_item_id, li.barcode, li.quantity, li.condition])).toEqual([
    [s.ret.return_line_items[0]?.id, null, 1, null],
    [s.ret.return_line_items[0]?.id, null, 1, null],
    [s.ret.return_line_items[0]?.id, null, 1, 'good'],
  ]);
});
