import { useStationLink } from '../state/station-link.ts';

/**
 * Where this station listens, as stations of the site and handhelds reach it, and the fingerprint
 * of the certificate they trust: compared by eye when one joins (docs/operator-guide.md, Serving on
 * the site's network).
 */
export function SiteAddress() {
  const address = useStationLink((s) => s.status?.address ?? null);
  if (!address) return null;
  return (
    <div className="site-address" data-testid="site-address" data-tls={address.tls ? 'yes' : 'no'}>
      <p>
        Address of this station: <code data-testid="site-origin">{address.origin}</code>
      </p>
      {address.tls ? (
        <p>
          Stations and handhelds that join it trust the certificate with SHA-256{' '}
          <code className="fingerprint" data-testid="site-fingerprint">
            {address.tls.fingerprint_sha256}
          </code>{' '}
          ({address.tls.source === 'station' ? "this station's own certificate authority" : "the site's certificate"}; serving certificate valid until{' '}
          {address.tls.serving_certificate_expires_at.slice(0, 10)}).
        </p>
      ) : (
        <p>Reachable from this computer only (plain HTTP on loopback). To be the site&apos;s hub, it serves on the site&apos;s network over TLS.</p>
      )}
    </div>
  );
}
