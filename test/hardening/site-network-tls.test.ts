import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isIP } from 'node:net';
import { connect, type PeerCertificate } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchTrusting } from '../../electron/station/tls/pinned-fetch.ts';
import { keepStationCertificates } from '../../electron/station/tls/station-certificates.ts';
import { STATION_BIN, startStation } from '../support/station-process.ts';

/*
 * A station on the site's network (docs/decisions/hub-tls.md): the real `returns-station serve
 * --host 0.0.0.0` on a real data directory, called over HTTPS by clients that trust the station's
 * certificate authority alone (never told to skip verification).
 */

const root = mkdtempSync(join(tmpdir(), 'station-site-tls-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const newDir = () => join(root, `d${++dirs}`);
const run = (...args: string[]) => spawnSync(process.execPath, [STATION_BIN, ...args], { encoding: 'utf8', timeout: 20_000 });

/** The certificate chain the station serves at `origin`, read by a TLS client trusting `ca` only. */
function servedChain(origin: string, ca: string): Promise<{ served: PeerCertificate; top: PeerCertificate }> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(
      { host: url.hostname, port: Number(url.port), ca, ...(isIP(url.hostname.replace(/^\[|\]$/g, '')) === 0 ? { servername: url.hostname } : {}) },
      () => {
        const served = socket.getPeerCertificate(true);
        let top = served;
        while (top.issuerCertificate && top.issuerCertificate !== top) top = top.issuerCertificate;
        socket.end();
        resolve({ served, top });
      },
    );
    socket.once('error', reject);
  });
}

