import type { Page } from '@playwright/test';
import { expect, startDemoStation, test } from './fixtures.ts';
import { launchTrustingStation } from './site-browser.ts';
import { openAndSignIn, openSettings } from './receiving-helpers.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * Settings → Site (docs/decisions/site-join.md): on a hub serving the site's network, a supervisor
 * makes a join code; on another station a supervisor joins the hub with its address and the code.
 * What the stations recorded is checked through their APIs; the screens are photographed.
 */

test.setTimeout(180_000);

async function signedInOnSite(page: Page, station: Awaited<ReturnType<typeof startDemoStation>>): Promise<void> {
  const operator = (await station.api.listOperators({ per_page: 100 })).data.find((o) => o.badge_code && o.role === 'worker');
  if (!operator) throw new Error('the demo has no worker with a badge');
  await openAndSignIn(page, station, operator);
  if ((page.viewportSize()?.width ?? 1024) < 600) await page.getByTestId('menu-button').click();
  await openSettings(page, 'site');
}

test('a supervisor makes a join code on the hub and joins another station to it from Settings → Site', async () => {
  const hub = await startDemoStation({ args: ['--host', '0.0.0.0'] });
  const member = await startDemoStation();
  // Chromium trusts the station's certificate authority's key, not any certificate error.
  const browser = await launchTrustingStation(hub.dataDir);
  try {
    const hubPage = await browser.newPage({ viewport: { width: 1024, height: 600 } });
    await signedInOnSite(hubPage, hub);
    // A dock worker's terminal may not make a code: the station refuses it and the sign-in opens.
    await hubPage.getByTestId('site-invite').click();
    await expect(hubPage.getByTestId('site-invite-problem')).toContainText('supervisor');
    await hubPage.getByTestId('supervisor-dialog').getByRole('button', { name: 'Cancel' }).click();
    await signInSupervisor(hubPage);
    await hubPage.getByTestId('site-invite').click();
    const code = (await hubPage.getByTestId('site-invite-code').textContent()) ?? '';
    expect(code).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){4}[0-9A-HJKMNP-TV-Z]{4}$/);
    await expect(hubPage.getByTestId('site-fingerprint')).toHaveText(hub.tlsFingerprint ?? 'none printed');
    await expect(hubPage.getByTestId('site-invite-code-box')).toContainText(hub.origin);
    await expect(hubPage.getByTestId('site-invite-code')).toBeInViewport({ ratio: 1 });
    await hubPage.screenshot({ path: test.info().outputPath('site-invite-1024x600.png') });

    const memberPage = await browser.newPage({ viewport: { width: 1024, height: 600 } });
    await signedInOnSite(memberPage, member);
    await memberPage.getByTestId('site-join-url').fill(hub.origin);
    await memberPage.getByTestId('site-join-code').fill(code.toLowerCase());
    await signInSupervisor(memberPage);
    await memberPage.getByTestId('site-join').click();
    await expect(memberPage.getByTestId('site-join-state')).toHaveAttribute('data-ok', 'yes', { timeout: 20_000 });
    await expect(memberPage.getByTestId('site-joined')).toContainText(hub.origin);
    await memberPage.screenshot({ path: test.info().outputPath('site-join-1024x600.png') });
    await expect(memberPage.getByTestId('site-join-state')).toBeInViewport({ ratio: 1 });

    // What the stations recorded: the member's upstream is the hub, pinned; the hub lists the member.
    const site = await member.api.site();
    expect(site.hub).toEqual({ url: hub.origin, ca_sha256: hub.tlsFingerprint, next_ca_sha256: null, member_id: '1', removed: false });
    expect((await member.api.getUpstream()).returns_url).toBe(hub.origin);
    await expect.poll(async () => (await hub.api.site()).members.map((m) => m.last_contact_at !== null), { timeout: 30_000 }).toEqual([true]);

    // The same code again is refused by the hub, in words, and changes nothing. (Asked through the
    // API: once joined, the member takes the site's workers and its supervisor's session ends.)
    await expect(member.api.joinHub({ hub_url: hub.origin, code })).rejects.toThrow(/was used at/);
    expect((await member.api.site()).hub?.member_id).toBe('1');

    // The hub lists it; other sizes of the same screen.
    for (const viewport of [
      { width: 1024, height: 600 },
      { width: 800, height: 600 },
      { width: 412, height: 915 },
    ]) {
      const page = await browser.newPage({ viewport });
      await signedInOnSite(page, hub);
      await expect(page.getByTestId('site-member')).toHaveCount(1);
      await page.getByTestId('site-members').scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath(`site-members-${viewport.width}x${viewport.height}.png`) });
      await page.close();
    }
  } finally {
    await browser.close();
    await member.stop();
    await hub.stop();
  }
});
