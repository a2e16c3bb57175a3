import type { Page } from '@playwright/test';
import type { PackageLineItem } from '#shared/api/line-items.ts';
import { luhnValid } from '#shared/serials.ts';
import { expect, test } from './fixtures.ts';
import { openAndSignIn, scan, scenario, type Scenario, waitForQuietSync } from './receiving-helpers.ts';
import { typedKeys, typeTimed } from './wedge-keyboard.ts';
import type { DemoStation } from './fixtures.ts';

/*
 * Serial numbers at the dock (docs/decisions/serials.md), by the wedge keyboard: after an item whose
 * SKU needs its serial the dock asks for it; a bad IMEI is refused in words with nothing recorded; a
 * serial another unit has is flagged (the parcel held for review); F2 does not receive while a unit
 * lacks its serial. By scanner alone and by a person typing, at 1024×600, 800×600 and 412×915, checked
 * against what the station recorded.
 */

/** An IMEI no other test uses (the demo station is shared): 14 random digits and their Luhn check digit. */
function newImei(): string {
  const base = Array.from({ length: 14 }, (_, i) => (i === 0 ? 3 : Math.floor(Math.random() * 10))).join('');
  const digit = [...'0123456789'].find((d) => luhnValid(base + d)) ?? '0';
  return base + digit;
}

/** `imei` with a wrong check digit. */
const badCheckDigit = (imei: string) => imei.slice(0, 14) + String((Number(imei[14]) + 1) % 10);

const SIZES = [
  { width: 1024, height: 600 },
  { width: 800, height: 600 },
  { width: 412, height: 915 },
] as const;

/** Item A of the scenario needs its IMEI, B a text serial of 6–20 characters; C none. */
async function withSerialRules(demo: DemoStation): Promise<Scenario> {
  const s = await scenario(demo, 'delivered');
  const [a, b] = s.skus;
  await demo.api.updateStationSettings({
    serial_rules: [
      { sku_pattern: a, kind: 'imei' },
      { sku_pattern: b.replace(/^SKU-/, '*'), kind: 'text', min_length: 6, max_length: 20 },
    ],
  });
  return s;
}

async function itemsOf(demo: DemoStation, s: Scenario): Promise<PackageLineItem[]> {
  return (await demo.api.getPackage(s.accountId, s.packageId)).line_items;
}

const notice = (page: Page) => page.getByTestId('notice');

/** The part is whole inside the screen's width (nothing cut or pushed off at this size). */
async function insideWidth(page: Page, testId: string): Promise<void> {
  const box = await page.getByTestId(testId).boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box).not.toBeNull();
  expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= width + 1, `${testId} inside ${width} px`).toBe(true);
}

