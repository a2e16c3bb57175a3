import { fetchTrusting } from '../tls/pinned-fetch.ts';
import type { FetchLike, UpstreamSettings } from './upstream-client.ts';

/** One pinned fetch (one connection pool) per hub authority, kept while the station runs. */
const pinnedByAuthority = new Map<string, FetchLike>();

const systemFetch: FetchLike = (input, init) => fetch(input, init);

/**
 * How sync reaches its upstream. A station that joined a site (`settings.site`) reaches its hub only
 * through a fetch that trusts the hub's pinned site authority and nothing else (not the system's
 * store): a machine in the middle with any other certificate is refused. A returns service of the
 * spec goes through the system's fetch and trust. A fetch injected by a caller (tests, the bench's
 * simulated network) is used as given.
 */
export function upstreamFetch(settings: Pick<UpstreamSettings, 'site'>, injected?: FetchLike): FetchLike {
  if (injected) return injected;
  const site = settings.site;
  if (!site) return systemFetch;
  let pinned = pinnedByAuthority.get(site.hub_ca_sha256);
  if (!pinned) pinnedByAuthority.set(site.hub_ca_sha256, (pinned = fetchTrusting({ ca: site.hub_ca_pem })));
  return pinned;
}
