import { ApiClient, type FetchLike } from '../../shared/api/client.ts';

/*
 * The one thing the renderer's tests fake about a real station: the cable to it. A fetch that can be
 * unplugged (the station unreachable) or lose the answer of a request the station acted on.
 */
export class StationCable {
  down = false;
  /** Requests wait (neither answered nor refused) while this is true: a station that hangs. */
  stalled = false;
  /** Requests whose answer is lost after the station acted on them (`times` of them). */
  loseAnswers: { method: string; path: RegExp; times: number } | null = null;
  /** Requests that reached the station: `METHOD /path`, once answered. */
  readonly requests: string[] = [];
  /** Requests asked of the cable, the moment they were asked (the cable up or down). */
  readonly asked: string[] = [];
  readonly #origin: string;
  readonly #token: string;

  constructor(station: { origin: string; stationToken: string }) {
    this.#origin = station.origin;
    this.#token = station.stationToken;
  }

  readonly fetch: FetchLike = async (input, init) => {
    const method = init?.method ?? 'GET';
    this.asked.push(`${method} ${new URL(input).pathname}`);
    if (this.down) throw new TypeError('fetch failed');
    while (this.stalled) await new Promise((r) => setTimeout(r, 5));
    const response = await fetch(input, init);
    this.requests.push(`${method} ${new URL(input).pathname}`);
    const lose = this.loseAnswers;
    if (lose && lose.times > 0 && method === lose.method && lose.path.test(input)) {
      lose.times--;
      throw new TypeError('fetch failed (answer lost)');
    }
    return response;
  };

  client(): ApiClient {
    return new ApiClient({ baseUrl: this.#origin, token: this.#token, fetch: this.fetch });
  }
}
