import { readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '#shared/api/client.ts';
import { acceptJoin, createInvite } from '../../electron/station/site/hub.ts';
import { joinKeyOf, joinProof, newJoinNonce, normalJoinCode } from '../../electron/station/site/join-code.ts';
import { openStore } from '../../electron/station/store/index.ts';
import { fetchTrusting, sha256Fingerprint } from '../../electron/station/tls/pinned-fetch.ts';
import { servingNames } from '../../electron/station/tls/serving-names.ts';
import { keepStationCertificates } from '../../electron/station/tls/station-certificates.ts';
import { type RunningStation, startStation } from '../support/station-process.ts';
import { type FakeReturnsService, startFakeReturnsService } from './fake-returns-service.ts';
import { inviteCode, statusAt } from './site-support.ts';
import { setSpecUpstream } from './spec-support.ts';
import { RETURN_BODY, runCli, startLocal, tempDir, tracking, waitFor } from './support.ts';

/*
 * Joining a site in one step (docs/decisions/site-join.md), through the doors an operator uses: a
 * hub (`serve --host 0.0.0.0`, TLS with its own authority) on the spec-only fake; `site invite` on
 * the hub's command line; `site join` on one station while it is stopped and on one while it runs;
 * a receipt travels; a machine in the middle is refused and nothing is stored; `site show`,
 * `site remove` and what a removed station keeps across a restart.
 */

const ACCOUNT = 1;
const ENV = { RETURNS_STATION_LOG_LEVEL: 'warn' };

let fake: FakeReturnsService;
let hubDir: string;
let hub: RunningStation;
let hubApi: ApiClient;
const dirs: string[] = [];
const trackings: string[] = [];
let a: { station: RunningStation; api: ApiClient };
let b: { station: RunningStation; api: ApiClient };

const newDir = (prefix: string) => {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
};
const invite = (): Promise<string> => inviteCode(hubDir);
const upstreamOf = async (dataDir: string) => (await runCli(['upstream', 'show', '--data-dir', dataDir])).stdout;

beforeAll(async () => {
  fake = await startFakeReturnsService({ accounts: [ACCOUNT] });
  hubDir = newDir('site-join-hub-');
  await setSpecUpstream(hubDir, fake, [ACCOUNT]);
  hub = await startStation({ dataDir: hubDir, args: ['--host', '0.0.0.0'], env: ENV });
  hubApi = new ApiClient({
    baseUrl: hub.origin,
    token: hub.stationToken,
    fetch: fetchTrusting({ ca: readFileSync(join(hubDir, 'tls', 'site-ca.pem'), 'utf8') }),
  });
  const ret = await hubApi.createReturn({ ...RETURN_BODY, account_id: ACCOUNT });
  for (let i = 0; i < 3; i += 1)
    trackings.push((await hubApi.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('JOIN') })).tracking_number);
}, 60_000);

