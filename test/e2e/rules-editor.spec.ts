import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures.ts';
import { openAndSignIn, scan, scenario } from './receiving-helpers.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * The disposition rules screen, by keyboard at 1024×600: opened from the station
 * settings, a rule's bin changed, a rule the others always catch refused beside it (with nothing typed
 * lost), fixed and saved; the dock then puts the unit in the new bin at once.
 */

test.use({ viewport: { width: 1024, height: 600 } });

test('a supervisor changes a bin, is refused a shadowed rule beside it, fixes it, saves; the dock uses the new bin', async ({ page, demo }) => {
  test.slow();
  const kept = await demo.api.dispositionRules();
  try {
    const s = await scenario(demo, 'delivered');
    await openAndSignIn(page, demo, s.operator);
    // The rules are a supervisor's: badge and PIN first.
    await signInSupervisor(page);

    // Settings → Disposition rules, by keyboard.
    await page.getByTestId('settings-button').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Alt+3');
    await page.getByTestId('disposition-rules-link').focus();
    await page.keyboard.press('Enter');
    const screen = page.getByTestId('rules-screen');
    await expect(screen).toBeVisible();
    const rows = screen.getByTestId('rule-row');
    await expect(rows).toHaveCount(kept.rules.length);
    await expect(rows.first().getByTestId('rule-name')).toBeFocused();
    await expect(page.getByTestId('rules-table')).toBeInViewport();
    await expect(page.getByTestId('rules-save')).toBeInViewport({ ratio: 1 });

    // Rule 1 (like new, not defective → restock) now goes to A-12.
    const firstBin = rows.first().getByTestId('rule-bin');
    await firstBin.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('A-12');
    // A rule for any item at the end: the rules before it catch every item, and it has no bin.
    await page.getByTestId('rules-add').focus();
    await page.keyboard.press('Enter');
    await expect(rows).toHaveCount(kept.rules.length + 1);
    const added = rows.last();
    await added.getByTestId('rule-name').fill('catch-all');
    await page.getByTestId('rules-save').focus();
    await page.keyboard.press('Enter');

    const n = kept.rules.length + 1;
    await expect(page.getByTestId('rules-refusals')).toContainText(`Rule ${n}, bin: Give a bin code.`);
    await expect(screen.locator(`[data-testid="rule-error"][data-rule="${n}"]`)).toContainText(/never applies/i);
    await expect(added.getByTestId('rules-field-error')).toHaveText('Give a bin code.');
    await expect(added.getByTestId('rule-bin')).toHaveAttribute('aria-invalid', 'true');
    await expect(firstBin).toHaveValue('A-12');
    await expect(added.getByTestId('rule-name')).toHaveValue('catch-all');
    expect((await demo.api.dispositionRules()).rules[0]?.bin).toBe(kept.rules[0]?.bin);
    const violations = (await new AxeBuilder({ page }).include('[data-testid="rules-screen"]').analyze()).violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((x) => x.target.join(' ')).join(', ')}`)).toEqual([]);
    const overflow = await page.evaluate(() => {
      const root = (globalThis as unknown as { document: { documentElement: { scrollHeight: number; clientHeight: number } } }).document.documentElement;
      return root.scrollHeight - root.clientHeight;
    });
    expect(overflow, 'the page itself scrolls').toBeLessThanOrEqual(0);

    // Fixed: the catch-all deleted, saved.
    await added.getByTestId('rule-delete').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('rules-save').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('rules-saved')).toContainText(`Saved: ${kept.rules.length} rules`);
    await expect(page.getByTestId('rules-refusals')).toHaveCount(0);
    expect((await demo.api.dispositionRules()).rules[0]?.bin).toBe('A-12');

    // A change not saved: leaving (here Alt+S) asks first and keeps what was typed; a second try (Esc) leaves without it.
    await firstBin.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('NOT-KEPT');
    await page.keyboard.press('Alt+S');
    await expect(page.getByTestId('rules-unsaved')).toContainText('not saved');
    await expect(screen).toBeVisible();
    await expect(firstBin).toHaveValue('NOT-KEPT');
    await expect(firstBin).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(screen).toHaveCount(0);
    expect((await demo.api.dispositionRules()).rules[0]?.bin).toBe('A-12');

    // Back again, nothing changed: Esc goes back to the dock at once, and the dock uses the new bin.
    await page.getByTestId('settings-button').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Alt+3');
    await page.getByTestId('disposition-rules-link').focus();
    await page.keyboard.press('Enter');
    await expect(firstBin).toHaveValue('A-12');
    await page.keyboard.press('Escape');
    await expect(screen).toHaveCount(0);
    await expect(page.getByTestId('scan-field')).toBeFocused();
    await scan(page, s.tracking);
    await expect(page.getByTestId('tracking-number')).toHaveText(s.tracking);
    await scan(page, s.skus[0]);
    await scan(page, 'RSCMD-COND-2');
    const banner = page.getByTestId('disposition');
    await expect(banner).toHaveAttribute('data-disposition', 'restock');
    await expect(banner).toHaveAttribute('data-bin', 'A-12');
  } finally {
    await demo.api.updateDispositionRules({ dispositions: kept.dispositions, rules: kept.rules });
  }
});