for (const size of SIZES) {
  test(`${size.width}×${size.height}: by scanner alone — a serial asked for after the item, a bad IMEI refused, F2 held back, a duplicate flagged`, async ({
    page,
    demo,
  }) => {
    await page.setViewportSize(size);
    // Another parcel already has a unit with the serial this one will bring again.
    const earlier = await withSerialRules(demo);
    const IMEI = [newImei()];
    const BAD_IMEI = badCheckDigit(newImei());
    const dupe = newImei();
    const first = await demo.api.createLineItem(earlier.accountId, earlier.packageId, {
      return_line_item_id: earlier.ret.return_line_items[0]?.id ?? null,
      condition: 'new',
      serial: dupe,
    });
    const s = await withSerialRules(demo);
    const [a, b, c] = s.skus;
    await openAndSignIn(page, demo, s.operator);
    await scan(page, s.tracking);
    await scan(page, a);
    await expect(page.getByTestId('serial-prompt')).toContainText('Scan its IMEI (15 digits)');
    await page.screenshot({ path: test.info().outputPath(`serial-asked-${size.width}.png`) });
    await insideWidth(page, 'serial-prompt');

    // A wrong check digit: refused in words, nothing recorded, still asked for.
    await scan(page, BAD_IMEI);
    await expect(notice(page)).toContainText(`${BAD_IMEI} is not a valid IMEI: its check digit is wrong`);
    await expect(notice(page)).toHaveAttribute('data-tone', 'error');
    await expect(page.getByTestId('serial-prompt')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`serial-bad-imei-${size.width}.png`) });

    // The item after it needs a serial too: F2 before it is given receives nothing.
    await scan(page, IMEI[0] ?? '');
    await expect(page.getByTestId('serial')).toHaveAttribute('data-serial', IMEI[0] ?? '');
    // The same serial again on the same unit: nothing changes (no duplicate).
    await scan(page, IMEI[0] ?? '');
    await expect(notice(page)).toContainText('already: nothing changed');
    await scan(page, b);
    await expect(page.getByTestId('serial-prompt')).toContainText('6–20 characters');
    await page.keyboard.press('F2');
    await expect(notice(page)).toContainText('Not received: a unit needs its serial');
    const laptopSerial = `LT-${s.tracking.slice(2, 10)}`;
    await scan(page, laptopSerial);
    await expect(page.getByTestId('serial')).toHaveAttribute('data-serial', laptopSerial);

    // The third item needs none; a second unit of A brings the serial another parcel has.
    await scan(page, c);
    await expect(page.getByTestId('serial-prompt')).toHaveCount(0);
    await scan(page, a);
    await scan(page, dupe);
    await expect(page.getByTestId('serial')).toHaveAttribute('data-check', 'duplicate');
    await expect(page.getByTestId('serial')).toContainText(`already recorded on unit ${first.unit_id ?? ''} in parcel ${earlier.tracking}`);
    await expect(notice(page)).toContainText('The parcel is held for review.');
    await page.screenshot({ path: test.info().outputPath(`serial-duplicate-${size.width}.png`) });
    await insideWidth(page, 'serial');
    await waitForQuietSync(page);

    // What the station recorded: each serial on its unit and in its tag, the bad IMEI nowhere, the duplicate flagged and held.
    const items = await itemsOf(demo, s);
    expect(items.map((i) => [i.merchant_sku, i.serial, i.serial_check?.result ?? null])).toEqual([
      [a, IMEI[0], 'unique'],
      [b, laptopSerial, 'unique'],
      [c, null, null],
      [a, dupe, 'duplicate'],
    ]);
    for (const item of items) if (item.serial) expect(item.tags).toContain(`serial:${item.serial}`);
    expect(JSON.stringify(items)).not.toContain(BAD_IMEI);
    expect(items[3]?.serial_check?.duplicate_of).toMatchObject({ unit_id: first.unit_id, tracking_number: earlier.tracking });
    expect(items[3]?.disposition).toBe('quarantine');
    const pkg = await demo.api.getPackage(s.accountId, s.packageId);
    expect(pkg.status).toBe('delivered');
  });
}

test('by a person typing: the serial typed into the scan field, a short IMEI refused, the right one recorded', async ({ page, demo }) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  const s = await withSerialRules(demo);
  const [a] = s.skus;
  const IMEI = [newImei()];
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await scan(page, a);
  await expect(page.getByTestId('serial-prompt')).toBeVisible();
  // 120–200 ms a key: a person, not a scanner.
  const person = (i: number) => 120 + ((i * 37) % 80);
  await typeTimed(page, typedKeys('49015420323751', person));
  await expect(notice(page)).toContainText('An IMEI is 15 digits: 49015420323751 has 14.');
  await expect(page.getByTestId('serial-prompt')).toBeVisible();
  await typeTimed(page, typedKeys(IMEI[0] ?? '', person));
  await expect(page.getByTestId('serial')).toHaveAttribute('data-serial', IMEI[0] ?? '');
  await expect(page.getByTestId('serial')).toHaveAttribute('data-check', 'unique');
  await waitForQuietSync(page);
  const [unit] = await itemsOf(demo, s);
  expect(unit).toMatchObject({ merchant_sku: a, serial: IMEI[0], serial_check: { result: 'unique' } });
  expect(unit?.tags).toContain(`serial:${IMEI[0] ?? ''}`);
});
