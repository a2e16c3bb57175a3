import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError } from '#shared/api/client.ts';
import { DEFAULT_DISPOSITION_RULES } from '#shared/dispositions.ts';
import { fetchTrusting } from '../../electron/station/tls/pinned-fetch.ts';
import { type RunningStation, startStation } from '../support/station-process.ts';
import { type FakeReturnsService, startFakeReturnsService } from './fake-returns-service.ts';
import { freePort, inviteCode } from './site-support.ts';
import { setSpecUpstream } from './spec-support.ts';
import { RETURN_BODY, runCli, startLocal, tempDir, tracking, waitFor } from './support.ts';

/*
 * One site (docs/decisions/site-config.md), through the doors a user walks through: a hub (`serve
 * --host 0.0.0.0`, TLS) on the spec-only fake and two members that joined it with `site join` — one
 * stopped with workers of its own, one running. The hub's workers, rules and rule-like settings reach
 * both members within seconds and decide there; a member refuses to change them (409 naming the hub);
 * a member restarted while the hub is away keeps the last configuration it took.
 */

const ACCOUNT = 1;
const ENV = { RETURNS_STATION_LOG_LEVEL: 'warn' };
/** The target: a change at the hub on every member within seconds. */
const SECONDS = 5_000;

let fake: FakeReturnsService;
let hubDir: string;
let hubPort: number;
let hub: RunningStation;
let hubApi: ApiClient;
const dirs: string[] = [];
const trackings: string[] = [];
let a: { station: RunningStation; api: ApiClient };
let b: { station: RunningStation; api: ApiClient };
/** Member A's own workers before it joined: their local ids. */
let shared: { id: number; uid: string };
let own: { id: number; uid: string };

const newDir = (prefix: string) => {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
};
const invite = (): Promise<string> => inviteCode(hubDir);
const startHub = async () => {
  hub = await startStation({ dataDir: hubDir, args: ['--host', '0.0.0.0', '--port', String(hubPort)], env: ENV });
  hubApi = new ApiClient({
    baseUrl: hub.origin,
    token: hub.stationToken,
    fetch: fetchTrusting({ ca: readFileSync(join(hubDir, 'tls', 'site-ca.pem'), 'utf8') }),
  });
};
const operatorByBadge = async (api: ApiClient, badge: string) => (await api.listOperators({ per_page: 100 })).data.find((o) => o.badge_code === badge);
/** A package the hub made, as the member has it (each station has its own ids), with a new line item of that condition. */
const damagedBin = (table: { rules: Array<{ name: string | null; bin: string }> }) => table.rules.find((rule) => rule.name === 'Damaged')?.bin;
const itemAt = async (api: ApiClient, trackingNumber: string, condition: 'new' | 'good' | 'damaged') => {
  const pkg = (await api.lookup(trackingNumber)).packages[0];
  if (!pkg) throw new Error(`${trackingNumber} is not on the member`);
  return api.createLineItem(ACCOUNT, pkg.id, { condition });
};

beforeAll(async () => {
  fake = await startFakeReturnsService({ accounts: [ACCOUNT] });
  hubDir = newDir('site-config-hub-');
  hubPort = await freePort();
  await setSpecUpstream(hubDir, fake, [ACCOUNT]);
  await startHub();
  await hubApi.createOperator({ name: 'Hub Hana', badge_code: 'SHARED-1', role: 'worker' });
  const ret = await hubApi.createReturn({ ...RETURN_BODY, account_id: ACCOUNT });
  for (let i = 0; i < 4; i += 1)
    trackings.push((await hubApi.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('CONF') })).tracking_number);

  // Member A has workers of its own before it joins (stopped): one whose badge the hub has, one new.
  const dirA = newDir('site-config-a-');
  const alone = await startLocal(dirA, ENV);
  const local = await alone.api.createOperator({ name: 'Local Hana', badge_code: 'shared-1', role: 'worker' });
  const mine = await alone.api.createOperator({ name: 'Otto Own', badge_code: 'A-OWN-7', role: 'supervisor', pin: '4826' });
  shared = { id: local.id, uid: local.uid };
  own = { id: mine.id, uid: mine.uid };
  await alone.api.updateDispositionRules({ rules: [{ name: 'A keeps all', condition: null, defective: null, disposition: 'quarantine', bin: 'A-ONLY' }] });
  expect(await alone.station.stop()).toBe(0);
  const joinedA = await runCli(['site', 'join', hub.origin, '--code', await invite(), '--name', 'dock A', '--data-dir', dirA]);
  expect(joinedA.status, joinedA.stderr).toBe(0);
  a = await startLocal(dirA, ENV);

  b = await startLocal(newDir('site-config-b-'), ENV);
  const joinedB = await runCli(['site', 'join', hub.origin, '--code', await invite(), '--name', 'dock B', '--data-dir', b.station.dataDir]);
  expect(joinedB.status, joinedB.stderr).toBe(0);
  for (const { api } of [a, b]) {
    await waitFor(
      'the member follows the hub',
      async () => (await api.station()).sync.upstream_events === 'following' && (await api.lookup(trackings[0] ?? '')).packages.length === 1,
      60_000,
    );
  }
  // Four starts of a real station and five commands: beside another site suite at a load of 17 on
  // two cores this took more than two minutes.
}, 240_000);