// Each case starts `serve` two to four times (a few seconds each on a loaded machine).
describe('serve on the site network', { timeout: 90_000 }, () => {
  it("beyond loopback serves HTTPS only, with a CA it makes once and keeps; the printed fingerprint is the served chain's, also in GET /api/v1/station", async () => {
    const dataDir = newDir();
    const station = await startStation({ dataDir, args: ['--host', '0.0.0.0'] });
    const [ready, link, tlsLine] = station.output().stdout.split('\n');
    expect(ready).toMatch(/^Returns station listening on https:\/\/\S+:\d+$/);
    expect(link).toMatch(/^Open the station UI: https:\/\//);
    expect(tlsLine).toMatch(/^TLS certificate to trust \(SHA-256\): ([0-9A-F]{2}:){31}[0-9A-F]{2}$/);

    const ca = readFileSync(join(dataDir, 'tls', 'site-ca.pem'), 'utf8');
    const chain = await servedChain(station.origin, ca);
    expect(chain.top.fingerprint256).toBe(station.tlsFingerprint);
    expect(chain.served.fingerprint256).not.toBe(station.tlsFingerprint);

    const trusting = fetchTrusting({ ca });
    const status = await trusting(`${station.origin}/api/v1/station`, { headers: { authorization: `Bearer ${station.uiToken}` } });
    expect(status.status).toBe(200);
    const body = (await status.json()) as {
      address: { origin: string; tls: { source: string; fingerprint_sha256: string; serving_certificate_expires_at: string } | null };
    };
    expect(body.address).toEqual({
      origin: station.origin,
      tls: { source: 'station', fingerprint_sha256: station.tlsFingerprint, serving_certificate_expires_at: new Date(chain.served.valid_to).toISOString() },
    });
    // The log says it too.
    expect(station.output().stderr).toContain(`"fingerprint_sha256":"${station.tlsFingerprint}"`);

    // Plain HTTP on that port gets no answer; a client trusting only the system's authorities is refused.
    await expect(fetch(station.origin.replace('https:', 'http:') + '/healthz')).rejects.toThrow();
    await expect(fetch(`${station.origin}/healthz`)).rejects.toThrow();
    // A token command talks to it as the operator would (over the pinned TLS of the control file).
    const tokens = run('token', 'list', '--data-dir', dataDir);
    expect(tokens.stderr).toBe('');
    expect(tokens.stdout).toContain('Command line of serve on https://');
    expect(await station.stop()).toBe(0);

    const again = await startStation({ dataDir, args: ['--host', '0.0.0.0'] });
    expect(again.tlsFingerprint).toBe(station.tlsFingerprint);
    expect((await servedChain(again.origin, ca)).served.fingerprint256).toBe(chain.served.fingerprint256);
    expect((await trusting(`${again.origin}/healthz`)).status).toBe(200);
    expect(again.output().stderr).toContain('"made":"none"');
    expect(await again.stop()).toBe(0);
  });

  it("serves the site's own certificate files, on loopback too, pinning the top of the chain given", async () => {
    const site = newDir();
    const made = await keepStationCertificates(site, { dns: ['localhost'], ips: ['127.0.0.1'] }, Date.now());
    // Glued as some tools write them: no line break between the blocks.
    writeFileSync(join(root, 'site-chain.crt'), made.certPem.trimEnd() + made.caPem);
    writeFileSync(join(root, 'site.key'), made.keyPem, { mode: 0o600 });
    const station = await startStation({
      dataDir: newDir(),
      args: ['--host', '127.0.0.1', '--tls-cert', join(root, 'site-chain.crt'), '--tls-key', join(root, 'site.key')],
    });
    expect(station.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const chain = await servedChain(station.origin, made.caPem);
    expect(chain.top.fingerprint256).toBe(station.tlsFingerprint);
    const body = (await (
      await fetchTrusting({ ca: made.caPem })(`${station.origin}/api/v1/station`, { headers: { authorization: `Bearer ${station.uiToken}` } })
    ).json()) as { address: { tls: { source: string } } };
    expect(body.address.tls.source).toBe('site');
    expect(await station.stop()).toBe(0);
  });

  it('on loopback without certificate files stays plain HTTP, as always', async () => {
    const station = await startStation({ args: ['--host', '127.0.0.1'] });
    expect(station.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(station.tlsFingerprint).toBeNull();
    const body = (await (await fetch(`${station.origin}/api/v1/station`, { headers: { authorization: `Bearer ${station.uiToken}` } })).json()) as {
      address: unknown;
    };
    expect(body.address).toEqual({ origin: station.origin, tls: null });
    expect(await station.stop()).toBe(0);
  });

  it('refuses bad TLS input plainly: half a pair, unreadable files, a key of another certificate, an expired certificate', async () => {
    const a = await keepStationCertificates(newDir(), { dns: ['localhost'], ips: [] }, Date.now());
    const b = await keepStationCertificates(newDir(), { dns: ['localhost'], ips: [] }, Date.now());
    const expired = await keepStationCertificates(newDir(), { dns: ['localhost'], ips: [] }, Date.now() - 800 * 24 * 60 * 60 * 1000);
    const file = (name: string, text: string) => {
      writeFileSync(join(root, name), text);
      return join(root, name);
    };
    const [certA, keyA, keyB, certOld, keyOld] = [
      file('a.crt', a.certPem),
      file('a.key', a.keyPem),
      file('b.key', b.keyPem),
      file('old.crt', expired.certPem),
      file('old.key', expired.keyPem),
    ];
    const serve = (...args: string[]) => run('serve', '--port', '0', '--host', '0.0.0.0', '--data-dir', newDir(), ...args);

    const half = serve('--tls-cert', certA);
    expect(half.status).toBe(2);
    expect(half.stderr).toContain('returns-station: A TLS certificate needs its private key: give --tls-key too.');
    const cases: Array<[string[], string]> = [
      [['--tls-cert', join(root, 'nowhere.crt'), '--tls-key', keyA], `The certificate file --tls-cert ${join(root, 'nowhere.crt')} cannot be read (ENOENT).`],
      [['--tls-cert', certA, '--tls-key', keyB], `--tls-key ${keyB} is not the private key of the certificate in ${certA}`],
      [['--tls-cert', certOld, '--tls-key', keyOld], `The certificate in ${certOld} expired on `],
    ];
    for (const [args, message] of cases) {
      const refused = serve(...args);
      expect(refused.status, refused.stderr).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(`returns-station: ${message}`);
      expect(refused.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
  });
});
