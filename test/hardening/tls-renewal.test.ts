import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { openStation, type Station } from '../../electron/station/station.ts';
import { fetchTrusting } from '../../electron/station/tls/pinned-fetch.ts';
import { SERVING_VALID_DAYS } from '../../electron/station/tls/station-certificates.ts';

/*
 * A hub that runs past its serving certificate's renewal window renews it while it serves
 * (tls/renewal.ts): a client that pins the site authority keeps connecting, with no restart and no
 * new pin. Read back from the TLS handshake itself (node:tls), not from the station's own report.
 */

const DAY = 24 * 60 * 60 * 1000;
const started: Array<{ station: Station; dir: string }> = [];
afterEach(async () => {
  for (const { station, dir } of started.splice(0)) {
    await station.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The certificate a TLS client is served at `origin` (its chain is not checked here: the pinned fetch does that). */
function servedCertificate(origin: string): Promise<X509Certificate> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false, servername: 'localhost' }, () => {
      const der = socket.getPeerCertificate().raw;
      socket.end();
      resolve(new X509Certificate(der));
    });
    socket.once('error', reject);
  });
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a serving station renews its serving certificate while it runs', () => {
  it('past the renewal window a new serving certificate under the same authority is served; a client pinning the authority keeps working', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tls-renewal-'));
    // The station's clock starts 368 days back and moves to the real now, which the client's TLS checks against.
    const realNow = Date.now();
    let now = realNow - (SERVING_VALID_DAYS - 29) * DAY;
    const station = await openStation({
      dataDir: dir,
      rendererDir: join(dir, 'no-renderer'),
      logLevel: 'silent',
      sync: false,
      clock: { now: () => new Date(now).toISOString() },
      tls: { source: 'station', host: '127.0.0.1' },
      tlsRenewalCheckMs: 100,
    });
    started.push({ station, dir });
    const origin = await station.listen('127.0.0.1', 0);
    const firstTls = station.tls;
    if (!firstTls) throw new Error('the station serves no TLS');
    const authority = new X509Certificate(firstTls.trustPem);
    const first = await servedCertificate(origin);
    expect(first.fingerprint256).toBe(firstTls.servedSha256);
    const token = (await createToken(station.store, station.ctx.clock, { scope: 'station', accountId: null, name: 'renewal test' })).secret;
    const pinned = fetchTrusting({ ca: firstTls.trustPem });

    // A day short of the renewal window: nothing changes.
    now = realNow - 2 * DAY;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await servedCertificate(origin)).fingerprint256).toBe(first.fingerprint256);

    // Within 30 days of its end: renewed under the same authority, within a look or two.
    now = realNow;
    const renewed = await until(
      () => servedCertificate(origin),
      (cert) => cert.fingerprint256 !== first.fingerprint256,
      5_000,
    );
    expect(renewed.fingerprint256).not.toBe(first.fingerprint256);
    expect(renewed.checkIssued(authority)).toBe(true);
    expect(renewed.verify(authority.publicKey)).toBe(true);
    expect(renewed.validToDate.getTime()).toBeGreaterThan(first.validToDate.getTime() + 300 * DAY);
    expect(station.tls?.trustSha256).toBe(firstTls.trustSha256);

    // The client that pinned the authority at the start still connects, and the station reports the new end.
    const answer = await pinned(`${origin}/api/v1/station`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { address: { tls: { fingerprint_sha256: string; serving_certificate_expires_at: string } } };
    expect(body.address.tls.fingerprint_sha256).toBe(authority.fingerprint256);
    expect(body.address.tls.serving_certificate_expires_at).toBe(renewed.validToDate.toISOString());
  });
});
