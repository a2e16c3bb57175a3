import AxeBuilder from '@axe-core/playwright';
import { freePort } from '../support/fake-zpl-printer.ts';
import { expect, test } from './fixtures.ts';
import { leaveSettings, openAndSignIn, openSettings, scan, scenario } from './receiving-helpers.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * Printing from the browser UI at 1024×600: with the browser as the printer a
 * test print and a unit's label (F5) open as PDFs in a new tab; with a network label printer that is
 * off, F5 queues the label and the print queue (Alt+L) shows it waiting with its error, and a waiting
 * label is cancelled with the keyboard. axe stays clean on the settings and the queue.
 */

test.use({ viewport: { width: 1024, height: 600 } });

test('test print, a unit label by F5, and the print queue of an offline printer', async ({ page, demo }) => {
  test.slow();
  const s = await scenario(demo);
  const line = s.ret.return_line_items[0];
  const item = await demo.api.createLineItem(s.accountId, s.packageId, { return_line_item_id: line?.id ?? null, condition: 'like_new' });
  expect(item.unit_id).toBeTruthy();
  try {
    await openAndSignIn(page, demo, s.operator);

    // The browser is the printer of a new station: the test label opens as a PDF in a tab of its own.
    await openSettings(page, 'printer');
    const form = page.getByTestId('printer-settings');
    await expect(form.getByRole('radio', { name: 'Browser (PDF)' })).toBeChecked();
    const testTab = page.waitForEvent('popup');
    await form.getByTestId('printer-test').click();
    expect((await testTab).url()).toMatch(/^blob:/);
    await expect(page.getByTestId('pdf-link')).toContainText('Test label');
    const violations = (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      violations.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary ?? ''})`).join('; ')}`),
      'settings',
    ).toEqual([]);
    await page.getByTestId('pdf-link').getByRole('button', { name: 'Close' }).click();

    // At the dock: the unit has its id, F5 opens its label.
    await page.keyboard.press('Escape');
    await scan(page, s.tracking);
    await expect(page.getByTestId('print-label')).toContainText(item.unit_id ?? '');
    const labelTab = page.waitForEvent('popup');
    await page.keyboard.press('F5');
    expect((await labelTab).url()).toMatch(/^blob:/);
    await expect(page.getByTestId('pdf-link')).toContainText(`Label ${item.unit_id}`);
    await page.getByTestId('pdf-link').getByRole('button', { name: 'Close' }).click();

    // A unit scanned just now: F5 waits for the station's answer to the scan, then prints its label.
    await scan(page, s.skus[1]);
    await page.keyboard.press('2');
    const newTab = page.waitForEvent('popup');
    await page.keyboard.press('F5');
    expect((await newTab).url()).toMatch(/^blob:/);
    const fresh = (await demo.api.getPackage(s.accountId, s.packageId)).line_items.find((li) => li.return_line_item_id === s.ret.return_line_items[1]?.id);
    expect(fresh?.unit_id).toMatch(/^RS-/);
    await expect(page.getByTestId('pdf-link')).toContainText(`Label ${fresh?.unit_id}`);
    await expect(page.getByTestId('print-label')).toContainText(fresh?.unit_id ?? '');
    await page.getByTestId('pdf-link').getByRole('button', { name: 'Close' }).click();
    await page.keyboard.press('ArrowUp'); // back to the first unit
    await expect(page.getByTestId('print-label')).toContainText(item.unit_id ?? '');

    // A network label printer that does not answer: F5 queues the label, and it waits. Printers are a supervisor's.
    await signInSupervisor(page);
    await openSettings(page, 'printer');
    await form.getByRole('radio', { name: 'Network label printer (ZPL)' }).check();
    await form.getByTestId('printer-host').fill('127.0.0.1');
    await form.getByTestId('printer-port').fill(String(await freePort()));
    await form.getByTestId('printer-save').click();
    await expect(page.getByTestId('printer-state')).toHaveText(/^Printer saved/);
    await leaveSettings(page);
    await page.getByTestId('scan-field').focus();
    await page.keyboard.press('F5');
    // Its label was made before (in the browser, recorded on the station): this one is a reprint, and it waits.
    await expect(page.getByTestId('notice')).toContainText(/Reprint of .+ queued for the label printer 127\.0\.0\.1/);

    await page.keyboard.press('Alt+L');
    const queue = page.getByTestId('print-queue');
    await expect(queue.getByTestId('print-job').first()).toContainText(/Failed \d+× — waiting/);
    await expect(queue.getByTestId('print-job').first()).toContainText(item.unit_id ?? '');
    // The header says so too (checked by axe with the rest of the page).
    await expect(page.getByTestId('print-indicator')).toContainText('1 label waiting');
    const axe = (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      axe.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary ?? ''})`).join('; ')}`),
      'print queue',
    ).toEqual([]);
    // Cancelled with the keyboard alone.
    const cancel = queue.getByRole('button', { name: /^Cancel job/ }).first();
    for (let i = 0; i < 40 && !(await cancel.evaluate((el) => el.matches(':focus'))); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(queue.getByText(/^Cancelled: /)).toBeVisible();
    await expect(queue.getByTestId('print-queue-empty')).toBeVisible();
  } finally {
    await demo.api.updateStationSettings({ labels: { printer: { kind: 'browser' }, package_slip: false } });
  }
});
