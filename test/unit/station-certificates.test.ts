import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSiteCertificate, SiteCertificateError } from '../../electron/station/tls/site-certificate.ts';
import { CA_VALID_DAYS, keepStationCertificates, SERVING_VALID_DAYS, TLS_DIR } from '../../electron/station/tls/station-certificates.ts';

/*
 * The certificates a station makes and keeps (docs/decisions/hub-tls.md), read back with Node's own
 * X.509 parser (node:crypto), not with the library that made them.
 */

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2027-03-01T10:00:00Z');
const NAMES = { dns: ['dock-hub', 'localhost'], ips: ['192.0.2.7', '127.0.0.1', '::1'] };

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'station-tls-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a station-made site certificate authority and serving certificate', () => {
  it('makes a long-lived CA that signs a year-long serving certificate naming every address, keys owner-only', async () => {
    const dir = dataDir();
    const made = await keepStationCertificates(dir, NAMES, NOW);
    expect(made.made).toBe('authority');
    const ca = new X509Certificate(made.caPem);
    const served = new X509Certificate(made.certPem);

    expect(ca.ca).toBe(true);
    expect(ca.verify(ca.publicKey)).toBe(true);
    expect(ca.validToDate.getTime() - NOW).toBeGreaterThanOrEqual((CA_VALID_DAYS - 1) * DAY);

    expect(served.ca).toBe(false);
    expect(served.checkIssued(ca)).toBe(true);
    expect(served.verify(ca.publicKey)).toBe(true);
    expect(served.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']); // serverAuth
    expect(served.validFromDate.getTime()).toBeLessThan(NOW);
    expect(Math.round((served.validToDate.getTime() - NOW) / DAY)).toBe(SERVING_VALID_DAYS);
    for (const name of NAMES.dns) expect(served.checkHost(name, { wildcards: false })).toBe(name);
    for (const ip of NAMES.ips) expect(served.checkIP(ip)).toBe(ip);
    expect(served.checkHost('elsewhere.example')).toBeUndefined();
    expect(served.checkPrivateKey(createPrivateKey(made.keyPem))).toBe(true);

    for (const file of ['site-ca.key', 'serving.key', 'site-ca.pem', 'serving.pem']) {
      expect(statSync(join(dir, TLS_DIR, file)).mode & 0o777, file).toBe(0o600);
    }
    expect(statSync(join(dir, TLS_DIR)).mode & 0o777).toBe(0o700);
  });

  it('keeps both at the next start, renews only the serving certificate near its end or for a new address, and the CA (the pin) stays', async () => {
    const dir = dataDir();
    const first = await keepStationCertificates(dir, NAMES, NOW);
    const again = await keepStationCertificates(dir, NAMES, NOW + DAY);
    expect(again).toEqual({ ...first, made: 'none' });

    const nearEnd = await keepStationCertificates(dir, NAMES, NOW + (SERVING_VALID_DAYS - 29) * DAY);
    expect(nearEnd.made).toBe('serving');
    expect(nearEnd.caPem).toBe(first.caPem);
    expect(nearEnd.certPem).not.toBe(first.certPem);
    expect(new X509Certificate(nearEnd.certPem).verify(new X509Certificate(first.caPem).publicKey)).toBe(true);

    const moved = await keepStationCertificates(dir, { ...NAMES, ips: [...NAMES.ips, '198.51.100.4'] }, NOW + (SERVING_VALID_DAYS - 29) * DAY);
    expect(moved.made).toBe('serving');
    expect(moved.caPem).toBe(first.caPem);
    expect(new X509Certificate(moved.certPem).checkIP('198.51.100.4')).toBe('198.51.100.4');
  });

  it('makes a new CA (a new pin) when its own is unreadable or near its end', async () => {
    const dir = dataDir();
    const first = await keepStationCertificates(dir, NAMES, NOW);
    writeFileSync(join(dir, TLS_DIR, 'site-ca.key'), 'not a key');
    const remade = await keepStationCertificates(dir, NAMES, NOW);
    expect(remade.made).toBe('authority');
    expect(remade.caPem).not.toBe(first.caPem);
    expect(new X509Certificate(remade.certPem).verify(new X509Certificate(remade.caPem).publicKey)).toBe(true);

    const late = await keepStationCertificates(dir, NAMES, NOW + (CA_VALID_DAYS - 10) * DAY);
    expect(late.made).toBe('authority');
  });

  it('makes the successor a year before the CA ends, keeps it, and rolls to it (no new pin for those who took it) 30 days before the end', async () => {
    const dir = dataDir();
    const first = await keepStationCertificates(dir, NAMES, NOW);
    expect(first.nextCaPem).toBeNull();
    const caEnd = new X509Certificate(first.caPem).validToDate.getTime();

    const announced = await keepStationCertificates(dir, NAMES, caEnd - 200 * DAY);
    expect(announced.caPem).toBe(first.caPem); // still served: the pin stays
    expect(announced.nextCaPem).not.toBeNull();
    const successor = new X509Certificate(announced.nextCaPem ?? '');
    expect(successor.ca).toBe(true);
    expect(successor.fingerprint256).not.toBe(new X509Certificate(first.caPem).fingerprint256);
    expect(successor.validToDate.getTime() - (caEnd - 200 * DAY)).toBeGreaterThanOrEqual((CA_VALID_DAYS - 1) * DAY);
    expect(statSync(join(dir, TLS_DIR, 'site-ca-next.key')).mode & 0o777).toBe(0o600);
    // Looked at again (a restart, the renewal's timer): the same successor, not a new one each time.
    expect((await keepStationCertificates(dir, NAMES, caEnd - 100 * DAY)).nextCaPem).toBe(announced.nextCaPem);

    const rolled = await keepStationCertificates(dir, NAMES, caEnd - 20 * DAY);
    expect(rolled.made).toBe('successor');
    expect(rolled.caPem).toBe(announced.nextCaPem);
    expect(rolled.nextCaPem).toBeNull();
    expect(new X509Certificate(rolled.certPem).verify(successor.publicKey)).toBe(true);
  });
});

