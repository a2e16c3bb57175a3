import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, ApiError } from '../../shared/api/client.ts';
import { fetchTrusting } from '../../electron/station/tls/pinned-fetch.ts';
import { startStation } from '../support/station-process.ts';
import { startFakeReturnsService } from '../sync/fake-returns-service.ts';
import { setSpecUpstream } from '../sync/spec-support.ts';
import { runCli } from '../sync/support.ts';
import { expect, test } from './fixtures.ts';
import { openAndSignIn } from './receiving-helpers.ts';
import { expectFits, openFromHeader, SIZES } from './screen-fit.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * A site's member shows the hub's workers, rules and rule-like settings read-only, saying where they
 * are changed (docs/decisions/site-config.md): a worker added at the hub signs in at the member by
 * badge, the hub's supervisor with the hub's PIN; the Workers screen lists the site's workers with no
 * way to change them, at every size; the station still refuses a change through its API (409).
 */

const ACCOUNT = 1;
const SUPERVISOR = { name: 'Hub supervisor', badge: 'SUP-HUB-1', pin: '2468' };

test("a member's Workers, Rules and station settings are the hub's: read-only, with the hub's address, at every size", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const fake = await startFakeReturnsService({ accounts: [ACCOUNT] });
  const hubDir = mkdtempSync(join(tmpdir(), 'e2e-site-hub-'));
  await setSpecUpstream(hubDir, fake, [ACCOUNT]);
  const hub = await startStation({ dataDir: hubDir, args: ['--host', '0.0.0.0'], env: { RETURNS_STATION_LOG_LEVEL: 'warn' } });
  const member = await startStation({ env: { RETURNS_STATION_LOG_LEVEL: 'warn' } });
  try {
    const hubApi = new ApiClient({
      baseUrl: hub.origin,
      token: hub.stationToken,
      fetch: fetchTrusting({ ca: readFileSync(join(hubDir, 'tls', 'site-ca.pem'), 'utf8') }),
    });
    await hubApi.createOperator({ name: SUPERVISOR.name, badge_code: SUPERVISOR.badge, pin: SUPERVISOR.pin, role: 'supervisor' });
    const worker = await hubApi.createOperator({ name: 'Hub dock worker', badge_code: 'BADGE-HUB-7', sign_in_key: 7 });
    // The member had a rule of its own before it joined: kept aside and shown, not applied.
    const own = new ApiClient({ baseUrl: member.origin, token: member.stationToken });
    await own.updateDispositionRules({
      rules: [{ name: 'Dock 2 sends all to quarantine', condition: null, defective: null, disposition: 'quarantine', bin: 'Q-DOCK2' }],
    });
    const code = (await runCli(['site', 'invite', '--data-dir', hubDir])).stdout.trim();
    const joined = await runCli(['site', 'join', hub.origin, '--code', code, '--name', 'dock 2', '--data-dir', member.dataDir]);
    expect(joined.status, joined.stderr).toBe(0);

    const api = new ApiClient({ baseUrl: member.origin, token: member.stationToken });
    await expect
      .poll(async () => (await api.listOperators()).data.map((o) => o.badge_code).sort(), { timeout: 30_000 })
      .toEqual(['BADGE-HUB-7', SUPERVISOR.badge]);
    await openAndSignIn(page, { ...member, uiUrl: `${member.origin}/#token=${member.uiToken}`, token: member.uiToken, api }, worker);
    await signInSupervisor(page, SUPERVISOR);

    const managedNote = `Managed by the site's hub at ${hub.origin}`;
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      const handheld = size.width < 700;
      // Nothing to type on the hub's workers and rules, only the way back (and every screen's camera, screens, supervisor); a handheld shows Keys for them.
      const managedKeys = handheld ? /^Keys$/ : /^Tab next\s*Esc back\s*F9 camera\s*Alt\+S P R D L W screens\s*Alt\+U supervisor$/;
      await page.keyboard.press('Escape');
      await page.keyboard.press('Alt+W');
      const screen = page.getByTestId('workers-screen');
      await expect(screen.getByTestId('site-managed')).toContainText(managedNote);
      await expect(screen.getByTestId('worker-row')).toHaveCount(2);
      await expect(screen.getByTestId('worker-form')).toHaveCount(0);
      await expect(screen.getByRole('button', { name: /^(Change|Deactivate) / })).toHaveCount(0);
      await expectFits(page, testInfo, `site-workers-${size.name}`, [screen.getByTestId('site-managed'), screen.getByTestId('workers-table')], handheld);

      await expect(page.getByTestId('key-legend')).toHaveText(managedKeys);
      await page.keyboard.press('Escape');
      await openFromHeader(page, handheld, page.getByTestId('settings-button'));
      await page.getByTestId('settings-tab-station').click();
      await expect(page.getByTestId('station-settings').getByTestId('site-managed')).toContainText(managedNote);
      await expect(page.getByTestId('station-currency')).toBeDisabled();
      await expect(page.getByTestId('unset-conditions')).toBeDisabled();
      await expectFits(
        page,
        testInfo,
        `site-settings-${size.name}`,
        [page.getByTestId('station-settings').getByTestId('site-managed'), page.getByTestId('station-currency')],
        handheld,
      );
      await page.getByTestId('settings-tab-more').click();
      await page.getByTestId('disposition-rules-link').click();
      const rules = page.getByTestId('rules-screen');
      await expect(rules.getByTestId('site-managed')).toContainText(managedNote);
      await expect(rules.getByTestId('rules-save')).toHaveCount(0);
      await expect(rules.locator('tbody input').first()).toBeDisabled();
      await expect(rules.getByTestId('own-rules-before-join')).toContainText("This station's rules before it joined the site — not applied");
      await expect(rules.getByTestId('own-rules-before-join')).toContainText('Dock 2 sends all to quarantine → Quarantine, bin Q-DOCK2');
      await expect(page.getByTestId('key-legend')).toHaveText(managedKeys);
      await expectFits(
        page,
        testInfo,
        `site-rules-${size.name}`,
        [rules.getByTestId('site-managed'), rules.getByTestId('rules-cancel'), rules.getByTestId('own-rules-before-join')],
        handheld,
      );
      await page.keyboard.press('Escape');
    }

    // What the station recorded: the hub's workers, and a change through its own API refused naming the hub.
    const session = await api.createSupervisorSession({ badge_code: SUPERVISOR.badge, pin: SUPERVISOR.pin });
    api.useSupervisorToken(session.token);
    const refused = await api.createOperator({ name: 'Not here', badge_code: 'BADGE-NOPE' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 409, errorCode: 'SITE_MANAGED', details: { hub_url: hub.origin } });
    expect((await api.listOperators()).data.map((o) => o.name).sort()).toEqual(['Hub dock worker', SUPERVISOR.name]);
    expect((await api.dispositionRules()).rules.map((r) => r.bin)).not.toContain('Q-DOCK2');
  } finally {
    await member.stop();
    await hub.stop();
    await fake.close();
    rmSync(hubDir, { recursive: true, force: true });
  }
});
