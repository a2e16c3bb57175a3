import { fetchTrusting } from '../../tls/pinned-fetch.ts';
import type { FetchLike, UpstreamSettings } from './upstream-client.ts';

/** One pinned fetch (one connection pool) per hub authority, kept while the station runs. */
const pinnedByAuthority = new Map<string, FetchLike>();

const systemFetch: FetchLike = (input, init) => fetch(input, init);

/**
 * How sync reaches its upstream. A station that joined a site (`settings.site`) reaches its hub only
 * through a fetch that trusts the hub's pinned site authority and nothing else (not the system's
 * store): a machine in the middle with any other certificate is refused. A returns service of the
 * spec goes through the system's fetch and trust. The successor of the hub's authority, once the hub
 * announced it, is trusted too. A fetch injected by a caller (tests, the bench's
 * simulated network) is used as given.
 */
export function upstreamFetch(settings: Pick<UpstreamSettings, 'site'>, injected?: FetchLike): FetchLike {
  if (injected) return injected;
  const site = settings.site;
  if (!site) return systemFetch;
  // The successor the hub announced is trusted beside its authority, so the hub's roll to it breaks nothing.
  const key = `${site.hub_ca_sha256}+${site.hub_ca_next_sha256 ?? ''}`;
  let pinned = pinnedByAuthority.get(key);
  if (!pinned) pinnedByAuthority.set(key, (pinned = fetchTrusting({ ca: [site.hub_ca_pem, ...(site.hub_ca_next_pem ? [site.hub_ca_next_pem] : [])] })));
  return pinned;
}