describe("the site's own certificate files", () => {
  async function siteFiles(now: number): Promise<{ cert: string; chain: string; key: string; caPem: string }> {
    const dir = dataDir();
    const made = await keepStationCertificates(dir, NAMES, now);
    const cert = join(dir, 'site.crt');
    const chain = join(dir, 'site-chain.crt');
    const key = join(dir, 'site.key');
    writeFileSync(cert, made.certPem);
    writeFileSync(chain, made.certPem + made.caPem);
    writeFileSync(key, made.keyPem);
    return { cert, chain, key, caPem: made.caPem };
  }

  it('serves with the first certificate and pins the top of the chain given', async () => {
    const files = await siteFiles(Date.now());
    const alone = readSiteCertificate(files.cert, files.key, Date.now());
    expect(alone.top.fingerprint256).toBe(alone.leaf.fingerprint256);
    const chained = readSiteCertificate(files.chain, files.key, Date.now());
    expect(chained.top.fingerprint256).toBe(new X509Certificate(files.caPem).fingerprint256);
    expect(chained.leaf.fingerprint256).toBe(alone.leaf.fingerprint256);
  });

  it('refuses an unreadable file, a file with no certificate, a key of another certificate, an expired certificate', async () => {
    const files = await siteFiles(Date.now());
    const other = await siteFiles(Date.now());
    const refusal = (cert: string, key: string, now = Date.now()) => {
      try {
        readSiteCertificate(cert, key, now);
      } catch (error) {
        expect(error).toBeInstanceOf(SiteCertificateError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refusal(join(tmpdir(), 'no-such-dir', 'missing.crt'), files.key)).toMatch(
      /^The certificate file --tls-cert .*missing\.crt cannot be read \(ENOENT\)\.$/,
    );
    expect(refusal(files.key, files.key)).toContain('holds no PEM certificate');
    expect(refusal(files.cert, files.cert)).toContain('holds no private key the station can read');
    expect(refusal(files.cert, other.key)).toContain('is not the private key of the certificate');
    expect(refusal(files.cert, files.key, Date.now() + 400 * DAY)).toMatch(/expired on \d{4}-\d\d-\d\dT/);
  });
});
