import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { openAndSignIn, scan, scenario } from './receiving-helpers.ts';

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('axe finds no serious or critical violation on the main screens', async ({ page, demo }) => {
  // Six full axe analyses: ≈ 10 s on a quiet machine, past the 30 s default on a loaded one.
  test.slow();
  const s = await scenario(demo);
  await page.goto(demo.uiUrl);
  await expect(page.getByRole('heading', { name: 'Who is receiving?' })).toBeVisible();
  await expect(page.getByRole('button', { name: new RegExp(s.operator.name) })).toBeVisible();
  expect(await seriousViolations(page), 'sign-in').toEqual([]);

  await scan(page, s.operator.badge_code ?? '');
  await expect(page.getByRole('heading', { name: 'Ready for the next parcel' })).toBeVisible();
  expect(await seriousViolations(page), 'scan').toEqual([]);

  await scan(page, s.tracking);
  await scan(page, s.skus[0]);
  await scan(page, 'NOT-ON-THE-RETURN');
  await expect(page.getByTestId('unexpected-row')).toBeVisible();
  expect(await seriousViolations(page), 'package').toEqual([]);

  await page.keyboard.press('Escape');
  await scan(page, `NOPE${s.tracking}`);
  await expect(page.getByTestId('register-view')).toBeVisible();
  expect(await seriousViolations(page), 'register').toEqual([]);

  await page.keyboard.press('Alt+P');
  await expect(page.getByTestId('package-row').first()).toBeVisible();
  await expect(page.getByTestId('pager')).toContainText('in all');
  expect(await seriousViolations(page), 'packages').toEqual([]);

  await page.keyboard.press('Alt+R');
  await expect(page.getByTestId('return-row').first()).toBeVisible();
  expect(await seriousViolations(page), 'returns').toEqual([]);
});

test('after sign-in the whole station works without a mouse: focus is always on the scan field', async ({ page, demo }) => {
  const s = await scenario(demo);
  await openAndSignIn(page, demo, s.operator);
  await scan(page, s.tracking);
  await scan(page, s.skus[0]);
  await page.getByRole('button', { name: /Good/ }).click();
  await expect(page.getByTestId('scan-field')).toBeFocused();
  // Typing while focus is on a button lands in the scan field.
  await page.getByRole('button', { name: /Undo/ }).focus();
  await scan(page, s.skus[2]);
  await expect(page.getByTestId('line-here').nth(2)).toHaveText('1');
});