afterAll(async () => {
  await a?.station.stop();
  await b?.station.stop();
  await hub?.stop();
  await fake?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('one site: the hub owns the workers, the rules and the rule-like settings', { timeout: 120_000 }, () => {
  it("merges a joining station's workers by badge: the hub's worker stays the hub's, a new badge joins the site, the member's records keep their ids", async () => {
    const site = (await hubApi.listOperators({ per_page: 100 })).data;
    expect(site.filter((o) => o.badge_code?.toUpperCase() === 'SHARED-1').map((o) => o.name)).toEqual(['Hub Hana']);
    const added = site.find((o) => o.badge_code === 'A-OWN-7');
    expect(added).toMatchObject({ name: 'Otto Own', role: 'supervisor', has_pin: true, uid: own.uid });

    const hana = await waitFor('A took the site’s workers', async () => {
      const found = await operatorByBadge(a.api, 'SHARED-1');
      return found?.name === 'Hub Hana' && found;
    });
    // The same local record: what it did here keeps naming it; it is the hub's worker now (its uid).
    expect(hana.id).toBe(shared.id);
    expect(hana.uid).toBe(site.find((o) => o.name === 'Hub Hana')?.uid);
    expect(hana.uid).not.toBe(shared.uid);
    expect((await operatorByBadge(a.api, 'A-OWN-7'))?.id).toBe(own.id);
    // Otto's PIN travelled as its hash: he signs in as a supervisor at the hub and at B.
    expect((await hubApi.createSupervisorSession({ badge_code: 'A-OWN-7', pin: '4826' })).expires_at).toBeTruthy();
    await waitFor(
      'Otto signs in at B',
      async () => (await b.api.createSupervisorSession({ badge_code: 'A-OWN-7', pin: '4826' }).catch(() => null)) !== null,
      SECONDS,
    );

    // A's own rules from before the join are kept aside and shown; the site's apply.
    const view = await a.api.site();
    expect(view.managed).toMatchObject({ hub_url: hub.origin });
    expect(view.managed?.own_rules_before_join?.rules.map((r) => r.bin)).toEqual(['A-ONLY']);
    expect((await a.api.dispositionRules()).rules.map((r) => r.bin)).toEqual(DEFAULT_DISPOSITION_RULES.map((r) => r.bin));
    expect((await b.api.site()).managed?.own_rules_before_join).toBeNull();
  });

  it('a worker and a supervisor added at the hub sign in at a member within seconds; a rule changed at the hub decides the next disposition there', async () => {
    const started = Date.now();
    await hubApi.createOperator({ name: 'New Nia', badge_code: 'NEW-NIA', role: 'worker' });
    await hubApi.createOperator({ name: 'Sup Sam', badge_code: 'SUP-SAM', role: 'supervisor', pin: '7391' });
    for (const { api } of [a, b]) {
      await waitFor('Nia at the member', async () => (await operatorByBadge(api, 'NEW-NIA'))?.active === true, SECONDS);
      const session = await waitFor(
        'Sam signs in at the member',
        () => api.createSupervisorSession({ badge_code: 'SUP-SAM', pin: '7391' }).catch(() => null),
        SECONDS,
      );
      expect(session.expires_at).toBeTruthy();
    }
    expect(Date.now() - started).toBeLessThan(2 * SECONDS);
    await expect(b.api.createSupervisorSession({ badge_code: 'SUP-SAM', pin: '0000' })).rejects.toMatchObject({ status: 403, errorCode: 'SIGN_IN_REFUSED' });

    expect(await itemAt(b.api, trackings[0] ?? '', 'damaged')).toMatchObject({ disposition: 'liquidate', bin: 'LIQUIDATE' });
    await hubApi.updateDispositionRules({
      rules: DEFAULT_DISPOSITION_RULES.map((rule) => (rule.name === 'Damaged' ? { ...rule, disposition: 'return_to_vendor' as const, bin: 'RTV-DMG' } : rule)),
    });
    await hubApi.updateStationSettings({ unset_conditions: 'allow', currency: 'EUR', weight_check: { tolerance_percent: 4, box_tare: 0.25 } });
    for (const { api } of [a, b]) {
      await waitFor('the hub’s rule at the member', async () => damagedBin(await api.dispositionRules()) === 'RTV-DMG', SECONDS);
      expect(await itemAt(api, trackings[1] ?? '', 'damaged')).toMatchObject({ disposition: 'return_to_vendor', bin: 'RTV-DMG' });
      await waitFor('the hub’s settings at the member', async () => (await api.stationSettings()).currency === 'EUR', SECONDS);
      expect((await api.stationSettings()).unset_conditions).toBe('allow');
      expect((await api.stationSettings()).weight_check).toEqual({ tolerance_percent: 4, tolerance_absolute: 0.1, box_tare: 0.25, unit: 'kg' });
    }
  });

  it("refuses a change of the site's workers, rules or rule-like settings at a member with a 409 naming the hub; its printer stays its own", async () => {
    await b.api.useSupervisorToken((await b.api.createSupervisorSession({ badge_code: 'SUP-SAM', pin: '7391' })).token);
    const nia = (await operatorByBadge(b.api, 'NEW-NIA'))?.id ?? 0;
    const refusals = [
      () => b.api.createOperator({ name: 'Sneaky', badge_code: 'SNEAK-1', role: 'worker' }),
      () => b.api.updateOperator(nia, { name: 'Renamed' }),
      () => b.api.updateDispositionRules({ rules: [{ name: 'All', condition: null, defective: null, disposition: 'dispose', bin: 'X' }] }),
      () => b.api.updateStationSettings({ currency: 'USD' }),
      () => b.api.updateStationSettings({ weight_check: { tolerance_percent: 50 } }),
    ];
    for (const refused of refusals) {
      const error = await refused().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 409, errorCode: 'SITE_MANAGED', details: { hub_url: hub.origin } });
      expect((error as ApiError).message).toContain(`managed by the site's hub at ${hub.origin}`);
    }
    expect(await operatorByBadge(b.api, 'SNEAK-1')).toBeUndefined();
    expect((await operatorByBadge(b.api, 'NEW-NIA'))?.name).toBe('New Nia');
    expect(damagedBin(await b.api.dispositionRules())).toBe('RTV-DMG');
    expect((await b.api.stationSettings()).currency).toBe('EUR');
    expect((await b.api.stationSettings()).weight_check.tolerance_percent).toBe(4);
    // What stays the station's own is still its own to change.
    expect((await b.api.updateStationSettings({ scanner: { prefix: 'F12' } })).scanner).toEqual({ prefix: 'F12', suffix: 'Enter' });
    b.api.useSupervisorToken(null);
  });

  it("answers the site's configuration to a member's token only: never to the hub's own terminal or administrative tokens", async () => {
    const refused = await hubApi.getSiteConfig().then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ status: 403, errorCode: 'NOT_SITE_MEMBER' });
  });

  it('a member stopped while the hub changes and restarted with the hub away keeps the last configuration it took; it takes the change when the hub is back', async () => {
    expect(await b.station.stop()).toBe(0);
    await hubApi.createOperator({ name: 'Late Lou', badge_code: 'LATE-LOU', role: 'worker' });
    await hubApi.updateDispositionRules({ rules: [...DEFAULT_DISPOSITION_RULES] });
    expect(await hub.stop()).toBe(0);

    b = await startLocal(b.station.dataDir, ENV);
    expect(await operatorByBadge(b.api, 'LATE-LOU')).toBeUndefined();
    expect((await operatorByBadge(b.api, 'NEW-NIA'))?.active).toBe(true);
    expect((await b.api.createSupervisorSession({ badge_code: 'SUP-SAM', pin: '7391' })).expires_at).toBeTruthy();
    expect(damagedBin(await b.api.dispositionRules())).toBe('RTV-DMG');
    expect(await itemAt(b.api, trackings[2] ?? '', 'damaged')).toMatchObject({ disposition: 'return_to_vendor', bin: 'RTV-DMG' });
    expect((await b.api.stationSettings()).currency).toBe('EUR');

    await startHub();
    await waitFor('B takes the hub’s change once it is back', async () => (await operatorByBadge(b.api, 'LATE-LOU'))?.active === true, 60_000);
    expect(damagedBin(await b.api.dispositionRules())).toBe('LIQUIDATE');
  });
});
