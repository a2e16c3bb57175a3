import { expect, test } from './fixtures.ts';
import { openAndSignIn, scenario } from './receiving-helpers.ts';

/*
 * The supervisor's "Dock today" screen (Alt+D): received per hour and per worker, units by
 * disposition and by bin (puts confirmed), overrides by worker with their reasons, lines to review,
 * parcels waiting and exceptions, from the station's own dock-day API; the day's receipts export as
 * a CSV file; everything fits a dock terminal's screen at 1366×768 and 1024×600.
 */

const SIZES = [
  { name: '1366x768', width: 1366, height: 768 },
  { name: '1024x600', width: 1024, height: 600 },
] as const;

for (const size of SIZES) {
  test.describe(`at ${size.name}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('a receipt with an over-receipt and an override shows under its worker, its bin and disposition, and in the review list; the CSV holds it; all in view', async ({
      page,
      demo,
    }) => {
      const s = await scenario(demo, 'delivered');
      const line = s.ret.return_line_items[0];
      const item = await demo.api.createLineItem(s.accountId, s.packageId, {
        return_line_item_id: line?.id ?? null,
        quantity: (line?.quantity ?? 1) + 2,
        condition: 'new',
      });
      // The worker sends it to quarantine instead (a bin of its own, so this spec's row is known) and scans the bin.
      const bin = `Q-${s.tracking.slice(-8)}`;
      const reason = `Recall ${s.tracking.slice(-4)}`;
      const overridden = await demo.api.updateLineItem(s.accountId, s.packageId, item.id, {
        disposition: 'quarantine',
        bin,
        disposition_reason: reason,
        disposition_by: s.operator.id,
      });
      await demo.api.confirmPut(s.accountId, s.packageId, item.id, { bin });
      await demo.api.updatePackage(s.accountId, s.packageId, { status: 'received', processor_id: s.operator.id });

      // A long day: more exceptions than any panel has room for. They scroll inside their panel.
      for (let i = 0; i < 24; i += 1) {
        const extra = await demo.api.createPackage(s.accountId, { return_id: s.ret.id, tracking_number: `${s.tracking}X${i}`, status: 'in_transit' });
        await demo.api.updatePackage(s.accountId, extra.id, { status: 'exception' });
      }

      await openAndSignIn(page, demo, s.operator);
      await page.keyboard.press('Alt+D');
      await expect(page.getByTestId('supervisor-exceptions')).toContainText(`${s.tracking}X23`);
      const workers = page.getByTestId('supervisor-workers');
      await expect(workers.getByRole('row', { name: s.operator.name })).toContainText('1 pkg');
      await expect(page.getByTestId('supervisor-review')).toContainText(`Over-receipt ${s.skus[0]} — ${(line?.quantity ?? 1) + 2} of ${line?.quantity ?? 1}`);
      await expect(page.getByTestId('supervisor-hour-chart')).toBeVisible();
      await expect(page.getByTestId('supervisor-sync')).toContainText('Sync: off');
      // Units by disposition in the station's names; the bin with its put confirmed; the override under its worker, with why.
      await expect(page.getByTestId('supervisor-dispositions').locator('[data-disposition="quarantine"]')).toContainText('Quarantine');
      await expect(page.getByTestId('supervisor-dispositions').locator('[data-disposition="quarantine"]')).toContainText('overridden');
      const binRow = page.getByTestId('supervisor-bins').getByRole('row', { name: bin });
      await expect(binRow).toContainText(`${item.quantity} units`);
      await expect(binRow).toContainText('✓ put');
      const overrides = page.getByTestId('supervisor-overrides').locator(`[data-operator="${s.operator.id}"]`);
      await expect(overrides).toContainText(s.operator.name);
      await expect(overrides).toContainText(`Quarantine: “${reason}”`);

      // The panels are reached by Tab (and scroll by keys once focused).
      let reached = false;
      for (let i = 0; i < 40 && !reached; i += 1) {
        await page.keyboard.press('Tab');
        reached = await page.getByTestId('supervisor-overrides').evaluate((el) => el === el.ownerDocument.activeElement);
      }
      expect(reached, 'the overrides panel is reached by Tab').toBe(true);

      for (const id of [
        'supervisor-hour-chart',
        'supervisor-dispositions',
        'supervisor-workers',
        'supervisor-bins',
        'supervisor-overrides',
        'supervisor-review',
        'supervisor-waiting',
        'supervisor-exceptions',
        'supervisor-export',
        'key-legend',
      ]) {
        await expect(page.getByTestId(id), id).toBeInViewport({ ratio: 1 });
      }
      const overflow = await page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollHeight: number; clientHeight: number } } }).document.documentElement;
        return root.scrollHeight - root.clientHeight;
      });
      expect(overflow, 'the page itself scrolls').toBeLessThanOrEqual(0);
      // The panels' contents depend on what other specs of this worker's station did (heights too):
      // the kept baseline is the screen's bar, the rest is asserted above to be in view.
      await expect(page.locator('.supervisor-bar')).toHaveScreenshot(`supervisor-${size.name}.png`, {
        // The review list's button says how many parcels other specs left held: its place is kept, not its words.
        mask: [page.getByTestId('supervisor-date'), page.getByTestId('supervisor-reviews')],
        maxDiffPixelRatio: 0.02,
      });

      const download = page.waitForEvent('download');
      await page.getByTestId('supervisor-export').click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^receipts-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = await new Response((await file.createReadStream()) as unknown as ReadableStream).text();
      const row = csv.split('\r\n').find((r) => r.includes(s.tracking));
      expect(row).toContain(`,${s.operator.name},${s.skus[0]},`);
      expect(row).toContain(`,quarantine,${bin},${overridden.unit_id},`);
    });
  });
}

test('a day with nothing received says so; a bad "late after" value is not sent', async ({ page, demo }) => {
  const s = await scenario(demo);
  await openAndSignIn(page, demo, s.operator);
  await page.keyboard.press('Alt+D');
  await page.getByTestId('supervisor-date').fill('2001-01-01');
  await expect(page.getByTestId('supervisor-received')).toContainText('Received: 0 packages, 0 units');
  await expect(page.getByTestId('supervisor-workers')).toContainText('Nothing received yet.');
  await page.getByTestId('supervisor-waiting-minutes').fill('0');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByTestId('supervisor-waiting-minutes').fill('15');
  await expect(page.getByTestId('supervisor-waiting')).toContainText('Waiting over 15 min');
});