afterAll(async () => {
  await a?.station.stop();
  await b?.station.stop();
  await hub?.stop();
  await fake?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('a site joined in one step', { timeout: 120_000 }, () => {
  it('joins one station stopped and one running; a receipt at one reaches the hub, the other and the returns service once; site show lists both', async () => {
    const invited = await runCli(['site', 'invite', '--data-dir', hubDir]);
    expect(invited.stderr).toContain(`Hub address: ${hub.origin}`);
    expect(invited.stderr).toContain(`Hub certificate authority (SHA-256): ${hub.tlsFingerprint}`);
    const dirA = newDir('site-join-a-');
    const joinedA = await runCli(['site', 'join', hub.origin, '--code', invited.stdout.trim(), '--name', 'dock A', '--data-dir', dirA]);
    expect(joinedA.status, joinedA.stderr).toBe(0);
    expect(joinedA.stderr).toContain(`the hub's certificate authority ${hub.tlsFingerprint} is pinned`);
    a = await startLocal(dirA, ENV);

    b = await startLocal(newDir('site-join-b-'), ENV);
    const joinedB = await runCli(['site', 'join', hub.origin, '--code', await invite(), '--name', 'dock B', '--data-dir', b.station.dataDir]);
    expect(joinedB.status, joinedB.stderr).toBe(0);
    expect((await b.api.site()).hub).toEqual({ url: hub.origin, ca_sha256: hub.tlsFingerprint, next_ca_sha256: null, member_id: '2', removed: false });
    // Wherever sync is shown, the hub is named (the header's indicator says "Hub offline" while it is away).
    expect((await b.api.station()).sync.hub).toEqual({ url: hub.origin });

    const first = trackings[0] ?? '';
    for (const { api } of [a, b]) {
      await waitFor(
        'the hub’s packages on the member',
        async () => (await api.station()).sync.upstream_events === 'following' && (await statusAt(api, first)) !== undefined,
        60_000,
      );
    }
    const local = (await a.api.lookup(first)).packages[0];
    if (!local) throw new Error('not on A');
    await a.api.updatePackage(ACCOUNT, local.id, { status: 'received' });
    await waitFor('the receipt on B', async () => (await statusAt(b.api, first)) === 'received', 30_000);
    await waitFor('the receipt upstream', async () => fake.packages(ACCOUNT).find((p) => p.tracking_number === first)?.status === 'received', 30_000);
    expect(fake.requests.filter((r) => r.method === 'PATCH' && r.status === 200)).toHaveLength(1);

    await waitFor(
      'both members’ contact',
      async () => (await hubApi.site()).members.every((m) => m.last_contact_at !== null && m.pending_changes === 0),
      30_000,
    );
    const shown = await runCli(['site', 'show', '--data-dir', hubDir]);
    expect(shown.status, shown.stderr).toBe(0);
    const rows = shown.stdout.split('\n').filter((line) => /^\d+ {2}/.test(line));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^1 +dock A +\S+ +\d{4}-\S+ +0 +member$/);
    expect(rows[1]).toMatch(/^2 +dock B +\S+ +\d{4}-\S+ +0 +member$/);
  });

  it('refuses a used, a wrong and a malformed code with a clear message and exit code, storing nothing; wrong proofs burn a code', async () => {
    const code = await invite();
    const joined = await runCli(['site', 'join', hub.origin, '--code', code, '--data-dir', newDir('site-join-once-')]);
    expect(joined.status, joined.stderr).toBe(0);
    const reusedDir = newDir('site-join-reused-');
    const reused = await runCli(['site', 'join', hub.origin, '--code', code, '--data-dir', reusedDir]);
    expect(reused.status).toBe(1);
    expect(reused.stderr).toMatch(/JOIN_CODE_REFUSED\): This join code was used at .*Nothing was stored\.$/m);
    expect(await upstreamOf(reusedDir)).toBe('No upstream is set: sync is off.\n');

    const fresh = await invite();
    const wrongSecret = `${fresh.slice(0, -1)}${fresh.endsWith('0') ? '1' : '0'}`;
    const target = newDir('site-join-wrong-');
    for (let i = 1; i <= 3; i += 1) {
      const wrong = await runCli(['site', 'join', hub.origin, '--code', wrongSecret, '--data-dir', target]);
      expect(wrong.status).toBe(1);
      expect(wrong.stderr).toContain('JOIN_PROOF_WRONG');
      expect(wrong.stderr.includes('The code is burned now.')).toBe(i === 3);
    }
    const burned = await runCli(['site', 'join', hub.origin, '--code', fresh, '--data-dir', target]);
    expect(burned.status).toBe(1);
    expect(burned.stderr).toContain('burned');
    expect(await upstreamOf(target)).toBe('No upstream is set: sync is off.\n');

    const malformed = await runCli(['site', 'join', hub.origin, '--code', 'ABC-123', '--data-dir', target]);
    expect(malformed.status).toBe(1);
    expect(malformed.stderr).toContain('That is not a join code');
    const noCode = await runCli(['site', 'join', hub.origin, '--data-dir', target]);
    expect(noCode.status).toBe(2);
    expect(await upstreamOf(target)).toBe('No upstream is set: sync is off.\n');
  });

  it('refuses a machine in the middle at join time: one that forwards to the hub with its own certificate, and one that answers on its own', async () => {
    const certs = await keepStationCertificates(newDir('site-join-mitm-'), servingNames('127.0.0.1'), Date.now());
    const chain = `${certs.certPem}${certs.caPem}`;
    const hubUrl = new URL(hub.origin);
    const forwarding: TlsServer = createTlsServer({ key: certs.keyPem, cert: chain }, (client) => {
      const upstream = connect({ host: hubUrl.hostname, port: Number(hubUrl.port), rejectUnauthorized: false });
      client.pipe(upstream).pipe(client);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    const answering = createHttpsServer({ key: certs.keyPem, cert: chain }, (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ member_id: 1, hub_proof: '0'.repeat(64), token: 'rst_taken', accounts: [ACCOUNT] }));
    });
    const listen = (server: TlsServer) =>
      new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
    const [forwardPort, answerPort] = [await listen(forwarding), await listen(answering)];
    try {
      const dir = newDir('site-join-middle-');
      const code = await invite();
      const forwarded = await runCli(['site', 'join', `https://127.0.0.1:${forwardPort}`, '--code', code, '--data-dir', dir]);
      expect(forwarded.status).toBe(1);
      expect(forwarded.stderr).toContain('JOIN_PROOF_WRONG');
      expect(forwarded.stderr).toContain(`the station saw ${sha256Fingerprint(certs.caPem)}`);
      const answered = await runCli(['site', 'join', `https://127.0.0.1:${answerPort}`, '--code', code, '--data-dir', dir]);
      expect(answered.status).toBe(1);
      expect(answered.stderr).toContain('does not prove the join code: not trusted, nothing stored');
      expect(await upstreamOf(dir)).toBe('No upstream is set: sync is off.\n');
      // The code was charged one wrong proof, not used: the real hub still takes it.
      const direct = await runCli(['site', 'join', hub.origin, '--code', code, '--data-dir', dir]);
      expect(direct.status, direct.stderr).toBe(0);
    } finally {
      forwarding.close();
      answering.close();
    }
  });

  it('site remove revokes a member at once: its open event stream is cut, its next call is refused, its status says it was removed, its unsent receipt is held across a restart', async () => {
    expect((await a.api.station()).sync.upstream_events).toBe('following');
    const removed = await runCli(['site', 'remove', '1', '--data-dir', hubDir]);
    expect(removed.status, removed.stderr).toBe(0);
    // The stream A had open is cut by the hub and cannot be opened again: A learns it was removed in
    // seconds, with nothing of its own to send (its pull interval is minutes).
    await waitFor(
      'A’s stream cut and A told it was removed',
      async () => (await a.api.station()).sync.upstream_events === 'polling' && (await a.api.site()).hub?.removed === true,
      10_000,
    );
    const second = trackings[1] ?? '';
    const local = (await a.api.lookup(second)).packages[0];
    if (!local) throw new Error('not on A');
    await a.api.updatePackage(ACCOUNT, local.id, { status: 'received' });
    await waitFor('A told it was removed', async () => (await a.api.site()).hub?.removed === true, 30_000);
    const status = (await a.api.station()).sync;
    expect(status.last_error).toMatch(/^Removed from the site by its hub \(401: This station \(member 1, dock A\) was removed from the site/);
    expect(status.pending_changes).toBe(1);

    await a.station.stop();
    a = await startLocal(a.station.dataDir, ENV);
    expect(await statusAt(a.api, second)).toBe('received');
    await waitFor('A’s status after the restart', async () => (await a.api.site()).hub?.removed === true, 30_000);
    expect((await a.api.site()).pending_changes).toBe(1);
    const shown = await runCli(['site', 'show', '--data-dir', a.station.dataDir]);
    expect(shown.stdout).toContain('state: removed from the site by the hub');
    expect(fake.packages(ACCOUNT).find((p) => p.tracking_number === second)?.status).not.toBe('received');
    expect((await hubApi.site()).members.find((m) => m.id === 1)?.removed_at).not.toBeNull();
  });
});

