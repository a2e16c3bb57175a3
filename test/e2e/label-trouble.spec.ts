import type { Page } from '@playwright/test';
import type { PrintJob } from '#shared/api/printing.ts';
import { freePort } from '../support/fake-zpl-printer.ts';
import { code128On } from '../support/label-barcode.ts';
import type { DemoStation } from './fixtures.ts';
import { expect, test } from './fixtures.ts';
import { openAndSignIn, scan, scenario, type Scenario } from './receiving-helpers.ts';

/*
 * Label trouble at the dock (docs/operator-guide.md, Printers and labels): with a label printer that
 * does not answer (a port nobody listens on), receiving a package says its labels did not print and
 * why, the header keeps saying labels wait and why, and opens the print queue; with the browser as
 * the printer, receiving offers the package's labels as a PDF. Checked against the station's queue.
 */

/** A scenario whose every unit is inspected through the API (each gets a unit id, a disposition and a bin). */
async function inspected(demo: DemoStation): Promise<Scenario & { units: string[] }> {
  const s = await scenario(demo, 'delivered');
  const units: string[] = [];
  for (const line of s.ret.return_line_items) {
    for (let n = 0; n < line.quantity; n += 1) {
      const item = await demo.api.createLineItem(s.accountId, s.packageId, { return_line_item_id: line.id, condition: 'like_new' });
      units.push(item.unit_id ?? '');
    }
  }
  return { ...s, units };
}

/** Opens the package by its tracking number and receives it with F2 (again when the station asks to confirm). */
async function receiveAtDock(page: Page, s: Scenario): Promise<void> {
  await scan(page, s.tracking);
  await expect(page.locator('#package-title')).toContainText(s.tracking);
  const notice = page.getByTestId('notice');
  for (let tries = 0; tries < 3; tries += 1) {
    await page.keyboard.press('F2');
    try {
      await expect(notice).toContainText(new RegExp(`Received ${s.tracking}|${s.tracking} is received`), { timeout: 3000 });
      return;
    } catch {
      // A question before receiving (press F2 again to confirm): asked once more.
    }
  }
  throw new Error(`${s.tracking} was not received: ${await notice.textContent()}`);
}

for (const viewport of [
  { width: 1024, height: 600 },
  { width: 800, height: 600 },
  { width: 412, height: 915 },
]) {
  test(`an offline label printer: receiving says the labels did not print and why; the header says so and opens the queue (${viewport.width}×${viewport.height})`, async ({
    page,
    demo,
  }) => {
    test.slow();
    await page.setViewportSize(viewport);
    const s = await inspected(demo);
    const port = await freePort();
    await demo.api.updateStationSettings({ labels: { printer: { kind: 'zpl_tcp', host: '127.0.0.1', port }, package_slip: false } });
    try {
      await openAndSignIn(page, demo, s.operator);
      await receiveAtDock(page, s);
      const why = `The printer 127.0.0.1 (port ${port}) does not answer`;
      await expect(page.getByTestId('notice')).toContainText(`${s.tracking} is received, but its ${s.units.length} labels did not print: ${why}.`, {
        timeout: 8000,
      });
      // What the station recorded: every unit's label waits, with the reason in words.
      const waiting = (await demo.api.listPrintJobs({ state: ['waiting', 'sending'], per_page: 100 })).data.filter(
        (job: PrintJob) => job.return_package_id === s.packageId,
      );
      expect(waiting.map((job) => job.unit_id).sort()).toEqual([...s.units].sort());
      expect(waiting.some((job) => job.last_error?.startsWith(why))).toBe(true);

      const indicator = page.getByTestId('print-indicator');
      await expect(indicator).toContainText(`${s.units.length} labels waiting`, { timeout: 8000 });
      await expect(indicator).toContainText(why);
      await expect(indicator).toBeInViewport();
      // The indicator fits the page, its reason whole (it wraps rather than running off or being cut).
      const fit = await indicator.evaluate((el) => ({ right: el.getBoundingClientRect().right, cut: el.scrollWidth > el.clientWidth + 1 }));
      expect(fit.right).toBeLessThanOrEqual(viewport.width);
      expect(fit.cut).toBe(false);
      await page.screenshot({ path: test.info().outputPath(`label-trouble-${viewport.width}.png`) });
      await indicator.click();
      await expect(page.getByTestId('print-queue')).toBeVisible();
    } finally {
      await demo.api.updateStationSettings({ labels: { printer: { kind: 'browser' }, package_slip: false } });
    }
  });
}

test("the browser as the printer: receiving offers the package's labels as one PDF", async ({ page, demo }) => {
  test.slow();
  await page.setViewportSize({ width: 1024, height: 600 });
  await demo.api.updateStationSettings({ labels: { printer: { kind: 'browser' }, package_slip: false } });
  const s = await inspected(demo);
  await openAndSignIn(page, demo, s.operator);
  const tabs: string[] = [];
  page.on('popup', (tab) => tabs.push(tab.url()));
  await receiveAtDock(page, s);
  const offer = page.getByTestId('pdf-link');
  await expect(offer).toContainText(`Labels of ${s.tracking}`);
  // Offered, not opened: a tab would take the keyboard, and the next parcel's scan would go into it.
  await scan(page, 'NOT-A-PARCEL-1');
  await expect(page.getByTestId('notice')).toContainText('NOT-A-PARCEL-1');
  expect(tabs).toEqual([]);
  const href = await offer.getByRole('link', { name: 'Open PDF' }).getAttribute('href');
  expect(href).toMatch(/^blob:/);
  // What it offers is the package's labels PDF: one page a unit, the first scanning to the first unit.
  const pdf = new Uint8Array(await (await demo.api.packageLabelsPdf(s.accountId, s.packageId)).arrayBuffer());
  expect(
    Buffer.from(pdf)
      .toString('latin1')
      .match(/\/Type \/Page\b/g),
  ).toHaveLength(s.units.length);
  expect(await code128On(pdf)).toEqual([s.units[0]]);
  // Nothing was queued for a printer: the browser prints them.
  const queued = (await demo.api.listPrintJobs({ per_page: 100 })).data.filter((job: PrintJob) => job.return_package_id === s.packageId);
  expect(queued).toEqual([]);
});
