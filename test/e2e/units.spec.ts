import type { Page } from '@playwright/test';
import type { PackageLineItem } from '#shared/api/line-items.ts';
import type { DemoStation } from './fixtures.ts';
import { expect, test } from './fixtures.ts';
import { lineRow, openAndSignIn, scan, scenario, type Scenario, waitForQuietSync } from './receiving-helpers.ts';

/*
 * Each unit its own (docs/decisions/units.md) at the dock, driven by the wedge keyboard: the same
 * SKU scanned twice is two units, each with its own condition (the second unset until given),
 * disposition, bin, unit id and put; + adds a unit, − takes one off unless it was put. Checked against
 * what the station recorded, with who set each condition and who put each unit.
 */

const unitRow = (page: Page, sku: string) => page.locator(`[data-testid="unit-row"][data-sku="${sku}"]`);

test('the same item scanned twice is two units, each inspected and put on its own', async ({ page, demo }) => {
  const s = await scenario(demo, 'delivered');
  const [a, b, c] = s.skus;
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  // Each unit: scanned, given its condition, put in the bin it shows.
  await scan(page, a);
  await page.keyboard.press('1');
  await page.keyboard.press('Enter');
  await scan(page, 'RESTOCK');
  await expect(page.getByTestId('notice')).toContainText('Put in RESTOCK');
  await scan(page, b);
  await page.keyboard.press('2'); // like new
  await page.keyboard.press('Enter');
  await expect(lineRow(page, b)).toContainText('Like new');
  // The second unit: a row of its own, selected, its condition not set (nothing copied from the first).
  await scan(page, b);
  await expect(lineRow(page, b).getByTestId('line-here')).toHaveText('2');
  await expect(unitRow(page, b)).toHaveCount(1);
  await expect(unitRow(page, b)).toHaveAttribute('aria-selected', 'true');
  await expect(unitRow(page, b)).toContainText('Not set');
  await expect(lineRow(page, b)).toContainText('Like new');
  await page.keyboard.press('5'); // damaged
  await page.keyboard.press('Enter');
  await expect(unitRow(page, b)).toContainText('Damaged');
  await expect(lineRow(page, b)).toContainText('Like new');
  // Its bin scanned: the put of this unit only.
  await scan(page, 'LIQUIDATE');
  await expect(page.getByTestId('notice')).toContainText('Put in LIQUIDATE');
  await scan(page, c);
  await page.keyboard.press('3');
  await page.keyboard.press('Enter');
  await scan(page, 'REFURB');
  await expect(page.getByTestId('notice')).toContainText('Put in REFURB');
  // The first unit of b, back in the list (↑), put last.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(lineRow(page, b)).toHaveAttribute('aria-selected', 'true');
  await scan(page, 'RESTOCK');
  await expect(page.getByTestId('notice')).toContainText('Put in RESTOCK');
  await waitForQuietSync(page);
  await page.keyboard.press('F2');
  await expect.poll(async () => (await demo.api.getPackage(s.accountId, s.packageId)).status).toBe('received');

  const pkg = await demo.api.getPackage(s.accountId, s.packageId);
  const lineB = s.ret.return_line_items[1]?.id;
  const units = pkg.line_items.filter((li) => li.return_line_item_id === lineB) as [PackageLineItem, PackageLineItem];
  expect(units.map((u) => [u.quantity, u.condition, u.disposition, u.bin, u.condition_by])).toEqual([
    [1, 'like_new', 'restock', 'RESTOCK', s.operator.id],
    [1, 'damaged', 'liquidate', 'LIQUIDATE', s.operator.id],
  ]);
  expect(units[0].unit_id).toMatch(/^RS-[A-Z0-9]{8}-\d+$/);
  expect(units[1].unit_id).toMatch(/^RS-[A-Z0-9]{8}-\d+$/);
  expect(units[0].unit_id).not.toBe(units[1].unit_id);
  for (const u of units) expect(Date.parse(u.condition_at ?? '')).toBeLessThanOrEqual(Date.parse(pkg.processed_at ?? ''));
  expect(units.map((u) => u.put_by)).toEqual([s.operator.id, s.operator.id]);
  // Each put when it was made: the second unit's before the first's.
  expect(Date.parse(units[1].put_confirmed_at ?? '')).toBeLessThan(Date.parse(units[0].put_confirmed_at ?? ''));
  expect(pkg.line_items).toHaveLength(4);
  expect(pkg.line_items.every((li) => li.quantity === 1)).toBe(true);
});

