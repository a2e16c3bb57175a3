import { X509Certificate } from 'node:crypto';
import { readSiteCertificate } from './site-certificate.ts';
import { isSiteNetworkHost, servingNames } from './serving-names.ts';
import { keepStationCertificates, type StationCertificates } from './station-certificates.ts';

/** How a station serves TLS: with the site's own certificate files, or with the certificates it keeps in its data directory. */
export type TlsRequest = { source: 'site'; certFile: string; keyFile: string } | { source: 'station'; host: string };

/** What a station serves TLS with, and what clients pin. */
export interface ServingTls {
  source: 'site' | 'station';
  /** For the HTTPS server: the serving certificate's key, and the chain it sends (serving certificate first). */
  key: string;
  cert: string;
  /** The certificate stations and handhelds trust (PEM): the station's site authority, or the top of the site's chain. */
  trustPem: string;
  /** Its SHA-256 fingerprint (what a join pins). */
  trustSha256: string;
  /** The station authority's successor, announced to the site's members before it takes over; null when none (or the site's own files). */
  nextTrustPem: string | null;
  /** The serving certificate (PEM), its own fingerprint and its end. */
  servedPem: string;
  servedSha256: string;
  servedNotAfter: string;
  /** What this start made (station certificates only). */
  made: StationCertificates['made'];
}

/** Reads the site's certificate files, or keeps the station's own, at `now` (the data directory is the station's, locked). */
export async function servingTls(request: TlsRequest, dataDir: string, now: number): Promise<ServingTls> {
  if (request.source === 'site') {
    const site = readSiteCertificate(request.certFile, request.keyFile, now);
    return {
      source: 'site',
      key: site.keyPem,
      cert: site.certPem,
      trustPem: site.top.toString(),
      trustSha256: site.top.fingerprint256,
      nextTrustPem: null,
      servedPem: site.leaf.toString(),
      servedSha256: site.leaf.fingerprint256,
      servedNotAfter: site.leaf.validToDate.toISOString(),
      made: 'none',
    };
  }
  const kept = await keepStationCertificates(dataDir, servingNames(request.host), now);
  const authority = new X509Certificate(kept.caPem);
  const served = new X509Certificate(kept.certPem);
  return {
    source: 'station',
    key: kept.keyPem,
    cert: `${kept.certPem.trimEnd()}\n${kept.caPem}`,
    trustPem: kept.caPem,
    trustSha256: authority.fingerprint256,
    nextTrustPem: kept.nextCaPem,
    servedPem: kept.certPem,
    servedSha256: served.fingerprint256,
    servedNotAfter: served.validToDate.toISOString(),
    made: kept.made,
  };
}

/** A station's TLS flags or settings that contradict each other (a certificate without its key). */
export class TlsSettingsError extends Error {
  override name = 'TlsSettingsError';
}

/**
 * The one rule for `serve` and the desktop app: beyond loopback a station serves TLS only (the site's
 * certificate files when given, else its own); on loopback, plain HTTP unless certificate files are given.
 */
export function tlsRequestFor(host: string, files: { certFile?: string | undefined; keyFile?: string | undefined }): TlsRequest | null {
  const { certFile, keyFile } = files;
  if ((certFile === undefined) !== (keyFile === undefined))
    throw new TlsSettingsError(
      certFile === undefined ? 'A TLS key needs its certificate: give --tls-cert too.' : 'A TLS certificate needs its private key: give --tls-key too.',
    );
  if (certFile !== undefined && keyFile !== undefined) return { source: 'site', certFile, keyFile };
  return isSiteNetworkHost(host) ? { source: 'station', host } : null;
}
