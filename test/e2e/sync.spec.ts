import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../shared/api/client.ts';
import { STATION_BIN, startStation } from '../support/station-process.ts';
import { startFaultProxy } from '../sync/fault-proxy.ts';
import { expect, test } from './fixtures.ts';
import { openAndSignIn, uid } from './receiving-helpers.ts';
import { signInSupervisor } from './supervisor-helpers.ts';

/*
 * The sync indicator and screen, as a station worker meets them: settings entered on the screen,
 * a change the upstream refuses shown with the upstream's own words, retried once it is fixed, and
 * photos kept on the station where the upstream has no media.
 * The upstream is a second real station behind the tests' fault proxy.
 */

const ACCOUNT = 1001;

/** The supervisor of each test's own station: setting the upstream needs one. */
const SYNC_SUPERVISOR = { name: 'Sync supervisor', badge: 'SUP-SYNC', pin: '4321' };

test('sets the upstream, shows a refused change with its message, retries it, and says photos stay local', async ({ page }) => {
  test.setTimeout(90_000);
  const upDir = mkdtempSync(join(tmpdir(), 'e2e-upstream-'));
  const token = spawnSync(process.execPath, [STATION_BIN, 'token', 'create', '--account', String(ACCOUNT), '--data-dir', upDir], {
    encoding: 'utf8',
  }).stdout.trim();
  const upstream = await startStation({ dataDir: upDir, env: { RETURNS_STATION_LOG_LEVEL: 'warn' } });
  const upApi = new ApiClient({ baseUrl: upstream.origin, token: upstream.stationToken });
  const proxy = await startFaultProxy(upstream.origin);
  const local = await startStation({ env: { RETURNS_STATION_LOG_LEVEL: 'warn', RETURNS_STATION_SYNC_INTERVAL_MS: '500' } });
  try {
    const tag = uid();
    const ret = await upApi.createReturn({
      account_id: ACCOUNT,
      email: `e2e-${tag.toLowerCase()}@example.com`,
      receive_by: '2030-01-31',
      total_price: 10,
      currency: 'USD',
      weight: 1,
      weight_unit: 'kg',
      reason_of_return: 'Broken',
      length: 1,
      width: 1,
      height: 1,
      dimension_unit: 'cm',
      return_line_items: [{ quantity: 1, unreceived_quantity: 1, name: 'Lamp', price: 10, currency: 'USD', merchant_sku: `LAMP-${tag}` }],
    });
    const parcel = await upApi.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: `1ZSYNC${tag}` });
    let refusing = true;
    // This upstream has no media files: the parcel's photo stays on the station, and the screen says so.
    proxy.fault = ({ method, path }) => {
      if (path.includes('/media_files')) return { status: 404, body: { error: 'Not Found', error_code: 'NOT_FOUND', details: { message: 'No such route.' } } };
      return refusing && method === 'PATCH' && path.endsWith(`/return_packages/${parcel.id}`)
        ? { status: 422, body: { error: 'Unprocessable Entity', error_code: 'VALIDATION_FAILED', details: { message: 'Dock 7 cannot receive this parcel.' } } }
        : null;
    };

    const localApi = new ApiClient({ baseUrl: local.origin, token: local.stationToken });
    const operator = await localApi.createOperator({ name: `Sync worker ${tag}`, badge_code: `BADGE-S${tag}` });
    // The page has the UI link's terminal token; the upstream is a supervisor's to set.
    await localApi.createOperator({ name: SYNC_SUPERVISOR.name, badge_code: SYNC_SUPERVISOR.badge, pin: SYNC_SUPERVISOR.pin, role: 'supervisor' });
    await openAndSignIn(page, { ...local, uiUrl: `${local.origin}/#token=${local.uiToken}`, token: local.uiToken, api: localApi }, operator);
    await signInSupervisor(page, SYNC_SUPERVISOR);

    const indicator = page.getByTestId('sync-indicator');
    await expect(indicator).toContainText('Sync off');
    await indicator.click();
    await page.getByLabel('URL').fill(proxy.url);
    await page.getByLabel('Token').fill(token);
    await page.getByLabel('Accounts').fill(String(ACCOUNT));
    await page.getByRole('button', { name: 'Save and sync' }).click();
    await expect(indicator).toContainText('Synced', { timeout: 15_000 });

    // The pulled parcel is received at the station; the upstream refuses it.
    await expect.poll(async () => (await localApi.lookup(parcel.tracking_number)).packages.length, { timeout: 15_000 }).toBe(1);
    const pulled = (await localApi.lookup(parcel.tracking_number)).packages[0];
    if (!pulled) throw new Error('not pulled');
    await localApi.uploadMedia(ACCOUNT, pulled.id, new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9])]), { contentType: 'image/jpeg' });
    await localApi.updatePackage(ACCOUNT, pulled.id, { status: 'received' });
    await expect(indicator).toContainText('Sync needs you', { timeout: 15_000 });
    const row = page.getByTestId('sync-change').filter({ hasText: parcel.tracking_number });
    await expect(row).toContainText('Dock 7 cannot receive this parcel. (422)');
    await expect(row).toContainText('Refused by the upstream');

    refusing = false;
    await row.getByRole('button', { name: 'Retry' }).click();
    await expect(indicator).toContainText('Synced', { timeout: 15_000 });
    await expect(page.getByText('Nothing waiting.')).toBeVisible();
    await expect(page.getByTestId('sync-media-kept-local')).toContainText('media kept local: upstream has no media support (404: No such route.)');
    expect((await upApi.getPackage(ACCOUNT, parcel.id)).status).toBe('received');
  } finally {
    await local.stop();
    await proxy.close();
    await upstream.stop();
    rmSync(upDir, { recursive: true, force: true });
  }
});

