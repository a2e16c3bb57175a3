import { expect, test } from './fixtures.ts';
import { lineRow, openAndSignIn, scenario, waitForQuietSync } from './receiving-helpers.ts';
import { scannerKeys, typeTimed } from './wedge-keyboard.ts';
import type { Page } from '@playwright/test';

/*
 * Where each unit goes, at 1024×600 with a handheld scanner alone: a condition
 * scan shows the unit's disposition and bin at once, in its colour; scanning the bin confirms the
 * put; a wrong bin errs and changes nothing; the receive scan lands it all on the station.
 */

test.use({ viewport: { width: 1024, height: 600 } });

const scan = (page: Page, code: string) => typeTimed(page, scannerKeys(code, 0, 12));

test('a three-line package with dispositions and bins, by scans alone, all in view at 1024×600', async ({ page, demo }) => {
  const s = await scenario(demo, 'delivered');
  const [a, b, c] = s.skus;
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);

  // Like new: restock, its bin, shown at once and in view.
  await scan(page, a);
  await scan(page, 'RSCMD-COND-2');
  const banner = page.getByTestId('disposition');
  await expect(banner).toHaveAttribute('data-disposition', 'restock');
  await expect(banner).toContainText('Restock');
  await expect(banner).toContainText('RESTOCK');
  await expect(banner).toBeInViewport();
  await expect(page.getByTestId('notice')).toContainText('→ Restock, bin RESTOCK');
  // A wrong bin: the error tone, nothing changes.
  await scan(page, 'RTV');
  await expect(page.getByTestId('notice')).toHaveAttribute('data-tone', 'error');
  await expect(page.getByTestId('notice')).toContainText('Wrong bin');
  await expect(banner).toHaveAttribute('data-put', 'no');
  // Its own bin: the put.
  await scan(page, 'RESTOCK');
  await expect(banner).toHaveAttribute('data-put', 'yes');
  await expect(page.getByTestId('notice')).toContainText('Put in RESTOCK');

  // Good: refurbish; damaged and defective: back to the vendor.
  await scan(page, b);
  await scan(page, 'RSCMD-COND-3');
  await expect(banner).toHaveAttribute('data-disposition', 'refurbish');
  await scan(page, 'REFURB');
  await scan(page, c);
  await scan(page, 'RSCMD-COND-5');
  await expect(banner).toHaveAttribute('data-disposition', 'liquidate');
  await scan(page, 'RSCMD-DEFECTIVE');
  await expect(banner).toHaveAttribute('data-disposition', 'return_to_vendor');
  await scan(page, 'RTV');
  await expect(banner).toHaveAttribute('data-put', 'yes');
  await expect(lineRow(page, c).getByTestId('disposition-chip')).toContainText('Return to vendor · RTV ✓');
  await expect(page.getByTestId('receive')).toBeInViewport();

  await waitForQuietSync(page);
  // One of the two units of the second line is missing: receiving asks once.
  await scan(page, 'RSCMD-RECEIVE');
  await expect(page.getByTestId('notice')).toContainText('3 of 4 units scanned');
  await scan(page, 'RSCMD-RECEIVE');
  await expect(page.getByTestId('notice')).toContainText(`Received ${s.tracking}`);

  const pkg = await demo.api.getPackage(s.accountId, s.packageId);
  expect(pkg.status).toBe('received');
  const skuOf = new Map(s.ret.return_line_items.map((l) => [l.id, l.merchant_sku]));
  expect(pkg.line_items.map((li) => [skuOf.get(li.return_line_item_id ?? -1), li.disposition, li.bin, li.put_confirmed_at !== null]).sort()).toEqual(
    [
      [a, 'restock', 'RESTOCK', true],
      [b, 'refurbish', 'REFURB', true],
      [c, 'return_to_vendor', 'RTV', true],
    ].sort(),
  );
  for (const item of pkg.line_items)
    expect(item.tags).toEqual(expect.arrayContaining([`disposition:${item.disposition}`, `bin:${item.bin}`, `unit:${item.unit_id}`]));
});
