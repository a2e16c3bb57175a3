import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ApiClient } from '#shared/api/client.ts';
import { fetchTrusting } from '../../electron/station/tls/pinned-fetch.ts';
import { type RunningStation, startStation } from '../support/station-process.ts';
import { type FakeReturnsService, startFakeReturnsService } from './fake-returns-service.ts';
import { freePort, inviteCode, statusAt } from './site-support.ts';
import { setSpecUpstream } from './spec-support.ts';
import { attachPhoto, photo, RETURN_BODY, runCli, tempDir, tracking, waitFor } from './support.ts';

/*
 * Moving a site's hub as real processes (site-promote and site-lost-hub suites): stations started
 * over TLS or loopback, a receipt as the dock makes it, and what the returns service must have seen.
 */

export interface SiteStation {
  station: RunningStation;
  api: ApiClient;
}

export const QUIET_ENV = { RETURNS_STATION_LOG_LEVEL: 'warn' };
/** Members poll their hub every second; a hub polling the returns service that often would spend its budget on reads. */
export const MEMBER_ENV = { ...QUIET_ENV, RETURNS_STATION_SYNC_INTERVAL_MS: '1000' };

/** A station on the site network (`--host`, TLS): the API client trusts its site authority alone. */
export async function startTlsStation(dataDir: string, port: number, env: Record<string, string> = QUIET_ENV): Promise<SiteStation> {
  const station = await startStation({ dataDir, args: ['--host', '0.0.0.0', '--port', String(port)], env });
  const ca = readFileSync(join(dataDir, 'tls', 'site-ca.pem'), 'utf8');
  return { station, api: new ApiClient({ baseUrl: station.origin, token: station.stationToken, fetch: fetchTrusting({ ca }) }) };
}

/** A member on loopback, polling its hub every second. */
export async function startMemberStation(dataDir: string): Promise<SiteStation> {
  const station = await startStation({ dataDir, env: MEMBER_ENV });
  return { station, api: new ApiClient({ baseUrl: station.origin, token: station.stationToken }) };
}

/** Runs the command line; its stderr, or an error when it exits non-zero. */
export async function cli(args: string[], input?: string): Promise<string> {
  const ran = await runCli(args, input === undefined ? {} : { input });
  if (ran.status !== 0) throw new Error(`${args.join(' ')} exited ${ran.status}: ${ran.stderr}`);
  return ran.stderr;
}

/** Receives the package at the station with `units` units of its return's first line (and a photo when `photoSeed` is given). */
export async function receiveAt(
  at: SiteStation,
  account: number,
  trackingNumber: string,
  units: Array<'new' | 'damaged' | 'good'>,
  photoSeed?: number,
): Promise<void> {
  const found = (await at.api.lookup(trackingNumber)).packages[0];
  if (!found) throw new Error(`${trackingNumber} is not on the station`);
  const line = (await at.api.getReturn(account, found.return_id)).return_line_items[0];
  if (!line) throw new Error('the return has no line');
  for (const condition of units) await at.api.createLineItem(account, found.id, { return_line_item_id: line.id, condition });
  if (photoSeed !== undefined) await attachPhoto(at.api, account, found.id, photo(photoSeed, 4));
  await at.api.updatePackage(account, found.id, { status: 'received', notes: `received at ${at.station.origin}` });
}

export const pendingAt = async (at: SiteStation) => (await at.api.station()).sync.pending_changes;

/** The station's changes held for a person, as "TRACKING CODE". */
export const heldAt = async (at: SiteStation) => (await at.api.listSyncChanges({ state: ['parked'] })).data.map((c) => `${c.label} ${c.error?.code ?? ''}`);

