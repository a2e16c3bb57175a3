import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startUpstreamEvents, type UpstreamEvents, type UpstreamEventsState } from '../../electron/station/sync/upstream/upstream-events.ts';
import type { UpstreamSettings } from '../../electron/station/sync/upstream/upstream-client.ts';
import { createRateBudget, type RateBudget } from '../../electron/station/sync/upstream/rate-budget.ts';
import { waitFor } from './support.ts';

/*
 * The follower against a real HTTP server in this process, answering as a returns service without
 * an event stream, as a Returns Station's stream, and as a stream that stalls. The end-to-end proof
 * (real stations on a real hub) is hub-follow.test.ts.
 */

let server: Server | undefined;
let follower: UpstreamEvents | undefined;
afterEach(async () => {
  await follower?.stop();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  follower = undefined;
});

async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ settings: UpstreamSettings; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  server = createServer((req, res) => {
    requests.push(req);
    handle(req, res);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { settings: { returns_url: origin, base_url: `${origin}/api`, token: 't0ken', accounts: [7] }, requests };
}

function follow(settings: UpstreamSettings, extra: { stallMs?: number } = {}, budget: RateBudget = createRateBudget()) {
  const changed: number[] = [];
  const states: Array<UpstreamEventsState | null> = [];
  follower = startUpstreamEvents({
    readSettings: async () => settings,
    changed: (id) => changed.push(id),
    budget: () => budget,
    ready: Promise.resolve(),
    onState: (s) => states.push(s),
    random: () => 0,
    ...extra,
  });
  return { changed, states };
}

it('an upstream that answers 404 is polled, asked once, and not again while the settings stay', async () => {
  const { settings, requests } = await serve((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not Found"}'));
  const { changed, states } = follow(settings);
  await waitFor('polling', async () => states.at(-1) === 'polling' && requests.length === 1);
  await follower?.settingsChanged();
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(requests.length).toBe(1);
  expect(requests[0]?.url).toBe('/api/v1/accounts/7/events');
  expect(requests[0]?.headers.authorization).toBe('Bearer t0ken');
  expect(changed).toEqual([]);
});

it('a 200 that is not an event stream is not followed either', async () => {
  const { settings, requests } = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
  const { states } = follow(settings);
  await waitFor('polling', async () => states.at(-1) === 'polling' && requests.length === 1);
  expect(states).not.toContain('following');
});

it('each change event asks for a pull; status events do not; a dropped stream resumes after its last event id', async () => {
  const { settings, requests } = await serve((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    // The second stream stays open (a comment: Node sends the head with the first write).
    if (req.headers['last-event-id']) return void res.write(': open\n\n');
    res.write('event: sync.status\ndata: {}\n\n');
    res.write('id: 41\nevent: package.updated\ndata: {"account_id":7}\n\n');
    res.end('id: 42\nevent: return.created\ndata: {"account_id":7}\n\n');
  });
  const { changed, states } = follow(settings);
  await waitFor('reconnected', async () => requests.length === 2 && states.at(-1) === 'following');
  expect(requests[1]?.headers['last-event-id']).toBe('42');
  // One for each opening (what changed while none was open), one for each change event.
  expect(changed).toEqual([7, 7, 7, 7]);
});

it('a stream that sends nothing for its stall time is dropped and reopened', async () => {
  const { settings, requests } = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': hello\n\n');
  });
  follow(settings, { stallMs: 300 });
  await waitFor('reopened', async () => requests.length >= 2, 5_000);
});

it("a failing upstream is knocked on no sooner for its stream: a 503 closes the shared gate, and the stream waits for the rounds' probe", async () => {
  const { settings, requests } = await serve((_req, res) =>
    res.writeHead(503, { 'retry-after': '2', 'content-type': 'application/json' }).end('{"error":"down"}'),
  );
  const budget = createRateBudget();
  const at: number[] = [];
  server?.on('request', () => at.push(Date.now()));
  follow(settings, {}, budget);
  await waitFor('the first opening', async () => requests.length === 1 && budget.gate().opensAt !== null);
  // The gate is the rounds' too: closed until Retry-After, and past it the stream does not probe.
  const opensAt = budget.gate().opensAt ?? 0;
  expect(opensAt - (at[0] ?? 0)).toBeGreaterThanOrEqual(1_950);
  await new Promise((resolve) => setTimeout(resolve, opensAt - Date.now() + 1_500));
  expect(requests.length).toBe(1);
  // A round's probe is answered: the gate opens, and the stream knocks again.
  expect(await budget.acquire('push')).toBe(true);
  budget.observe(200, new Headers());
  await waitFor('the second opening', async () => requests.length === 2);
  expect((at[1] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(3_450);
});
