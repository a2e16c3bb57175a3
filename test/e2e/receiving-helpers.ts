import { randomBytes } from 'node:crypto';
import { scannerKeys, typeTimed } from './wedge-keyboard.ts';
import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';
import type { ApiClient } from '../../shared/api/client.ts';
import type { ReturnRecord } from '../../shared/api/returns.ts';
import type { Operator } from '../../shared/api/station.ts';
import { manualReturnBody, returnLine } from '../support/manual-return.ts';
import type { DemoStation } from './fixtures.ts';

/*
 * Test data made through the API (so each test owns its return, package and operator and never
 * depends on what the demo seed happens to contain), and the moves a dock worker makes.
 */

export const uid = () => randomBytes(4).toString('hex').toUpperCase();

export interface Scenario {
  accountId: number;
  ret: ReturnRecord;
  skus: [string, string, string];
  tracking: string;
  packageId: number;
  operator: Operator;
}

export async function firstAccount(api: ApiClient): Promise<number> {
  const station = await api.station();
  const id = station.accounts[0]?.id;
  if (id === undefined) throw new Error('The demo station has no account.');
  return id;
}

export async function createReturn(
  api: ApiClient,
  accountId: number,
  tag: string,
  quantities: [number, number, number] = [1, 2, 1],
): Promise<{ ret: ReturnRecord; skus: [string, string, string] }> {
  const skus: [string, string, string] = [`SKU-${tag}-A`, `SKU-${tag}-B`, `SKU-${tag}-C`];
  const ret = await api.createReturn(
    manualReturnBody({
      account_id: accountId,
      email: `buyer-${tag.toLowerCase()}@example.com`,
      return_line_items: skus.map((sku, i) => returnLine(sku, quantities[i] ?? 1, { name: `Item ${String.fromCharCode(65 + i)} ${tag}` })),
    }),
  );
  return { ret, skus };
}

/** A three-line return (1, 2 and 1 units) with a package on its way and an operator with a badge. */
export async function scenario(demo: DemoStation, status: 'pending' | 'in_transit' | 'delivered' = 'in_transit'): Promise<Scenario> {
  const tag = uid();
  const accountId = await firstAccount(demo.api);
  const { ret, skus } = await createReturn(demo.api, accountId, tag);
  const tracking = `1Z${tag}0000${tag}`;
  const pkg = await demo.api.createPackage(accountId, { return_id: ret.id, tracking_number: tracking, status });
  const operator = await demo.api.createOperator({ name: `Dock worker ${tag}`, badge_code: `BADGE-${tag}` });
  return { accountId, ret, skus, tracking, packageId: pkg.id, operator };
}

/**
 * Types a code the way a hardware scanner does: a key every 10 ms by the device's clock, then Enter.
 * page.keyboard.type would stamp each key when the loaded test machine got round to it, and a slow
 * first gap makes a leading digit look pressed by hand (a CI run lost the "1" of "1Z…" that way).
 */
export async function scan(page: Page, code: string): Promise<void> {
  await typeTimed(page, scannerKeys(code, 0, 10));
}

/** Opens the UI link and signs in by scanning the badge. */
export async function openAndSignIn(page: Page, demo: DemoStation, operator: Operator): Promise<void> {
  await page.goto(demo.uiUrl);
  await expect(page.getByTestId('link-state')).toHaveText('Station online');
  await expect(page.getByTestId('scan-field')).toBeFocused();
  await scan(page, operator.badge_code ?? '');
  await expect(page.getByTestId('operator')).toContainText(operator.name);
}

/** The number of scans the page has finished handling (all queued scans done). */
export async function waitForQuietSync(page: Page): Promise<void> {
  await expect(page.getByTestId('sync-state')).toHaveText('All changes saved on the station');
}

export function lineRow(page: Page, sku: string) {
  return page.locator(`[data-testid="line-row"][data-sku="${sku}"]`);
}

/** The Settings screen, opened by the header's button. */
export async function openSettings(page: Page, section?: 'station' | 'printer' | 'more' | 'site' | 'scale'): Promise<void> {
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('station-settings')).toBeVisible();
  // One section at a time, under tabs: Station, Printer and labels, Supervisor/workers/rules, Site, Scale.
  if (section) await page.getByTestId(`settings-tab-${section}`).click();
}

/** Esc leaves Settings for the screen it was opened from. */
export async function leaveSettings(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('station-settings')).toHaveCount(0);
}
