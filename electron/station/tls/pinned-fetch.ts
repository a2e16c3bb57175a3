import { X509Certificate } from 'node:crypto';
import type { PeerCertificate } from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';
import type { FetchLike } from '#shared/api/client.ts';

export interface TrustedStation {
  /**
   * The certificate trusted as the chain's anchor (PEM): a station's site authority, or the top of a
   * site's chain; a hub's member also trusts the successor its hub announced.
   */
  ca: string | readonly string[];
  /**
   * When given, the served certificate itself must have this SHA-256 fingerprint and its names are
   * not checked: the command line reaches its own station on loopback, which a site's certificate
   * need not name.
   */
  servedSha256?: string;
}

/** SHA-256 fingerprint as OpenSSL and browsers show it: upper-case hex pairs joined by colons. */
export function sha256Fingerprint(pem: string): string {
  return new X509Certificate(pem).fingerprint256;
}

/**
 * A fetch that trusts exactly the certificate authorities given and nothing else (not the system's store),
 * so a machine in the middle with any publicly trusted certificate is refused. Undici's own fetch
 * with its own Agent: the global fetch's bundled undici may differ in version from the package's.
 */
export function fetchTrusting(trusted: TrustedStation): FetchLike {
  const dispatcher = new Agent({
    connect: {
      ca: typeof trusted.ca === 'string' ? trusted.ca : [...trusted.ca],
      // The anchor may be an intermediate or the served certificate itself (a site's chain given without its root).
      allowPartialTrustChain: true,
      ...(trusted.servedSha256 === undefined
        ? {}
        : {
            checkServerIdentity: (_host: string, served: PeerCertificate) =>
              served.fingerprint256 === trusted.servedSha256
                ? undefined
                : new Error(`The station served a certificate with SHA-256 ${served.fingerprint256}, not the pinned ${trusted.servedSha256}.`),
          }),
    },
  });
  // undici's Response and RequestInit are the same WHATWG shapes as the DOM's, typed separately.
  return (input, init) => undiciFetch(input, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher }) as unknown as Promise<Response>;
}
