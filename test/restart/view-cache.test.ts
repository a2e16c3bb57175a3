import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { ReturnPackage } from '#shared/api/return-packages.ts';
import type { ReturnRecord } from '#shared/api/returns.ts';
import { type RunningStation, STATION_BIN, startStation } from '../support/station-process.ts';
import { returnLine } from '../support/manual-return.ts';
import { call, createPackage, createReturn, expectError, rawCall, sampleMedia } from '../api/support.ts';
import { RETURN_BODY, setUpstream, startUpstream, tracking, waitFor } from '../sync/support.ts';

/*
 * Get-one of a package and of a return is answered from JSON remembered between requests
 * (api/view-cache.ts). On the real `returns-station serve`: a remembered view is never answered
 * after a change to what it shows — made by another token, to its line items or media, by
 * receiving, by sync, across a stop and a start — nor to a token revoked meanwhile; its media URLs
 * follow the address the caller used.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** `returns-station token …` without blocking this process (the CLI talks to the running station). */
function tokenCli(dataDir: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [STATION_BIN, 'token', ...args, '--data-dir', dataDir], { encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`token ${args.join(' ')}: ${stderr}`)) : resolve(stdout),
    );
  });
}

const A = '/api/v1/accounts/1001';

/** Reads a view twice (the second answer comes from the cache when the first was remembered). */
async function getTwice<T>(station: RunningStation, path: string, token: string): Promise<T> {
  const first = await call(station.origin, 'GET', path, { token });
  expect(first.status, first.text).toBe(200);
  const second = await call(station.origin, 'GET', path, { token });
  expect(second.text).toBe(first.text);
  return second.json as T;
}

it('never answers a remembered view after a change to it, a revoke, or a restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'view-cache-'));
  dirs.push(dir);
  let station = await startStation({ dataDir: dir });
  const other = station.stationToken;
  const token = (await tokenCli(dir, 'create', '--account', '1001', '--name', 'label printer')).trim();
  const ret = await createReturn(station.origin, token, { return_line_items: [returnLine('CACHE-1', 2), returnLine('CACHE-2', 1)] });
  const pkg = await createPackage(station.origin, token, 1001, ret.id);
  const pkgPath = `${A}/return_packages/${pkg.id}`;
  const retPath = `${A}/returns/${ret.id}`;
  await getTwice<ReturnPackage>(station, pkgPath, token);
  await getTwice<ReturnRecord>(station, retPath, token);

  // Another token changes the package.
  expect((await call(station.origin, 'PATCH', pkgPath, { token: other, body: { weight: 3.25, weight_unit: 'kg' } })).status).toBe(200);
  expect(await getTwice<ReturnPackage>(station, pkgPath, token)).toMatchObject({ weight: 3.25, weight_unit: 'kg' });

  // Its line items: added, changed, removed.
  const lineIds = ret.return_line_items.map((line) => line.id);
  const added = await call(station.origin, 'POST', `${pkgPath}/line_items`, { token, body: { return_line_item_id: lineIds[0], quantity: 1 } });
  expect(added.status, added.text).toBe(201);
  const itemId = (added.json as { id: number }).id;
  expect((await getTwice<ReturnPackage>(station, pkgPath, token)).line_items.map((item) => item.id)).toEqual([itemId]);
  expect((await call(station.origin, 'PATCH', `${pkgPath}/line_items/${itemId}`, { token: other, body: { condition: 'damaged', notes: 'torn' } })).status).toBe(
    200,
  );
  expect((await getTwice<ReturnPackage>(station, pkgPath, token)).line_items[0]).toMatchObject({ id: itemId, condition: 'damaged', notes: 'torn' });
  const second = await call(station.origin, 'POST', `${pkgPath}/line_items`, { token, body: { return_line_item_id: lineIds[1], quantity: 1 } });
  const secondId = (second.json as { id: number }).id;
  await getTwice(station, pkgPath, token);
  expect((await call(station.origin, 'DELETE', `${pkgPath}/line_items/${secondId}`, { token: other })).status).toBe(204);
  expect((await getTwice<ReturnPackage>(station, pkgPath, token)).line_items.map((item) => item.id)).toEqual([itemId]);

  // Media: an upload shows, with URLs of the address each caller used; a removal goes.
  const upload = await call(station.origin, 'POST', `${pkgPath}/media_files`, {
    token,
    raw: sampleMedia('image/png', 7),
    headers: { 'content-type': 'image/png' },
  });
  expect(upload.status, upload.text).toBe(201);
  const mediaId = (upload.json as { id: number }).id;
  const withMedia = await getTwice<ReturnPackage>(station, pkgPath, token);
  expect(withMedia.media_files.map((m) => m.id)).toEqual([mediaId]);
  expect(withMedia.media_files[0]?.url.startsWith(`${station.origin}/media/`)).toBe(true);
  const port = new URL(station.origin).port;
  for (let i = 0; i < 2; i += 1) {
    const viaName = await rawCall(station.origin, { method: 'GET', path: pkgPath, headers: { host: `localhost:${port}`, authorization: `Bearer ${token}` } });
    expect(viaName.status, viaName.text).toBe(200);
    expect((JSON.parse(viaName.text) as ReturnPackage).media_files[0]?.url.startsWith(`http://localhost:${port}/media/`)).toBe(true);
  }
  expect((await getTwice<ReturnPackage>(station, pkgPath, token)).media_files[0]?.url.startsWith(`${station.origin}/media/`)).toBe(true);
  expect((await call(station.origin, 'DELETE', `${pkgPath}/media_files/${mediaId}`, { token: other })).status).toBe(204);
  expect((await getTwice<ReturnPackage>(station, pkgPath, token)).media_files).toEqual([]);

  // Receiving changes the package and its return's lines: the return's get-one is its list row.
  expect((await call(station.origin, 'PATCH', pkgPath, { token: other, body: { status: 'received' } })).status).toBe(200);
  expect((await getTwice<ReturnPackage>(station, pkgPath, token)).status).toBe('received');
  const listed = await call(station.origin, 'GET', `${A}/returns?per_page=100`, { token });
  const row = (listed.json as { data: ReturnRecord[] }).data.find((r) => r.id === ret.id);
  expect(await getTwice<ReturnRecord>(station, retPath, token)).toEqual(row);

  // Another account's token, or the same id under another account, never gets the remembered view.
  expectError(await call(station.origin, 'GET', `/api/v1/accounts/1002/return_packages/${pkg.id}`, { token: other }), 'NOT_FOUND');
  const elsewhere = (await tokenCli(dir, 'create', '--account', '1002')).trim();
  expectError(await call(station.origin, 'GET', pkgPath, { token: elsewhere }), 'ACCOUNT_FORBIDDEN');

  // A revoke takes effect on the very next request, remembered view or not.
  const list = await tokenCli(dir, 'list');
  const tokenId =
    list
      .split('\n')
      .find((line) => line.includes('label printer'))
      ?.split(/\s+/)[0] ?? '';
  await tokenCli(dir, 'revoke', tokenId);
  expectError(await call(station.origin, 'GET', pkgPath, { token }), 'INVALID_TOKEN');
  expectError(await call(station.origin, 'GET', retPath, { token }), 'INVALID_TOKEN');

  const before = { pkg: await getTwice<ReturnPackage>(station, pkgPath, other), ret: await getTwice<ReturnRecord>(station, retPath, other) };
  expect(await station.stop()).toBe(0);

  // After a start: the same views, and a change still shows at once.
  station = await startStation({ dataDir: dir });
  try {
    expectError(await call(station.origin, 'GET', pkgPath, { token }), 'INVALID_TOKEN');
    const fresh = station.stationToken;
    const after = { pkg: await getTwice<ReturnPackage>(station, pkgPath, fresh), ret: await getTwice<ReturnRecord>(station, retPath, fresh) };
    expect(after).toEqual(before);
    expect((await call(station.origin, 'PATCH', pkgPath, { token: fresh, body: { weight: 4.5 } })).status).toBe(200);
    expect((await getTwice<ReturnPackage>(station, pkgPath, fresh)).weight).toBe(4.5);
  } finally {
    await station.stop();
  }
}, 120_000);

