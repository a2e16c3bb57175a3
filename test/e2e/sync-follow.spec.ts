import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../shared/api/client.ts';
import { STATION_BIN, startStation } from '../support/station-process.ts';
import { startFakeReturnsService } from '../sync/fake-returns-service.ts';
import { expect, test } from './fixtures.ts';
import { openAndSignIn, uid } from './receiving-helpers.ts';
import { expectFits, expectNoCutText, openFromHeader, SIZES } from './screen-fit.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * The sync screen says how the station learns of its upstream's changes, in a supervisor's words:
 * "Checking … every 3 minutes" on a returns service of the spec (no event stream: it polls at the
 * default pull interval), "Following the hub's changes as they happen" on a hub (another Returns
 * Station, whose event stream it follows). Read at the three sizes the station is used at.
 */

const ACCOUNT = 1;
const SUPERVISOR = { name: 'Follow supervisor', badge: 'SUP-FOLLOW', pin: '2468' };

test('the sync screen says whether the station follows its upstream or checks it, at every size', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const fake = await startFakeReturnsService({ accounts: [ACCOUNT] });
  const hubDir = mkdtempSync(join(tmpdir(), 'e2e-follow-hub-'));
  const hubToken = spawnSync(process.execPath, [STATION_BIN, 'token', 'create', '--account', String(ACCOUNT), '--data-dir', hubDir], {
    encoding: 'utf8',
  }).stdout.trim();
  const hub = await startStation({ dataDir: hubDir, env: { RETURNS_STATION_LOG_LEVEL: 'warn' } });
  // The default pull interval (3 minutes): the words say what the station does.
  const local = await startStation({ env: { RETURNS_STATION_LOG_LEVEL: 'warn' } });
  try {
    const api = new ApiClient({ baseUrl: local.origin, token: local.stationToken });
    const operator = await api.createOperator({ name: `Follow worker ${uid()}`, badge_code: `BADGE-F${uid()}` });
    await api.createOperator({ name: SUPERVISOR.name, badge_code: SUPERVISOR.badge, pin: SUPERVISOR.pin, role: 'supervisor' });
    await api.setUpstream({ returns_url: fake.returnsUrl, base_url: fake.baseUrl, token: fake.defaultToken, accounts: [ACCOUNT] });
    await expect.poll(async () => (await api.station()).sync.upstream_events, { timeout: 30_000 }).toBe('polling');

    await openAndSignIn(page, { ...local, uiUrl: `${local.origin}/#token=${local.uiToken}`, token: local.uiToken, api }, operator);
    await signInSupervisor(page, SUPERVISOR);
    const follow = page.getByTestId('sync-follow');
    const atEverySize = async (name: string, words: string) => {
      for (const size of SIZES) {
        await page.setViewportSize({ width: size.width, height: size.height });
        const handheld = size.width < 700;
        // The screen is opened from the header as a person does (the handheld's under Menu).
        await page.keyboard.press('Escape');
        await openFromHeader(page, handheld, page.getByTestId('sync-indicator'));
        await expect(follow).toHaveText(words);
        await expectFits(page, testInfo, `${name}-${size.name}`, [follow, page.getByRole('button', { name: 'Save and sync' })], handheld);
        // The supervisor signed in reads whole in the header (on a handheld, under Menu).
        if (!handheld) await expectNoCutText(page.locator('.supervisor-who'));
      }
    };
    await atEverySize('sync-polling', 'Checking the upstream for changes every 3 minutes.');

    // The upstream becomes the hub: the station asks for its event stream again and follows it.
    await api.setUpstream({ url: hub.origin, token: hubToken, accounts: [ACCOUNT] });
    await expect.poll(async () => (await api.station()).sync.upstream_events, { timeout: 30_000 }).toBe('following');
    await atEverySize('sync-following', 'Following the hub’s changes as they happen.');
  } finally {
    await local.stop();
    await hub.stop();
    await fake.close();
    rmSync(hubDir, { recursive: true, force: true });
  }
});
