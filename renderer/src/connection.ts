import { type StationConnection, StationConnectionSchema } from '#shared/station-config.ts';
import { markPairedHandheld } from './pairing/paired-device.ts';

const TOKEN_KEY = 'returns-station.token';
/** A paired handheld's own token (docs/decisions/handheld-pairing.md): kept across reloads, never in an address. */
const DEVICE_TOKEN_KEY = 'returns-station.device-token';

export function saveDeviceToken(token: string): void {
  localStorage.setItem(DEVICE_TOKEN_KEY, token);
}

/**
 * Where this UI's station is. In Electron the preload hands it over; in a browser the station is the
 * page's own origin and the token arrives once in the link's fragment (never sent to a server or
 * kept in history), then lives in this tab's session storage; a paired handheld's own token lives
 * in local storage.
 */
export function resolveConnection(): StationConnection {
  if (window.station) return StationConnectionSchema.parse(window.station);
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const linkToken = fragment.get('token');
  if (linkToken) {
    sessionStorage.setItem(TOKEN_KEY, linkToken);
    history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  const linked = sessionStorage.getItem(TOKEN_KEY);
  const device = localStorage.getItem(DEVICE_TOKEN_KEY);
  markPairedHandheld(linked === null && device !== null);
  return { baseUrl: window.location.origin, token: linked ?? device, version: '' };
}