/** The returns service saw each package created once, each receipt once, each unit and photo it holds sent once (a replaced unit: a delete and a create). */
export function expectEachOnce(fake: FakeReturnsService, account: number, returns: number): void {
  // A write whose answer was lost was committed all the same.
  const requests = fake.requests.filter((r) => r.status === 'lost' || r.status < 300);
  for (const p of fake.packages(account)) {
    const path = `/return_packages/${p.id}`;
    expect(
      fake.packages(account).filter((q) => q.tracking_number === p.tracking_number),
      `${p.tracking_number} upstream`,
    ).toHaveLength(1);
    const receipts = requests.filter((r) => r.method === 'PATCH' && r.path.endsWith(path) && (JSON.parse(r.body) as { status?: string }).status === 'received');
    expect(receipts.length, `receipts of ${p.tracking_number}`).toBe(p.status === 'received' ? 1 : 0);
    const unitCreates = requests.filter((r) => r.method === 'POST' && r.path.endsWith(`${path}/line_items`));
    // A unit changed after it went up is replaced (the spec has no line item update): a delete, then a create.
    const unitDeletes = requests.filter((r) => r.method === 'DELETE' && r.path.includes(`${path}/line_items/`));
    expect(unitCreates.length, `unit creates of ${p.tracking_number}`).toBe(p.line_items.length + unitDeletes.length);
    const uploads = requests.filter((r) => r.method === 'POST' && r.path.endsWith(`${path}/media_files`));
    expect(uploads.length, `photo uploads of ${p.tracking_number}`).toBe(p.media_files.length);
  }
  const packageCreates = requests
    .filter((r) => r.method === 'POST' && /\/return_packages$/.test(r.path))
    .map((r) => (JSON.parse(r.body) as { tracking_number: string }).tracking_number);
  expect(new Set(packageCreates).size).toBe(packageCreates.length);
  expect(requests.filter((r) => r.method === 'POST' && /\/returns$/.test(r.path))).toHaveLength(returns);
  expect(fake.returns(account)).toHaveLength(returns);
}

/** A site about to move its hub: A the hub, B and C its members; their data directories, removed by the test at its end. */
export interface MovingSite {
  fake: FakeReturnsService;
  a: SiteStation;
  b: SiteStation;
  c: SiteStation;
  /** Open packages of one return made at A, on B and C and upstream. */
  trackings: string[];
  returnId: number;
  dirs: string[];
}

/**
 * The spec-only fake in unfriendly modes (newest first, 25 a page, no body on a return's create, 204
 * on PATCH, line items without update), a hub A on it (`serve --host`) with `packages` open packages
 * of one return, and members B and C joined with `site join`, each holding them.
 */
export async function startMovingSite(name: string, account: number, packages: number): Promise<MovingSite> {
  const fake = await startFakeReturnsService({
    accounts: [account],
    modes: { lineItemRoutes: true, mediaRoutes: true, order: 'id_desc', defaultPerPage: 25, pageCap: 25, returnCreateBody: 'empty', patchStatus: 204 },
  });
  const [aDir, bDir, cDir] = ['a', 'b', 'c'].map((side) => tempDir(`${name}-${side}-`)) as [string, string, string];
  await setSpecUpstream(aDir, fake, [account]);
  const a = await startTlsStation(aDir, await freePort());
  const ret = await a.api.createReturn({ ...RETURN_BODY, account_id: account });
  const trackings: string[] = [];
  for (let i = 0; i < packages; i += 1)
    trackings.push((await a.api.createPackage(account, { return_id: ret.id, tracking_number: tracking(name.toUpperCase()) })).tracking_number);
  await cli(['site', 'join', a.station.origin, '--code', await inviteCode(aDir), '--name', 'dock B', '--data-dir', bDir]);
  await cli(['site', 'join', a.station.origin, '--code', await inviteCode(aDir), '--name', 'dock C', '--data-dir', cDir]);
  const b = await startMemberStation(bDir);
  const c = await startMemberStation(cDir);
  for (const station of [b, c])
    await waitFor('the hub’s packages on the member', async () => (await statusAt(station.api, trackings.at(-1) ?? '')) !== undefined, 60_000);
  const upstream = (t: string) => fake.packages(account).filter((p) => p.tracking_number === t).length;
  await waitFor('the packages upstream', async () => trackings.every((t) => upstream(t) === 1), 60_000);
  return { fake, a, b, c, trackings, returnId: ret.id, dirs: [aDir, bDir, cDir] };
}