it('answers the upstream change sync brings in, not the view remembered before it', async () => {
  const upstream = await startUpstream({ accounts: [1001] });
  const dir = mkdtempSync(join(tmpdir(), 'view-cache-sync-'));
  dirs.push(dir);
  let station: RunningStation | undefined;
  try {
    const upstreamReturn = await upstream.api.createReturn({ ...RETURN_BODY, account_id: 1001 });
    const upstreamPkg = await upstream.api.createPackage(1001, { return_id: upstreamReturn.id, tracking_number: tracking('CACHE') });
    await setUpstream(dir, upstream.origin, upstream.syncToken, [1001]);
    const running = await startStation({ dataDir: dir, env: { RETURNS_STATION_SYNC_INTERVAL_MS: '200', RETURNS_STATION_LOG_LEVEL: 'warn' } });
    station = running;
    const token = running.stationToken;
    const local = await waitFor('the package pulled', async () => {
      const found = await call(running.origin, 'GET', `/api/v1/station/lookup?code=${encodeURIComponent(upstreamPkg.tracking_number)}`, { token });
      return (found.json as { packages?: Array<{ id: number }> } | undefined)?.packages?.[0];
    });
    const pkgPath = `${A}/return_packages/${local.id}`;
    expect((await getTwice<ReturnPackage>(running, pkgPath, token)).weight).toBeNull();

    await upstream.api.updatePackage(1001, upstreamPkg.id, { weight: 7.5, weight_unit: 'kg' });
    await waitFor('the upstream change in get-one', async () => {
      const got = await call(running.origin, 'GET', pkgPath, { token });
      return (got.json as ReturnPackage).weight === 7.5;
    });
    // And it stays (nothing older is answered after it).
    expect((await getTwice<ReturnPackage>(running, pkgPath, token)).weight).toBe(7.5);
  } finally {
    await station?.stop();
    await upstream.stop();
  }
}, 120_000);
