import { rmSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { runCli, tempDir } from '../sync/support.ts';
import { expect, startDemoStation, test } from './fixtures.ts';
import { openAndSignIn, openSettings } from './receiving-helpers.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * Joining again from Settings → Site (docs/decisions/site-join.md): a station joined hub A, then
 * moves to hub B with a new code, then comes back to A after A removed it. Taking a hub's workers
 * gives the station's supervisor the hub's PIN, which ends the session the first join was made with:
 * the screen says so and asks for a sign-in instead of failing. What the stations recorded is
 * checked through their APIs: the member's upstream and member id, and that B's own member 1 (another
 * station) keeps its membership when this station, member 1 of A, joins B.
 */

test.setTimeout(240_000);

async function joinFromSettings(page: Page, hubOrigin: string, code: string): Promise<void> {
  await page.getByTestId('site-join-url').fill(hubOrigin);
  await page.getByTestId('site-join-code').fill(code);
  await page.getByTestId('site-join').click();
}

test.use({ viewport: { width: 1024, height: 600 } });

test('a station joins a hub from Settings, moves to another hub, and joins the first again after its removal', async ({ page }) => {
  const hubA = await startDemoStation({ args: ['--host', '0.0.0.0'] });
  const hubB = await startDemoStation({ args: ['--host', '0.0.0.0'] });
  const member = await startDemoStation();
  const otherDir = tempDir('site-rejoin-other-');
  try {
    // Another station is B's member 1 (joined on its command line while stopped).
    const forOther = await hubB.api.createSiteInvite();
    const other = await runCli(['site', 'join', hubB.origin, '--code', forOther.code, '--data-dir', otherDir]);
    expect(other.status, other.stderr).toBe(0);
    expect((await hubB.api.site()).members.map((m) => [m.id, m.removed_at])).toEqual([[1, null]]);

    const worker = (await member.api.listOperators({ per_page: 100 })).data.find((o) => o.badge_code && o.role === 'worker');
    if (!worker) throw new Error('the demo has no worker with a badge');
    await openAndSignIn(page, member, worker);
    await openSettings(page, 'site');
    await signInSupervisor(page);

    // First join: A.
    await joinFromSettings(page, hubA.origin, (await hubA.api.createSiteInvite()).code);
    await expect(page.getByTestId('site-join-state')).toHaveAttribute('data-ok', 'yes', { timeout: 20_000 });
    expect((await member.api.site()).hub).toMatchObject({ url: hubA.origin, member_id: '1', removed: false });
    // The member takes A's workers: the supervisor's badge is A's, with A's PIN, so the session ends.
    await expect.poll(async () => (await member.api.site()).managed?.version ?? null, { timeout: 30_000 }).not.toBeNull();

    // Second join: B, with B's code. The ended session is told, the sign-in opens, and the join is made after it.
    await joinFromSettings(page, hubB.origin, (await hubB.api.createSiteInvite()).code);
    await expect(page.getByTestId('supervisor-dialog')).toBeVisible();
    await expect(page.getByTestId('supervisor-dialog')).toContainText('session on this screen ended');
    await expect(page.getByTestId('site-join-state')).toContainText('sign in again');
    for (const viewport of [
      { width: 1024, height: 600 },
      { width: 800, height: 600 },
      { width: 412, height: 915 },
    ]) {
      await page.setViewportSize(viewport);
      await expect(page.getByTestId('supervisor-dialog').getByRole('button', { name: 'Cancel' })).toBeInViewport();
      await page.screenshot({ path: test.info().outputPath(`site-rejoin-session-ended-${viewport.width}x${viewport.height}.png`) });
    }
    await page.setViewportSize({ width: 1024, height: 600 });
    await page.getByTestId('supervisor-dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('supervisor-state')).toHaveCount(0);
    await signInSupervisor(page);
    await page.getByTestId('site-join').click();
    await expect(page.getByTestId('site-join-state')).toHaveAttribute('data-ok', 'yes', { timeout: 20_000 });
    await expect(page.getByTestId('site-joined')).toContainText(hubB.origin);
    const atB = await member.api.site();
    expect(atB.hub).toMatchObject({ url: hubB.origin, member_id: '2', removed: false });
    expect((await member.api.getUpstream()).returns_url).toBe(hubB.origin);
    // B's member 1 is another station: this station's old member id (A's) revoked nothing at B.
    expect((await hubB.api.site()).members.map((m) => [m.id, m.removed_at])).toEqual([
      [1, null],
      [2, null],
    ]);
    await expect.poll(async () => (await hubB.api.site()).members.find((m) => m.id === 2)?.last_contact_at ?? null, { timeout: 30_000 }).not.toBeNull();

    // A removes its member 1; the station joins A again with a new code.
    await hubA.api.removeSiteMember(1);
    await expect.poll(async () => (await member.api.site()).managed?.hub_url ?? null, { timeout: 30_000 }).toBe(hubB.origin);
    await joinFromSettings(page, hubA.origin, (await hubA.api.createSiteInvite()).code);
    // Whether B's workers ended this session too depends on B's PIN hash: sign in again when asked.
    const outcome = await Promise.race([
      page
        .getByTestId('site-join-state')
        .and(page.locator('[data-ok="yes"]'))
        .waitFor({ timeout: 20_000 })
        .then(() => 'joined' as const),
      page
        .getByTestId('supervisor-dialog')
        .waitFor({ timeout: 20_000 })
        .then(() => 'asked' as const),
    ]);
    if (outcome === 'asked') {
      await page.getByTestId('supervisor-dialog').getByRole('button', { name: 'Cancel' }).click();
      await signInSupervisor(page);
      await page.getByTestId('site-join').click();
    }
    await expect(page.getByTestId('site-join-state')).toHaveAttribute('data-ok', 'yes', { timeout: 20_000 });
    await expect(page.getByTestId('site-joined')).toContainText(hubA.origin);
    expect((await member.api.site()).hub).toMatchObject({ url: hubA.origin, member_id: '2', removed: false });
    await expect.poll(async () => (await hubA.api.site()).members.find((m) => m.id === 2)?.last_contact_at ?? null, { timeout: 30_000 }).not.toBeNull();
    await page.screenshot({ path: test.info().outputPath('site-rejoin-1024x600.png') });
  } finally {
    await member.stop();
    await hubB.stop();
    await hubA.stop();
    rmSync(otherDir, { recursive: true, force: true });
  }
});