describe('a join code in the hub’s store', () => {
  it('is refused once expired, and a right proof is refused after its 15 minutes', async () => {
    const dir = newDir('site-join-store-');
    const store = await openStore({ dataDir: dir });
    try {
      const t0 = '2026-01-01T00:00:00.000Z';
      await store.write((t) => t.accounts.put({ id: ACCOUNT, name: 'Account 1', created_at: t0 }));
      const { code, expires_at } = await store.write((t) => createInvite(t, t0));
      expect(expires_at).toBe('2026-01-01T00:15:00.000Z');
      const normal = normalJoinCode(code);
      if (!normal) throw new Error('not a code');
      const ca = 'AA:'.repeat(31) + 'AA';
      const nonce = newJoinNonce();
      const request = { invite: normal.invite, nonce, ca_sha256: ca, proof: joinProof(joinKeyOf(normal.code), 'join', ca, nonce), name: 'late' };
      const late = await store.write((t) => acceptJoin(t, '2026-01-01T00:15:00.001Z', request, ca));
      expect(late).toEqual({ kind: 'refused', why: 'This join code expired at 2026-01-01T00:15:00.000Z.' });
      const inTime = await store.write((t) => acceptJoin(t, '2026-01-01T00:14:59.999Z', request, ca));
      expect(inTime.kind).toBe('joined');
    } finally {
      await store.close();
    }
  });
});
