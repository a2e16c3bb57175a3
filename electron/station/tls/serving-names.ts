import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { isLoopbackHost } from '../api/http/host-guard.ts';

/** Binds that mean "every address of this machine". */
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

export function isWildcardHost(host: string): boolean {
  return WILDCARDS.has(host);
}

/** An address beyond loopback carries bearer tokens over the site's network: it is served over TLS only. */
export function isSiteNetworkHost(host: string): boolean {
  return !isLoopbackHost(host.replace(/^\[(.*)\]$/, '$1'));
}

/** The names a station-made serving certificate covers: DNS names and IP addresses, each once. */
export interface ServingNames {
  dns: string[];
  ips: string[];
}

/** This machine's own addresses on its networks (link-local IPv6 needs a zone in a URL: left out). */
function machineAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal && !entry.address.toLowerCase().startsWith('fe80:'))
    .map((entry) => entry.address);
}

/**
 * What a station's serving certificate names: the host it was told to bind (unless a wildcard), the
 * machine's hostname and its addresses, and loopback (the desktop window and the command line reach
 * the station there).
 */
export function servingNames(host: string): ServingNames {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const candidates = [...(isWildcardHost(host) ? [] : [bare]), hostname(), ...machineAddresses(), 'localhost', '127.0.0.1', '::1'];
  const dns = new Set<string>();
  const ips = new Set<string>();
  for (const name of candidates) {
    if (name === '') continue;
    if (isIP(name) !== 0) ips.add(name);
    else dns.add(name.toLowerCase());
  }
  return { dns: [...dns], ips: [...ips] };
}

/** The name the station's address is given with: the host bound, or for a wildcard the machine's first site address. */
export function siteAddressName(host: string): string {
  if (!isWildcardHost(host)) return host.replace(/^\[(.*)\]$/, '$1');
  return machineAddresses().find((address) => isIP(address) === 4) ?? machineAddresses()[0] ?? hostname();
}
