import { type ServingTls, servingTls, type TlsRequest } from './serving-tls.ts';

/*
 * A hub runs for months without a restart, longer than its serving certificate's last 30 days: while
 * it serves, it looks again on a timer (docs/decisions/hub-tls.md, "Renewal"). The station's own
 * serving certificate is renewed under the same authority when it nears its end or no longer names
 * every address of the machine; a site's certificate files are read again, so a site that replaces
 * them needs no restart. New connections get the new certificate; open ones keep theirs. Stations
 * and handhelds pin the authority, so nobody re-pins.
 */

/** How often a serving station looks. */
export const RENEWAL_CHECK_MS = 12 * 60 * 60 * 1000;

export interface TlsRenewalOptions {
  request: TlsRequest;
  dataDir: string;
  /** What the station serves now. */
  current: ServingTls;
  /** The station's clock (ms). */
  now(): number;
  /** Serve this from now on (the HTTPS server's secure context, and what the station reports). */
  apply(next: ServingTls): void;
  log: { info(details: object, message: string): void; warn(details: object, message: string): void; error(details: object, message: string): void };
  everyMs?: number;
}

export interface TlsRenewal {
  /** Looks now; resolves to what is served after the look. */
  check(): Promise<ServingTls>;
  stop(): void;
}

export function startTlsRenewal(options: TlsRenewalOptions): TlsRenewal {
  let current = options.current;
  let looking: Promise<ServingTls> | null = null;
  const check = () =>
    (looking ??= (async () => {
      try {
        const next = await servingTls(options.request, options.dataDir, options.now());
        if (next.servedSha256 === current.servedSha256 && next.trustSha256 === current.trustSha256 && next.nextTrustPem === current.nextTrustPem)
          return current;
        options.apply(next);
        const before = current;
        current = next;
        const details = { tls: { source: next.source, fingerprint_sha256: next.trustSha256, serving_expires_at: next.servedNotAfter } };
        if (next.made === 'successor')
          options.log.warn(
            details,
            'TLS: the site authority rolled to its successor, announced to the members before: stations keep syncing, handhelds must trust the new fingerprint',
          );
        else if (next.trustSha256 !== before.trustSha256)
          options.log.error(
            details,
            'TLS: the certificate to trust changed (a new site authority, or new site files): stations and handhelds must pin the new fingerprint',
          );
        else if (next.nextTrustPem !== before.nextTrustPem)
          options.log.info(details, "TLS: made the site authority's successor; the members take it over the pinned channel before it is served");
        else options.log.info(details, 'TLS: renewed the serving certificate under the same authority; nobody re-pins');
      } catch (error) {
        // The certificate served stays as it is (a site's files being replaced, unreadable for a moment): the next look tries again.
        options.log.error(
          { err: error instanceof Error ? error.message : String(error) },
          'TLS: the serving certificate could not be renewed; still serving the one before',
        );
      } finally {
        looking = null;
      }
      return current;
    })());
  const timer = setInterval(() => void check(), options.everyMs ?? RENEWAL_CHECK_MS);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