/** A delivered parcel opened at the dock, one unit of its second item scanned and set to Good (3, Enter). */
async function oneGoodUnitOfB(page: Page, demo: DemoStation): Promise<{ s: Scenario; b: string }> {
  const s = await scenario(demo, 'delivered');
  const b = s.skus[1];
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await scan(page, b);
  await page.keyboard.press('3'); // good
  await page.keyboard.press('Enter');
  return { s, b };
}

test('+ adds a unit of the selected item with its condition unset; − takes one off, but never a unit already put', async ({ page, demo }) => {
  const { s, b } = await oneGoodUnitOfB(page, demo);
  await page.keyboard.press('+');
  await page.keyboard.press('Enter');
  await expect(lineRow(page, b).getByTestId('line-here')).toHaveText('2');
  await expect(unitRow(page, b)).toHaveAttribute('aria-selected', 'true');
  await expect(unitRow(page, b)).toContainText('Not set');
  await page.keyboard.press('1'); // new
  await page.keyboard.press('Enter');
  await scan(page, 'RESTOCK');
  await expect(page.getByTestId('notice')).toContainText('Put in RESTOCK');
  // The unit put is kept: − says why and changes nothing.
  await page.keyboard.press('-');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('notice')).toContainText('was put in its bin');
  await expect(lineRow(page, b).getByTestId('line-here')).toHaveText('2');
  // The first unit, not put, is taken off.
  await page.keyboard.press('ArrowUp');
  await expect(lineRow(page, b)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('-');
  await page.keyboard.press('Enter');
  await expect(lineRow(page, b).getByTestId('line-here')).toHaveText('1');
  await waitForQuietSync(page);

  const pkg = await demo.api.getPackage(s.accountId, s.packageId);
  expect(pkg.line_items.map((li) => [li.return_line_item_id, li.quantity, li.condition, li.bin, li.put_by, li.condition_by])).toEqual([
    [s.ret.return_line_items[1]?.id, 1, 'new', 'RESTOCK', s.operator.id, s.operator.id],
  ]);
});

test('− keeps a unit whose label was made on another terminal, known after a reload, and the station keeps it too', async ({ page, demo }) => {
  const { s, b } = await oneGoodUnitOfB(page, demo);
  await expect(lineRow(page, b)).toContainText('Good');
  await waitForQuietSync(page);
  // Another terminal prints its label.
  const [unit] = (await demo.api.getPackage(s.accountId, s.packageId)).line_items;
  await demo.api.createUnitLabel(s.accountId, s.packageId, unit?.id ?? 0);
  // This terminal reloads: it learns the label from the station, not from its own memory.
  await page.reload();
  await expect(page.getByTestId('scan-field')).toBeFocused();
  await scan(page, s.tracking);
  await expect(lineRow(page, b)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('-');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('notice')).toContainText(`Not taken off: ${unit?.unit_id} has its label`);
  await expect(lineRow(page, b).getByTestId('line-here')).toHaveText('1');
  await waitForQuietSync(page);
  const pkg = await demo.api.getPackage(s.accountId, s.packageId);
  expect(pkg.line_items.map((li) => [li.id, li.quantity, li.unit_id])).toEqual([[unit?.id, 1, unit?.unit_id]]);
  expect(pkg.line_items[0]?.labelled_at).not.toBeNull();
});

