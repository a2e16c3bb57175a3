import type { Browser, Page } from '@playwright/test';
import type { startDemoStation } from './fixtures.ts';
import { openAndSignIn, openSettings } from './receiving-helpers.ts';

/** The three screens a site's Settings are photographed at: a dock's two and a handheld's. */
export const SITE_SIZES = [
  { width: 1024, height: 600 },
  { width: 800, height: 600 },
  { width: 412, height: 915 },
] as const;

type Station = Awaited<ReturnType<typeof startDemoStation>>;

/** A new page at `viewport`, a demo worker signed in by badge, on Settings → Site (through the menu on a handheld). */
export async function siteSettings(browser: Browser, station: Station, viewport: { width: number; height: number }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  const worker = (await station.api.listOperators({ per_page: 100 })).data.find((o) => o.badge_code && o.role === 'worker');
  if (!worker) throw new Error('the demo has no worker with a badge');
  await openAndSignIn(page, station, worker);
  if (viewport.width < 600) await page.getByTestId('menu-button').click();
  await openSettings(page, 'site');
  return page;
}
