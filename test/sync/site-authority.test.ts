import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ApiClient } from '#shared/api/client.ts';
import { fetchTrusting } from '../../electron/station/tls/pinned-fetch.ts';
import { servingNames } from '../../electron/station/tls/serving-names.ts';
import { CA_VALID_DAYS, keepStationCertificates } from '../../electron/station/tls/station-certificates.ts';
import { type RunningStation, startStation } from '../support/station-process.ts';
import { type FakeReturnsService, startFakeReturnsService } from './fake-returns-service.ts';
import { inviteCode, statusAt } from './site-support.ts';
import { setSpecUpstream } from './spec-support.ts';
import { RETURN_BODY, runCli, startLocal, tempDir, tracking, waitFor } from './support.ts';

/*
 * The hub's site authority nears its end (docs/decisions/hub-tls.md, "The authority's successor"):
 * a year before, the hub makes the successor and announces it to its members over the pinned
 * channel; 30 days before, it serves the successor. A member that joined before keeps syncing across
 * the roll without a new join, and after its own restart the successor is its pin. Real `serve`
 * processes over TLS; the hub's authority is made aged (ending in 200 days, then replaced by one
 * ending in 20) so the real clock reaches each step.
 */

const ACCOUNT = 1;
const DAY = 24 * 60 * 60 * 1000;
const ENV = { RETURNS_STATION_LOG_LEVEL: 'warn', RETURNS_STATION_SYNC_INTERVAL_MS: '1000' };

let fake: FakeReturnsService | undefined;
let hub: RunningStation | undefined;
let member: Awaited<ReturnType<typeof startLocal>> | undefined;
const dirs: string[] = [];

afterAll(async () => {
  await member?.station.stop();
  await hub?.stop();
  await fake?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

const newDir = (prefix: string) => {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
};
/** A data directory whose own authority ends `days` from now, as a station would have made it 20 years before. */
async function agedAuthority(days: number): Promise<string> {
  const dir = newDir('aged-ca-');
  await keepStationCertificates(dir, servingNames('0.0.0.0'), Date.now() - (CA_VALID_DAYS - days) * DAY);
  return dir;
}
const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

it('a member takes the successor the hub announces, keeps syncing when the hub serves it, and pins it after a restart — no new join', async () => {
  fake = await startFakeReturnsService({ accounts: [ACCOUNT] });
  const hubDir = newDir('site-authority-hub-');
  await setSpecUpstream(hubDir, fake, [ACCOUNT]);
  // The hub's authority ends in 200 days: at start the hub makes its successor and keeps serving the authority.
  await keepStationCertificates(hubDir, servingNames('0.0.0.0'), Date.now() - (CA_VALID_DAYS - 200) * DAY);
  const authority = readFileSync(join(hubDir, 'tls', 'site-ca.pem'), 'utf8');
  hub = await startStation({ dataDir: hubDir, args: ['--host', '0.0.0.0'], env: ENV });
  expect(hub.tlsFingerprint).toBe(fingerprint(authority));
  const successor = readFileSync(join(hubDir, 'tls', 'site-ca-next.pem'), 'utf8');
  expect(fingerprint(successor)).not.toBe(fingerprint(authority));
  const port = new URL(hub.origin).port;
  const hubApi = () => new ApiClient({ baseUrl: hub?.origin ?? '', token: hub?.stationToken ?? '', fetch: fetchTrusting({ ca: [authority, successor] }) });
  const ret = await hubApi().createReturn({ ...RETURN_BODY, account_id: ACCOUNT });
  const first = (await hubApi().createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('ROLL') })).tracking_number;

  // A member joins (stopped), starts, and takes the successor from its hub.
  const memberDir = newDir('site-authority-member-');
  const joined = await runCli(['site', 'join', hub.origin, '--code', await inviteCode(hubDir), '--name', 'dock A', '--data-dir', memberDir]);
  expect(joined.status, joined.stderr).toBe(0);
  member = await startLocal(memberDir, ENV);
  const api = member.api;
  await waitFor('the successor announced to the member', async () => (await api.site()).hub?.next_ca_sha256 === fingerprint(successor), 30_000);
  expect((await api.site()).hub?.ca_sha256).toBe(fingerprint(authority));
  await waitFor('the hub’s package on the member', async () => (await statusAt(api, first)) !== undefined, 30_000);
  const shown = await runCli(['site', 'show', '--data-dir', memberDir]);
  expect(shown.stdout + shown.stderr).toContain(fingerprint(successor));

  // The hub stops; its authority is now 20 days from its end (replaced by an aged one), so at start it serves the successor.
  await hub.stop();
  const ending = await agedAuthority(20);
  for (const file of ['site-ca.pem', 'site-ca.key']) copyFileSync(join(ending, 'tls', file), join(hubDir, 'tls', file));
  hub = await startStation({ dataDir: hubDir, args: ['--host', '0.0.0.0', '--port', port], env: ENV });
  expect(hub.tlsFingerprint).toBe(fingerprint(successor));
  expect(hub.output().stderr + hub.output().stdout).toContain('rolled to its successor');

  // The member keeps syncing with no new join: a package made at the hub now reaches it, and its receipt goes back.
  const second = (await hubApi().createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('ROLL') })).tracking_number;
  await waitFor('a package made after the roll on the member', async () => (await statusAt(api, second)) !== undefined, 60_000);
  const found = (await api.lookup(second)).packages[0];
  if (!found) throw new Error('not on the member');
  await api.updatePackage(ACCOUNT, found.id, { status: 'received' });
  await waitFor('the receipt at the hub', async () => (await statusAt(hubApi(), second)) === 'received', 60_000);
  expect((await api.station()).sync.state).not.toBe('error');

  // Restarted on its data directory, the member asks again: the successor is its pin, and nothing else is trusted beside it.
  await member.station.stop();
  member = await startLocal(memberDir, ENV);
  const again = member.api;
  await waitFor('the successor is the pin', async () => (await again.site()).hub?.ca_sha256 === fingerprint(successor), 30_000);
  expect((await again.site()).hub?.next_ca_sha256).toBeNull();
}, 240_000);
