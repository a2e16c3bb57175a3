// @peculiar/x509 resolves its algorithm providers through tsyringe, which needs the Reflect metadata polyfill first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createPrivateKey, randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDir } from '../private-files.ts';
import type { ServingNames } from './serving-names.ts';

/*
 * The site certificate authority a station makes once and keeps in its data directory, and the
 * serving certificate it signs (docs/decisions/hub-tls.md). Stations and handhelds trust (pin) the
 * authority; the serving certificate is renewed under it without anyone re-pinning.
 */

// Node's WebCrypto, typed by @types/node rather than the DOM library the package names.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
type CryptoKey = webcrypto.CryptoKey;

const DAY_MS = 24 * 60 * 60 * 1000;
/** The authority lives as long as a site's stations do; its end is the one event that needs a new pin. */
export const CA_VALID_DAYS = 20 * 365;
/** The serving certificate: a year and a month (browsers' cap for a certificate they are told to trust is 398 days). */
export const SERVING_VALID_DAYS = 397;
/** Renewed at a start this close to its end. */
export const RENEW_WITHIN_DAYS = 30;
/**
 * The authority's successor is made this long before the authority's end and announced to the site's
 * members over the pinned channel (site/authority-follow.ts), so the roll 30 days before the end needs no new join.
 */
export const SUCCESSOR_WITHIN_DAYS = 365;
/** notBefore this far back: a station whose clock runs a little behind still accepts the certificate. */
const BACKDATE_MS = DAY_MS;

/** ECDSA P-256: every browser and TLS stack takes it, and a key is made in milliseconds. */
const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export const TLS_DIR = 'tls';
const FILES = {
  caCert: 'site-ca.pem',
  caKey: 'site-ca.key',
  nextCaCert: 'site-ca-next.pem',
  nextCaKey: 'site-ca-next.key',
  cert: 'serving.pem',
  key: 'serving.key',
} as const;

export interface StationCertificates {
  /** The authority's certificate (PEM): what stations and handhelds trust. */
  caPem: string;
  /** The serving certificate (PEM). */
  certPem: string;
  /** The serving certificate's private key (PKCS#8 PEM). */
  keyPem: string;
  /** The authority's successor (PEM), made within SUCCESSOR_WITHIN_DAYS of the authority's end; null before. */
  nextCaPem: string | null;
  /**
   * What this look did: kept both, renewed the serving certificate, made a new authority (a new pin:
   * stations join again), or rolled to the successor announced before (members pinned it already).
   */
  made: 'none' | 'serving' | 'authority' | 'successor';
}

export class StationCertificateError extends Error {
  override name = 'StationCertificateError';
}

function randomSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f; // a positive integer
  return bytes.toString('hex');
}

function quoted(value: string): string {
  return value.replace(/[,+"\\<>;=#]/g, '\\$&');
}

async function pkcs8Pem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
}

async function importPkcs8(pem: string): Promise<CryptoKey> {
  const der = createPrivateKey(pem).export({ type: 'pkcs8', format: 'der' });
  return webcrypto.subtle.importKey('pkcs8', der, KEY_ALGORITHM, false, ['sign']);
}

async function makeAuthority(now: number): Promise<{ certPem: string; keyPem: string }> {
  const keys = await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: `CN=${quoted(`Returns Station site CA (${hostname()}) ${randomBytes(4).toString('hex')}`)}`,
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + CA_VALID_DAYS * DAY_MS),
    keys,
    signingAlgorithm: KEY_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: `${cert.toString('pem')}\n`, keyPem: await pkcs8Pem(keys.privateKey) };
}

async function makeServing(authority: { certPem: string; keyPem: string }, names: ServingNames, now: number): Promise<{ certPem: string; keyPem: string }> {
  const keys = await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
  const issuer = new x509.X509Certificate(authority.certPem);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: `CN=${quoted(names.dns[0] ?? names.ips[0] ?? 'localhost')}`,
    issuer: issuer.subject,
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + SERVING_VALID_DAYS * DAY_MS),
    publicKey: keys.publicKey,
    signingKey: await importPkcs8(authority.keyPem),
    signingAlgorithm: KEY_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        ...names.dns.map((value) => ({ type: 'dns' as const, value })),
        ...names.ips.map((value) => ({ type: 'ip' as const, value })),
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(issuer),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: `${cert.toString('pem')}\n`, keyPem: await pkcs8Pem(keys.privateKey) };
}

