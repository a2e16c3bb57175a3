import { startFakeReturnsService } from '../sync/fake-returns-service.ts';
import { expect, startDemoStation, test } from './fixtures.ts';
import { siteSettings, SITE_SIZES } from './site-settings.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * A hub whose machine is lost (docs/decisions/site-promote.md): on a member, Settings → Site says the
 * hub cannot be asked and offers taking over without it. It asks first, saying what is lost, takes the
 * returns service as the sync screen does, and needs a supervisor. What the member recorded is checked
 * through its API, and that it then syncs with the returns service; the confirmation is photographed
 * at 1024×600, 800×600 and 412×915.
 */

test.setTimeout(240_000);

const SIZES = SITE_SIZES;
const ACCOUNTS = [1001, 1002];

test('a member takes over without its lost hub from Settings → Site, after a confirmation, and syncs with the returns service', async ({ browser }) => {
  const service = await startFakeReturnsService({ accounts: ACCOUNTS });
  const hub = await startDemoStation({ args: ['--host', '0.0.0.0'] });
  const member = await startDemoStation();
  try {
    await member.api.joinHub({ hub_url: hub.origin, code: (await hub.api.createSiteInvite()).code, name: 'Dock 2' });
    await expect.poll(async () => (await member.api.site()).managed?.version ?? null, { timeout: 30_000 }).not.toBeNull();
    // The hub's machine is gone.
    await hub.stop();

    for (const viewport of SIZES) {
      const page = await siteSettings(browser, member, viewport);
      await expect(page.getByTestId('site-takeover-offer')).toContainText('cannot be asked', { timeout: 20_000 });
      await page.getByTestId('site-takeover-lost').click();
      const confirm = page.getByTestId('site-takeover-lost-confirm');
      await expect(confirm).toContainText('is lost with it');
      // Reached by scrolling, whole: not under the key bar, not beyond the window's right edge.
      const button = confirm.getByRole('button', { name: 'Take over without the hub' });
      await button.scrollIntoViewIfNeeded();
      await expect(button).toBeInViewport({ ratio: 1 });
      expect(await page.locator('html').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: test.info().outputPath(`site-takeover-lost-${viewport.width}x${viewport.height}.png`) });
      await page.getByTestId('site-takeover-lost-no').click();
      await expect(confirm).toHaveCount(0);
      await page.close();
    }
    expect((await member.api.site()).hub).not.toBeNull();

    // The returns service's two addresses, its token and accounts, typed as on the sync screen.
    const page = await siteSettings(browser, member, SIZES[0]);
    await page.getByTestId('site-takeover-lost').click();
    const confirm = page.getByTestId('site-takeover-lost-confirm');
    await confirm.getByRole('button', { name: 'One Returns Station address' }).click();
    await confirm.getByLabel('Returns address (returns_url)').fill(service.returnsUrl);
    await confirm.getByLabel('API base address (base_url)').fill(service.baseUrl);
    await confirm.getByLabel('Token').fill(service.defaultToken);
    await expect(confirm.getByLabel('Accounts')).toHaveValue(ACCOUNTS.join(', '));
    // A dock worker's terminal is refused, and nothing changes.
    await confirm.getByRole('button', { name: 'Take over without the hub' }).click();
    await expect(page.getByTestId('site-takeover-lost-problem')).toContainText('supervisor');
    await page.getByTestId('supervisor-dialog').getByRole('button', { name: 'Cancel' }).click();
    expect((await member.api.site()).hub).not.toBeNull();
    await signInSupervisor(page);
    await confirm.getByLabel('Token').fill(service.defaultToken);
    await confirm.getByRole('button', { name: 'Take over without the hub' }).click();
    await expect(page.getByTestId('site-state')).toContainText("This station is the site's hub now, without the old hub", { timeout: 30_000 });
    await expect(page.getByTestId('site-joined')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('site-takeover-lost-done-1024x600.png') });

    // What the member recorded: the returns service is its upstream, no hub; it syncs there.
    expect((await member.api.getUpstream()).returns_url).toBe(service.returnsUrl);
    expect((await member.api.site()).hub).toBeNull();
    await expect.poll(() => service.requests.length, { timeout: 30_000 }).toBeGreaterThan(0);
  } finally {
    await member.stop();
    await hub.stop();
    await service.close();
  }
});
