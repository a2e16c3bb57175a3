import { ApiClient, type FetchLike } from '#shared/api/client.ts';
import type { StationConnection } from '#shared/station-config.ts';

/*
 * The one typed client this screen uses for every call. Its fetch reports whether the station
 * answered, so the always-visible connection state reacts to real work, not only to the health poll.
 */

let client: ApiClient | null = null;

/** Called when the station refuses a change to this screen's terminal token: a supervisor must sign in. */
let supervisorRequired: (message: string) => void = () => undefined;
export function onSupervisorRequired(listener: (message: string) => void): void {
  supervisorRequired = listener;
}

/** Called when the station refused the supervisor session's token: the session ended there. */
let supervisorSessionEnded: () => void = () => undefined;
export function onSupervisorSessionEnded(listener: () => void): void {
  supervisorSessionEnded = listener;
}

/** A 403 SUPERVISOR_REQUIRED answer, read from a copy of the response (the caller reads the original). */
async function noticeSupervisorRequired(response: Response): Promise<void> {
  if (response.status !== 403) return;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => null);
  if (typeof body === 'object' && body !== null && 'error_code' in body && body.error_code === 'SUPERVISOR_REQUIRED') {
    supervisorRequired('Only a supervisor may make that change: sign in, then do it again.');
  }
}

export function createStationApi(connection: StationConnection, onReachable: (reachable: boolean) => void): ApiClient {
  const tracked: FetchLike = async (input, init) => {
    try {
      const response = await globalThis.fetch(input, init);
      onReachable(true);
      await noticeSupervisorRequired(response);
      return response;
    } catch (error) {
      if (!init?.signal?.aborted) onReachable(false);
      throw error;
    }
  };
  client = new ApiClient({ baseUrl: connection.baseUrl, token: connection.token, fetch: tracked, onSupervisorSessionEnded: () => supervisorSessionEnded() });
  return client;
}

/** The client of this page; throws before the connection is known (a programming error). */
function api(): ApiClient {
  if (!client) throw new Error('The station connection is not set up yet.');
  return client;
}

/**
 * The page's client for the page's stores and workflows, made before the connection is known
 * (main.tsx creates it): each call reaches the client `createStationApi` made. Modules take a client
 * as an argument; only the page's wiring hands them this one (tests hand them their own).
 */
export const pageClient: ApiClient = new Proxy({} as ApiClient, {
  get(_target, name) {
    const client = api();
    const value: unknown = Reflect.get(client, name, client);
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(client) : value;
  },
});