function readPair(dir: string, certFile: string, keyFile: string): { certPem: string; keyPem: string; cert: X509Certificate } | null {
  if (!existsSync(join(dir, certFile)) || !existsSync(join(dir, keyFile))) return null;
  try {
    const certPem = readFileSync(join(dir, certFile), 'utf8');
    const keyPem = readFileSync(join(dir, keyFile), 'utf8');
    const cert = new X509Certificate(certPem);
    return cert.checkPrivateKey(createPrivateKey(keyPem)) ? { certPem, keyPem, cert } : null;
  } catch {
    return null;
  }
}

function endsSoon(cert: X509Certificate, now: number): boolean {
  return cert.validToDate.getTime() - now < RENEW_WITHIN_DAYS * DAY_MS || cert.validFromDate.getTime() > now;
}

/** Whether the serving certificate names every one of `names` (a new address of the machine needs a new one). */
function covers(cert: X509Certificate, names: ServingNames): boolean {
  return names.dns.every((name) => cert.checkHost(name, { wildcards: false }) !== undefined) && names.ips.every((ip) => cert.checkIP(ip) !== undefined);
}

function writePrivate(dir: string, file: string, text: string): void {
  writeFileSync(join(dir, file), text, { mode: 0o600 });
}

/** The successor kept beside the authority, when it is one that can take over at `now`. */
function usableSuccessor(dir: string, now: number): { certPem: string; keyPem: string; cert: X509Certificate } | null {
  const next = readPair(dir, FILES.nextCaCert, FILES.nextCaKey);
  return next && next.cert.ca && !endsSoon(next.cert, now) ? next : null;
}

function withinSuccessorWindow(cert: X509Certificate, now: number): boolean {
  return cert.validToDate.getTime() - now < SUCCESSOR_WITHIN_DAYS * DAY_MS;
}

/**
 * The station's certificates in `<dataDir>/tls/`, made or renewed as needed at `now`: the authority
 * when missing, unreadable or within 30 days of its end (its successor takes over when one was made);
 * the successor within a year of the authority's end; the serving certificate when missing, ending,
 * not naming every one of `names`, or when the authority is new. Private keys are owner-only.
 */
export async function keepStationCertificates(dataDir: string, names: ServingNames, now: number): Promise<StationCertificates> {
  const dir = join(dataDir, TLS_DIR);
  ensurePrivateDir(dir);
  let made: StationCertificates['made'] = 'none';
  let authority = readPair(dir, FILES.caCert, FILES.caKey);
  if (!authority || !authority.cert.ca || endsSoon(authority.cert, now)) {
    // The successor announced to the members takes over (the key first: a pair half written reads as no pair).
    const successor = usableSuccessor(dir, now);
    const fresh = successor ?? (await makeAuthority(now));
    writePrivate(dir, FILES.caKey, fresh.keyPem);
    writePrivate(dir, FILES.caCert, fresh.certPem);
    rmSync(join(dir, FILES.nextCaCert), { force: true });
    rmSync(join(dir, FILES.nextCaKey), { force: true });
    authority = { certPem: fresh.certPem, keyPem: fresh.keyPem, cert: new X509Certificate(fresh.certPem) };
    made = successor ? 'successor' : 'authority';
  }
  let successor = usableSuccessor(dir, now);
  if (!successor && withinSuccessorWindow(authority.cert, now)) {
    const fresh = await makeAuthority(now);
    writePrivate(dir, FILES.nextCaKey, fresh.keyPem);
    writePrivate(dir, FILES.nextCaCert, fresh.certPem);
    successor = { ...fresh, cert: new X509Certificate(fresh.certPem) };
  }
  let serving = readPair(dir, FILES.cert, FILES.key);
  const servingGood =
    serving !== null &&
    made === 'none' &&
    serving.cert.checkIssued(authority.cert) &&
    serving.cert.verify(authority.cert.publicKey) &&
    !endsSoon(serving.cert, now) &&
    covers(serving.cert, names);
  if (!servingGood) {
    const fresh = await makeServing(authority, names, now);
    writePrivate(dir, FILES.key, fresh.keyPem);
    writePrivate(dir, FILES.cert, fresh.certPem);
    serving = { ...fresh, cert: new X509Certificate(fresh.certPem) };
    if (made === 'none') made = 'serving';
  }
  if (!serving) throw new StationCertificateError('The station could not make its serving certificate.');
  return { caPem: authority.certPem, certPem: serving.certPem, keyPem: serving.keyPem, nextCaPem: successor?.certPem ?? null, made };
}