test('enters the upstream as two addresses from the keyboard, or as one station address', async ({ page }) => {
  // Nothing listens on 127.0.0.1:9: the settings are what is tested, sync just finds the upstream offline.
  const local = await startStation({ env: { RETURNS_STATION_LOG_LEVEL: 'warn' } });
  try {
    const localApi = new ApiClient({ baseUrl: local.origin, token: local.stationToken });
    const tag = uid();
    const operator = await localApi.createOperator({ name: `Sync clerk ${tag}`, badge_code: `BADGE-A${tag}` });
    await localApi.createOperator({ name: SYNC_SUPERVISOR.name, badge_code: SYNC_SUPERVISOR.badge, pin: SYNC_SUPERVISOR.pin, role: 'supervisor' });
    await openAndSignIn(page, { ...local, uiUrl: `${local.origin}/#token=${local.uiToken}`, token: local.uiToken, api: localApi }, operator);
    await signInSupervisor(page, SYNC_SUPERVISOR);
    await page.getByTestId('sync-indicator').click();

    // One station's address first; then the toggle, from the keyboard, splits it into the two it gives.
    const oneStation = page.getByRole('button', { name: 'One Returns Station address' });
    await expect(oneStation).toHaveAttribute('aria-pressed', 'true');
    await page.getByLabel('URL').fill('http://127.0.0.1:9/station/');
    await expect(page.getByText('Manual returns at http://127.0.0.1:9/station/returns; packages at http://127.0.0.1:9/station/api/v1/…')).toBeVisible();
    await oneStation.focus();
    await page.keyboard.press('Enter');
    await expect(oneStation).toHaveAttribute('aria-pressed', 'false');
    const returnsUrl = page.getByLabel('Returns address (returns_url)');
    const baseUrl = page.getByLabel('API base address (base_url)');
    await expect(returnsUrl).toHaveValue('http://127.0.0.1:9/station');
    await expect(baseUrl).toHaveValue('http://127.0.0.1:9/station/api');

    await page.keyboard.press('Tab');
    await expect(returnsUrl).toBeFocused();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('http://127.0.0.1:9/desk', { delay: 90 });
    await page.keyboard.press('Tab');
    await expect(baseUrl).toBeFocused();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('http://127.0.0.1:9/gateway/v2', { delay: 90 });
    await page.keyboard.press('Tab');
    await page.keyboard.type('upstream-token', { delay: 90 });
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('1001', { delay: 90 });
    await page.keyboard.press('Enter');
    await expect(page.getByText('Upstream saved: syncing now.')).toBeVisible();
    expect(await localApi.getUpstream()).toEqual({
      returns_url: 'http://127.0.0.1:9/desk',
      base_url: 'http://127.0.0.1:9/gateway/v2',
      accounts: [1001],
      token_set: true,
    });
    // Saved addresses that are not one station's come back as the two fields.
    await expect(oneStation).toHaveAttribute('aria-pressed', 'false');
    await expect(returnsUrl).toHaveValue('http://127.0.0.1:9/desk');
    await expect(baseUrl).toHaveValue('http://127.0.0.1:9/gateway/v2');

    // Back to one station's address: saved as returns_url and returns_url/api.
    await oneStation.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('URL')).toHaveValue('http://127.0.0.1:9/desk');
    await page.getByLabel('URL').fill('http://127.0.0.1:9/other-station');
    await page.getByLabel('Token').fill('upstream-token');
    await page.getByRole('button', { name: 'Save and sync' }).click();
    await expect.poll(async () => (await localApi.getUpstream()).base_url).toBe('http://127.0.0.1:9/other-station/api');
    await expect(oneStation).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('URL')).toHaveValue('http://127.0.0.1:9/other-station');
  } finally {
    await local.stop();
  }
});