test('a label made on another terminal reaches the open package at once, and − there is refused before anything is sent', async ({ page, demo, browser }) => {
  const { s, b } = await oneGoodUnitOfB(page, demo);
  await expect(lineRow(page, b)).toContainText('Good');
  await waitForQuietSync(page);
  await expect(page.getByTestId('print-label')).toHaveAttribute('data-labelled', 'false');
  // Another terminal opens the same parcel and prints the unit's label (F5).
  const elsewhere = await browser.newContext();
  try {
    const other = await elsewhere.newPage();
    await openAndSignIn(other, demo, s.operator);
    await scan(other, s.tracking);
    await expect(lineRow(other, b)).toHaveAttribute('aria-selected', 'true');
    await other.keyboard.press('F5');
    await expect(other.getByTestId('print-label')).toHaveAttribute('data-labelled', 'true');
  } finally {
    await elsewhere.close();
  }
  // This terminal hears of it from the station's events, without a reopen.
  await expect(page.getByTestId('print-label')).toHaveAttribute('data-labelled', 'true');
  await expect(page.getByTestId('print-label')).toContainText('Labelled');
  const deletes: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'DELETE') deletes.push(request.url());
  });
  await page.keyboard.press('-');
  await page.keyboard.press('Enter');
  const [unit] = (await demo.api.getPackage(s.accountId, s.packageId)).line_items;
  await expect(page.getByTestId('notice')).toContainText(`Not taken off: ${unit?.unit_id} has its label`);
  await expect(lineRow(page, b).getByTestId('line-here')).toHaveText('1');
  await waitForQuietSync(page);
  expect(deletes).toEqual([]);
  const pkg = await demo.api.getPackage(s.accountId, s.packageId);
  expect(pkg.line_items.map((li) => [li.id, li.quantity, li.unit_id, li.labelled_at !== null])).toEqual([[unit?.id, 1, unit?.unit_id, true]]);
});

test('a − sent before the terminal heard of a label made elsewhere is refused by the station, and the unit comes back on screen', async ({ page, demo }) => {
  // This terminal hears nothing of the station's events (its stream answers, then stays quiet for a
  // minute: one that lags behind): it cannot know of the label.
  await page.route('**/events', (route) => route.fulfill({ status: 200, contentType: 'text/event-stream', body: 'retry: 60000\n\n' }));
  const { s, b } = await oneGoodUnitOfB(page, demo);
  await expect(lineRow(page, b)).toContainText('Good');
  await waitForQuietSync(page);
  const [unit] = (await demo.api.getPackage(s.accountId, s.packageId)).line_items;
  await demo.api.createUnitLabel(s.accountId, s.packageId, unit?.id ?? 0);
  await expect(page.getByTestId('print-label')).toHaveAttribute('data-labelled', 'false');
  const refused = page.waitForResponse((response) => response.request().method() === 'DELETE' && response.status() === 409);
  await page.keyboard.press('-');
  await page.keyboard.press('Enter');
  await refused;
  // The station's refusal, said plainly; the unit is back, selected, with its condition and its label.
  await expect(page.getByTestId('notice')).toContainText(`Not taken off: ${unit?.unit_id} has its label, made on another terminal. It is back on the list.`);
  await expect(lineRow(page, b).getByTestId('line-here')).toHaveText('1');
  await expect(lineRow(page, b)).toContainText('Good');
  await expect(lineRow(page, b)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('print-label')).toHaveAttribute('data-labelled', 'true');
  await waitForQuietSync(page);
  // Nothing was lost on the station, and a reload shows the same.
  const pkg = await demo.api.getPackage(s.accountId, s.packageId);
  expect(pkg.line_items.map((li) => [li.id, li.quantity, li.condition, li.unit_id])).toEqual([[unit?.id, 1, 'good', unit?.unit_id]]);
  await page.reload();
  await expect(page.getByTestId('scan-field')).toBeFocused();
  await scan(page, s.tracking);
  await expect(lineRow(page, b).getByTestId('line-here')).toHaveText('1');
  await expect(page.getByTestId('print-label')).toHaveAttribute('data-labelled', 'true');
});
