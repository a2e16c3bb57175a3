import { expect, startDemoStation, test } from './fixtures.ts';
import { launchTrustingStation } from './site-browser.ts';
import { siteSettings, SITE_SIZES } from './site-settings.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * Moving the hub from Settings → Site (docs/decisions/site-promote.md): on the hub a supervisor makes
 * its member the hub ("Make … the hub", after a confirmation that says what happens); on the
 * member, which learns from its hub that the uplink waits for it, a supervisor takes over, running.
 * What each station recorded is checked through its API; the confirmations are photographed at
 * 1024×600, 800×600 and 412×915.
 */

test.setTimeout(240_000);

const SIZES = SITE_SIZES;
/** Where the hub's uplink points: no returns service answers there (the move needs none). */
const UPLINK = 'http://127.0.0.1:9';

test('a supervisor makes the member the hub on the hub, and takes over on the member while it runs', async () => {
  const hub = await startDemoStation({ args: ['--host', '0.0.0.0'] });
  const member = await startDemoStation();
  const browser = await launchTrustingStation(hub.dataDir);
  try {
    await hub.api.setUpstream({ url: UPLINK, token: 'returns-service-token', accounts: [1001, 1002] });
    await member.api.joinHub({ hub_url: hub.origin, code: (await hub.api.createSiteInvite()).code, name: 'Dock 2' });
    await expect.poll(async () => (await member.api.site()).managed?.version ?? null, { timeout: 30_000 }).not.toBeNull();

    // Before the hub offered it: the member says so, and offers no button.
    const early = await siteSettings(browser, member, SIZES[0]);
    await expect(early.getByTestId('site-takeover-part')).toHaveAttribute('data-offered', 'no', { timeout: 15_000 });
    await expect(early.getByTestId('site-takeover-offer')).toContainText('has not offered');
    await expect(early.getByTestId('site-takeover')).toHaveCount(0);
    await early.close();

    // On the hub: "Make hub" asks first, at every size; Cancel changes nothing.
    for (const viewport of SIZES) {
      const page = await siteSettings(browser, hub, viewport);
      await page.getByTestId('site-member-promote').click();
      const confirm = page.getByTestId('site-promote-confirm');
      await expect(confirm).toContainText('Make Dock 2 the hub?');
      await expect(confirm).toContainText('stops sending to the returns service at once');
      await confirm.scrollIntoViewIfNeeded();
      await expect(page.getByTestId('site-promote-yes')).toBeInViewport({ ratio: 1 });
      await page.screenshot({ path: test.info().outputPath(`site-promote-confirm-${viewport.width}x${viewport.height}.png`) });
      await page.getByTestId('site-promote-no').click();
      await expect(confirm).toHaveCount(0);
      await page.close();
    }
    expect((await hub.api.site()).handover).toBeNull();

    // A terminal's token is refused (the sign-in opens); a supervisor makes the member the hub.
    const hubPage = await siteSettings(browser, hub, SIZES[0]);
    await hubPage.getByTestId('site-member-promote').click();
    await hubPage.getByTestId('site-promote-yes').click();
    await expect(hubPage.getByTestId('site-promote-problem')).toContainText('supervisor');
    await hubPage.getByTestId('supervisor-dialog').getByRole('button', { name: 'Cancel' }).click();
    expect((await hub.api.site()).handover).toBeNull();
    await signInSupervisor(hubPage);
    await hubPage.getByTestId('site-promote-yes').click();
    await expect(hubPage.getByTestId('site-handover')).toHaveAttribute('data-taken', 'no');
    await expect(hubPage.getByTestId('site-state')).toContainText('Dock 2 becomes the hub');
    expect((await hub.api.site()).handover).toMatchObject({ member_id: 1, taken_at: null });
    expect((await hub.api.getUpstream()).returns_url).toBeNull();
    await hubPage.screenshot({ path: test.info().outputPath('site-promote-done-1024x600.png') });

    // On the member: the offer is shown with its button; the confirmation at every size.
    for (const viewport of SIZES) {
      const page = await siteSettings(browser, member, viewport);
      await expect(page.getByTestId('site-takeover-part')).toHaveAttribute('data-offered', 'yes', { timeout: 15_000 });
      await page.getByTestId('site-takeover').click();
      const confirm = page.getByTestId('site-takeover-confirm');
      await expect(confirm).toContainText("Take over as the site's hub?");
      await confirm.scrollIntoViewIfNeeded();
      await expect(page.getByTestId('site-takeover-yes')).toBeInViewport({ ratio: 1 });
      await page.screenshot({ path: test.info().outputPath(`site-takeover-confirm-${viewport.width}x${viewport.height}.png`) });
      await page.close();
    }
    const memberPage = await siteSettings(browser, member, SIZES[0]);
    await signInSupervisor(memberPage);
    await memberPage.getByTestId('site-takeover').click();
    await memberPage.getByTestId('site-takeover-yes').click();
    await expect(memberPage.getByTestId('site-state')).toContainText("This station is the site's hub now", { timeout: 60_000 });
    await expect(memberPage.getByTestId('site-takeover-part')).toHaveCount(0);
    await expect(memberPage.getByTestId('site-joined')).toHaveCount(0);
    await memberPage.screenshot({ path: test.info().outputPath('site-takeover-done-1024x600.png') });

    // What the stations recorded: the member syncs with the returns service, the hub says it was taken.
    expect((await member.api.getUpstream()).returns_url).toBe(UPLINK);
    expect((await member.api.site()).hub).toBeNull();
    expect((await hub.api.site()).handover).toMatchObject({ member_id: 1, taken_at: expect.any(String) });
    const hubAfter = await siteSettings(browser, hub, SIZES[0]);
    await expect(hubAfter.getByTestId('site-handover')).toHaveAttribute('data-taken', 'yes');
    await expect(hubAfter.getByTestId('site-member-promote')).toHaveCount(0);
  } finally {
    await browser.close();
    await member.stop();
    await hub.stop();
  }
});
