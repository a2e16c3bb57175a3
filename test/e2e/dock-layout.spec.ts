import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { firstAccount, lineRow, scan, uid } from './receiving-helpers.ts';

/*
 * The dock screen at the sizes of dock terminals: everything a worker needs — the scan field, the
 * package's lines (or the selected one, scrolled), the selected item's condition panel, the receive
 * action and the key legend — is on screen without scrolling the page. Screenshots of the main
 * screens at both sizes are kept as reviewable baselines (dock-layout.spec.ts-snapshots/).
 */

const SIZES = [
  { name: '1366x768', width: 1366, height: 768 },
  { name: '1024x600', width: 1024, height: 600 },
] as const;

const SKUS = ['CUP', 'PLATE', 'BOWL', 'FORK', 'KNIFE', 'SPOON'].map((s) => `LAYOUT-${s}`);

for (const size of SIZES) {
  test.describe(`at ${size.name}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('a six-line package: scan field, every line, condition panel, receive and legend are all in view', async ({ page, demo }) => {
      const tag = uid();
      const account = await firstAccount(demo.api);
      const ret = await demo.api.createReturn({
        account_id: account,
        email: 'layout@example.com',
        receive_by: '2030-01-31',
        total_price: 120,
        currency: 'EUR',
        weight: 2000,
        weight_unit: 'g',
        reason_of_return: 'Changed mind',
        length: 40,
        width: 30,
        height: 20,
        dimension_unit: 'cm',
        return_line_items: SKUS.map((sku, i) => ({
          quantity: 1 + (i % 2),
          unreceived_quantity: 1 + (i % 2),
          name: `Tableware ${sku.slice(7).toLowerCase()}`,
          price: 20,
          currency: 'EUR',
          merchant_sku: `${sku}-${tag}`,
        })),
      });
      const tracking = `LAYOUT${tag}`;
      await demo.api.createPackage(account, { return_id: ret.id, tracking_number: tracking });
      const operator = await demo.api.createOperator({ name: `Layout ${tag}`, badge_code: `BADGE-L${tag}` });

      await page.goto(demo.uiUrl);
      await expect(page.getByTestId('scan-field')).toBeFocused();
      await expect(page.getByTestId('key-legend')).toBeInViewport({ ratio: 1 });
      await scan(page, operator.badge_code ?? '');
      await expect(page.getByTestId('operator')).toContainText(operator.name);
      await expect(page.getByTestId('key-legend')).toBeInViewport({ ratio: 1 });

      await scan(page, tracking);
      await expect(page.getByTestId('tracking-number')).toHaveText(tracking);
      await scan(page, `${SKUS[5]}-${tag}`);
      await expect(lineRow(page, `${SKUS[5]}-${tag}`).getByTestId('line-here')).toHaveText('1');

      await expectPageDoesNotScroll(page);
      await expectColumnHeadsFit(page);
      for (const id of ['scan-field', 'condition-panel', 'receive', 'key-legend']) await expect(page.getByTestId(id), id).toBeInViewport({ ratio: 1 });
      // Every line is visible, or at least the selected one (scrolled into view within the list).
      // (0.98, not 1: a row's box may end a fraction of a pixel past its scroll box.)
      const selected = lineRow(page, `${SKUS[5]}-${tag}`);
      await expect(selected).toBeInViewport({ ratio: 0.98 });
      if (size.height >= 768) for (const sku of SKUS) await expect(lineRow(page, `${sku}-${tag}`), sku).toBeInViewport({ ratio: 0.98 });

      // A second scan of the item is a unit of its own, in its own row: selected and brought into view.
      await scan(page, `${SKUS[5]}-${tag}`);
      await expect(page.getByTestId('unit-row')).toBeInViewport({ ratio: 0.98 });

      await expect(page).toHaveScreenshot(`package-${size.name}.png`, {
        mask: [
          page.getByTestId('tracking-number'),
          page.locator('.return-facts'),
          page.locator('.sku'),
          page.getByTestId('operator'),
          page.locator('.count'),
          page.getByTestId('station-version'),
          page.getByTestId('notice'),
          page.locator('.link-state'),
        ],
        maxDiffPixelRatio: 0.02,
      });
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('scan-field')).toBeInViewport({ ratio: 1 });
      await expect(page).toHaveScreenshot(`scan-${size.name}.png`, {
        mask: [
          page.getByTestId('operator'),
          page.locator('.count'),
          page.getByTestId('station-version'),
          page.getByTestId('notice'),
          page.locator('.link-state'),
          page.locator('.station-work'),
        ],
        maxDiffPixelRatio: 0.02,
      });
    });
  });
}

/** Every head of the line table shows its whole word ("Expected", "Before", …), none cut off. */
async function expectColumnHeadsFit(page: Page): Promise<void> {
  const heads = page.getByTestId('lines').locator('thead th');
  for (const head of await heads.all()) {
    const { text, overflow } = await head.evaluate((el) => ({ text: el.textContent ?? '', overflow: el.scrollWidth - el.clientWidth }));
    expect(overflow, `the column head "${text}" is cut off`).toBeLessThanOrEqual(0);
  }
}

async function expectPageDoesNotScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollHeight: number; clientHeight: number } } }).document.documentElement;
    return root.scrollHeight - root.clientHeight;
  });
  expect(overflow, 'the page itself scrolls').toBeLessThanOrEqual(0);
}
