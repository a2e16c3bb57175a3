import { expect, type Page } from '@playwright/test';
import { DEMO_SUPERVISOR } from './fixtures.ts';

/**
 * Signs a supervisor in on this screen by keyboard, as a person does: Alt+U, the badge typed (or
 * scanned) into its field, Tab, the PIN, Enter. Changes to settings, rules, printers, the upstream
 * and the workers are then made with the supervisor's session.
 */
export async function signInSupervisor(page: Page, who: { name: string; badge: string; pin: string } = DEMO_SUPERVISOR): Promise<void> {
  await page.keyboard.press('Alt+U');
  await expect(page.getByTestId('supervisor-dialog')).toBeVisible();
  await expect(page.getByTestId('supervisor-badge')).toBeFocused();
  await page.keyboard.type(who.badge, { delay: 90 });
  await page.keyboard.press('Tab');
  await page.keyboard.type(who.pin, { delay: 90 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('supervisor-state')).toContainText(who.name);
  await expect(page.getByTestId('supervisor-dialog')).toHaveCount(0);
}
