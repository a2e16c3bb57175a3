import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Why the site's own certificate files cannot serve: said plainly, without a stack. */
export class SiteCertificateError extends Error {
  override name = 'SiteCertificateError';
}

export interface SiteCertificate {
  /** The certificates of the file, in its order: the serving certificate, then any chain above it. */
  certPem: string;
  keyPem: string;
  /** The first certificate (the one that serves) and the last (the top of the chain given: what stations pin). */
  leaf: X509Certificate;
  top: X509Certificate;
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    throw new SiteCertificateError(`${what} ${file} cannot be read${code ? ` (${code})` : ''}.`);
  }
}

/** The file's certificates, the serving one first; never empty. */
function parseChain(file: string, text: string): [X509Certificate, ...X509Certificate[]] {
  const blocks = text.match(PEM_BLOCK) ?? [];
  const parse = (block: string, index: number) => {
    try {
      return new X509Certificate(block);
    } catch {
      throw new SiteCertificateError(`--tls-cert ${file}: certificate ${index + 1} is not a valid X.509 certificate.`);
    }
  };
  const [first, ...rest] = blocks;
  if (first === undefined) throw new SiteCertificateError(`--tls-cert ${file} holds no PEM certificate ("-----BEGIN CERTIFICATE-----").`);
  return [parse(first, 0), ...rest.map((block, index) => parse(block, index + 1))];
}

function parseKey(file: string, text: string): KeyObject {
  try {
    return createPrivateKey(text);
  } catch (error) {
    const encrypted = /ENCRYPTED/.test(text) || (error instanceof Error && /passphrase/i.test(error.message));
    throw new SiteCertificateError(
      encrypted
        ? `--tls-key ${file} is protected by a passphrase: give the key unencrypted (in a file only the station's user may read).`
        : `--tls-key ${file} holds no private key the station can read (PEM, PKCS#8 or PKCS#1/SEC1).`,
    );
  }
}

/**
 * The site's own certificate and key (`serve --tls-cert --tls-key`), checked before the station
 * serves with them: readable, a key that belongs to the certificate, valid at `now`.
 */
export function readSiteCertificate(certFile: string, keyFile: string, now: number): SiteCertificate {
  const certPem = readText(certFile, 'The certificate file --tls-cert');
  const keyPem = readText(keyFile, 'The key file --tls-key');
  const chain = parseChain(certFile, certPem);
  const key = parseKey(keyFile, keyPem);
  const leaf = chain[0];
  if (key.type !== 'private' || !leaf.checkPrivateKey(key))
    throw new SiteCertificateError(`--tls-key ${keyFile} is not the private key of the certificate in ${certFile} (${leaf.subject.replace(/\n/g, ', ')}).`);
  if (leaf.validToDate.getTime() <= now)
    throw new SiteCertificateError(
      `The certificate in ${certFile} expired on ${leaf.validToDate.toISOString()}: renew it with the site's certificate authority.`,
    );
  if (leaf.validFromDate.getTime() > now)
    throw new SiteCertificateError(`The certificate in ${certFile} is valid only from ${leaf.validFromDate.toISOString()}: check this machine's clock.`);
  // The chain re-written from what was parsed: a file whose blocks were glued without a line break still serves.
  return { certPem: chain.map((cert) => cert.toString()).join(''), keyPem, leaf, top: chain.at(-1) ?? leaf };
}
