import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/station/store/index.ts';
import { createSyncEngine } from '../../electron/station/sync/sync-engine.ts';
import { writeUpstreamSettings } from '../../electron/station/sync/settings.ts';
import { tempDataDir } from '../store/fixtures.ts';
import { RETURN_BODY, runCli, startLocal, startUpstream, tempDir, tracking, type Upstream, waitFor } from './support.ts';

/*
 * The upstream's two addresses as the returns service's spec names them: manual returns at
 * `{returns_url}/returns`; packages and an account's returns at `{base_url}/v1/accounts/{id}/…`.
 * Through the real commands: `upstream set` with the pair or the one-URL shorthand and its refusals,
 * `upstream show`; a sync where the two addresses are different paths of a proxy that sends each to
 * the upstream station's own path (and refuses any other); and a data directory whose settings row
 * was stored with one URL (before the two addresses), across a stop and a start of `serve`.
 */

const ACCOUNT = 5101;
let upstream: Upstream;
const dirs: string[] = [];
const dir = (prefix: string) => {
  const made = tempDir(prefix);
  dirs.push(made);
  return made;
};

beforeAll(async () => {
  upstream = await startUpstream({ accounts: [ACCOUNT] });
}, 120_000);

afterAll(async () => {
  await upstream?.stop();
  for (const made of dirs) rmSync(made, { recursive: true, force: true });
}, 120_000);

const set = (dataDir: string, args: string[], token = 'upstream-secret') =>
  runCli(['upstream', 'set', ...args, '--token-stdin', '--account', String(ACCOUNT), '--data-dir', dataDir], { input: `${token}\n` });
const show = (dataDir: string) => runCli(['upstream', 'show', '--data-dir', dataDir]);

/** The settings row as the data directory's file holds it. */
function rowOnDisk(dataDir: string): unknown {
  const sqlite = new DatabaseSync(join(dataDir, 'station.db'), { readOnly: true });
  try {
    const row = sqlite.prepare(`SELECT v FROM station_meta WHERE k = 'sync.upstream'`).get() as { v: string } | undefined;
    return row ? (JSON.parse(row.v) as { value: unknown }).value : undefined;
  } finally {
    sqlite.close();
  }
}

describe('upstream set and show', () => {
  it('takes --returns-url and --base-url, trims trailing slashes, and shows both without user-info or token', async () => {
    const dataDir = dir('addr-cli-pair-');
    const done = await set(dataDir, ['--returns-url', 'http://desk:s3cret@127.0.0.1:9/manual/', '--base-url', 'http://127.0.0.1:9/gateway/v2//']);
    expect(done.status, done.stderr).toBe(0);
    expect(done.stderr).toContain('Upstream set: returns_url http://127.0.0.1:9/manual, base_url http://127.0.0.1:9/gateway/v2, accounts 5101.');
    const shown = await show(dataDir);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(`returns_url: http://127.0.0.1:9/manual\nbase_url: http://127.0.0.1:9/gateway/v2\naccounts: ${ACCOUNT}\ntoken: set (hidden)\n`);
    expect(shown.stdout + done.stderr).not.toMatch(/s3cret|desk:|upstream-secret/);
    // User-info is kept for the requests themselves.
    expect(rowOnDisk(dataDir)).toEqual({
      returns_url: 'http://desk:s3cret@127.0.0.1:9/manual',
      base_url: 'http://127.0.0.1:9/gateway/v2',
      token: 'upstream-secret',
      accounts: [ACCOUNT],
    });
  });

  it('takes --url as a Returns Station: returns_url is it, base_url is it plus /api', async () => {
    const dataDir = dir('addr-cli-url-');
    const done = await set(dataDir, ['--url', 'https://127.0.0.1:9/station/']);
    expect(done.status, done.stderr).toBe(0);
    const shown = await show(dataDir);
    expect(shown.stdout).toBe(
      `returns_url: https://127.0.0.1:9/station\nbase_url: https://127.0.0.1:9/station/api\naccounts: ${ACCOUNT}\ntoken: set (hidden)\n`,
    );
  });

  it('refuses --url with either address, one address alone, none, or a bad one: usage error 2, settings kept', async () => {
    const dataDir = dir('addr-cli-bad-');
    expect((await set(dataDir, ['--url', 'http://127.0.0.1:9'])).status).toBe(0);
    const before = (await show(dataDir)).stdout;
    const cases: Array<[string[], RegExp]> = [
      [
        ['--url', 'http://127.0.0.1:9', '--returns-url', 'http://127.0.0.1:9/r'],
        /either --url URL \(a Returns Station\) or both --returns-url URL and --base-url URL, not both/,
      ],
      [['--url', 'http://127.0.0.1:9', '--base-url', 'http://127.0.0.1:9/b'], /not both/],
      [['--url', 'http://127.0.0.1:9', '--returns-url', 'http://127.0.0.1:9/r', '--base-url', 'http://127.0.0.1:9/b'], /not both/],
      [['--returns-url', 'http://127.0.0.1:9/r'], /--returns-url needs --base-url too/],
      [['--base-url', 'http://127.0.0.1:9/b'], /--base-url needs --returns-url too/],
      [[], /needs the upstream's addresses: --returns-url URL and --base-url URL, or --url URL/],
      [['--returns-url', 'ftp://127.0.0.1:9/r', '--base-url', 'http://127.0.0.1:9/b'], /returns_url: Must be an http:\/\/ or https:\/\/ URL/],
      [['--returns-url', 'http://127.0.0.1:9/r', '--base-url', 'http://127.0.0.1:9/b?x=1'], /base_url: Must have no query/],
    ];
    for (const [args, message] of cases) {
      const refused = await set(dataDir, args);
      expect(refused.status, `${args.join(' ')}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr, args.join(' ')).toMatch(message);
    }
    expect((await show(dataDir)).stdout).toBe(before);
  }, 60_000);

  it("reads settings stored with one URL as a station's two addresses, and a command on the directory rewrites them", async () => {
    const dataDir = dir('addr-cli-old-');
    const old = await openStore({ dataDir });
    await old.write((t) =>
      t.station_meta.put({ key: 'sync.upstream', value: { url: 'http://127.0.0.1:9/old-station', token: 'old-secret', accounts: [ACCOUNT] } }),
    );
    await old.close();
    const shown = await show(dataDir);
    expect(shown.stdout).toBe(
      `returns_url: http://127.0.0.1:9/old-station\nbase_url: http://127.0.0.1:9/old-station/api\naccounts: ${ACCOUNT}\ntoken: set (hidden)\n`,
    );
    expect(rowOnDisk(dataDir)).toEqual({
      returns_url: 'http://127.0.0.1:9/old-station',
      base_url: 'http://127.0.0.1:9/old-station/api',
      token: 'old-secret',
      accounts: [ACCOUNT],
    });
  });
});

/** A proxy that serves the upstream station under other paths: each prefix to its own target path; anything else is 404 and counted. */
interface PrefixProxy {
  url: string;
  /** `METHOD /path` as the station asked, without the query. */
  seen: string[];
  stray: string[];
  close(): Promise<void>;
}

async function startPrefixProxy(target: string, routes: ReadonlyArray<readonly [from: string, to: string]>): Promise<PrefixProxy> {
  const upstreamUrl = new URL(target);
  const sockets = new Set<Socket>();
  const proxy: PrefixProxy = {
    url: '',
    seen: [],
    stray: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const bare = path.split('?')[0] ?? path;
    const route = routes.find(([from]) => bare === from || bare.startsWith(`${from}/`));
    proxy.seen.push(`${req.method ?? 'GET'} ${bare}`);
    if (!route) {
      proxy.stray.push(`${req.method ?? 'GET'} ${bare}`);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Not Found', error_code: 'NOT_FOUND', details: { message: `Nothing at ${bare} here.` } }));
      return;
    }
    const forwarded = httpRequest(
      {
        hostname: upstreamUrl.hostname,
        port: upstreamUrl.port,
        method: req.method,
        path: `${route[1]}${path.slice(route[0].length)}`,
        headers: { ...req.headers, host: upstreamUrl.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{}');
    });
    req.pipe(forwarded);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

it('syncs with returns_url and base_url on different paths: each request goes to its own address', async () => {
  // The returns service's two families under unrelated prefixes; the station's own paths behind them.
  const proxy = await startPrefixProxy(upstream.origin, [
    ['/desk/returns', '/returns'],
    ['/gateway/v2/v1', '/api/v1'],
  ]);
  const dataDir = dir('addr-e2e-');
  const ret = await upstream.api.createReturn({ ...RETURN_BODY, account_id: ACCOUNT, email: 'two-addresses@example.com' });
  const parcel = await upstream.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('ADDR') });
  const done = await set(dataDir, ['--returns-url', `${proxy.url}/desk/`, '--base-url', `${proxy.url}/gateway/v2`], upstream.syncToken);
  expect(done.status, done.stderr).toBe(0);

  const local = await startLocal(dataDir, { RETURNS_STATION_SYNC_INTERVAL_MS: '300' });
  try {
    expect(await local.api.getUpstream()).toEqual({
      returns_url: `${proxy.url}/desk`,
      base_url: `${proxy.url}/gateway/v2`,
      accounts: [ACCOUNT],
      token_set: true,
    });
    // Pulled through {base_url}/v1/accounts/{id}/returns and …/return_packages.
    const pulled = await waitFor('the parcel pulled', async () => (await local.api.lookup(parcel.tracking_number)).packages[0]);
    // Received at the dock: a PATCH through base_url.
    await local.api.updatePackage(ACCOUNT, pulled.id, { status: 'received' });
    // A walk-in: its manual return goes to {returns_url}/returns, its parcel through base_url.
    const walkInReturn = await local.api.createReturn({ ...RETURN_BODY, email: 'walk-in-two-addresses@example.com', account_id: ACCOUNT });
    const walkIn = await local.api.createPackage(ACCOUNT, { return_id: walkInReturn.id, tracking_number: tracking('ADDRWALK'), status: 'delivered' });
    await waitFor('the receipt upstream', async () => (await upstream.api.getPackage(ACCOUNT, parcel.id)).status === 'received');
    await waitFor('the walk-in upstream', async () => (await upstream.api.listPackages(ACCOUNT, { tracking_number: walkIn.tracking_number })).data[0]);
    await waitFor('nothing waiting', async () => (await local.api.station()).sync.pending_changes === 0);
    expect((await local.api.station()).sync.state).toBe('online');
  } finally {
    await local.station.stop();
    await proxy.close();
  }
  const upstreamReturns = await upstream.api.listAccountReturns(ACCOUNT, { per_page: 250 });
  expect(upstreamReturns.data.map((r) => r.email)).toContain('walk-in-two-addresses@example.com');

  expect(proxy.stray).toEqual([]);
  const accountPath = `/gateway/v2/v1/accounts/${ACCOUNT}`;
  expect(proxy.seen).toContain('POST /desk/returns');
  expect(proxy.seen).toContain(`GET ${accountPath}/returns`);
  expect(proxy.seen).toContain(`GET ${accountPath}/return_packages`);
  expect(proxy.seen).toContain(`PATCH ${accountPath}/return_packages/${parcel.id}`);
  expect(proxy.seen).toContain(`POST ${accountPath}/return_packages`);
  // Every request went to one of the two addresses.
  for (const line of proxy.seen) expect(line, line).toMatch(/^[A-Z]+ (\/desk\/returns|\/gateway\/v2\/v1\/)/);
}, 120_000);

it('upgrades settings stored with one URL in place: read as a station, rewritten at start, syncing across a restart', async () => {
  const dataDir = dir('addr-upgrade-');
  // The row as the station wrote it before the two addresses: {url, token, accounts}.
  const old = await openStore({ dataDir });
  await old.write(async (t) => {
    await t.accounts.put({ id: ACCOUNT, name: `Account ${ACCOUNT}`, created_at: '2026-11-20T08:00:00.000Z' });
    await t.station_meta.put({ key: 'sync.upstream', value: { url: upstream.origin, token: upstream.syncToken, accounts: [ACCOUNT] } });
  });
  await old.close();
  expect(rowOnDisk(dataDir)).toEqual({ url: upstream.origin, token: upstream.syncToken, accounts: [ACCOUNT] });

  const ret = await upstream.api.createReturn({ ...RETURN_BODY, account_id: ACCOUNT, email: 'upgrade@example.com' });
  const first = await upstream.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('UPG') });
  const env = { RETURNS_STATION_SYNC_INTERVAL_MS: '300', RETURNS_STATION_LOG_LEVEL: 'info' };
  let local = await startLocal(dataDir, env);
  try {
    expect(await local.api.getUpstream()).toEqual({ returns_url: upstream.origin, base_url: `${upstream.origin}/api`, accounts: [ACCOUNT], token_set: true });
    // Logged at the open (stderr may come in after the ready line on stdout).
    await waitFor('the rewrite logged', async () =>
      local.station.output().stderr.includes('upstream settings stored with one URL rewritten as the two addresses of a Returns Station'),
    );
    const pulled = await waitFor('the parcel pulled after the upgrade', async () => (await local.api.lookup(first.tracking_number)).packages[0]);
    await local.api.updatePackage(ACCOUNT, pulled.id, { status: 'received' });
    await waitFor('the receipt upstream', async () => (await upstream.api.getPackage(ACCOUNT, first.id)).status === 'received');
    expect(await local.station.stop()).toBe(0);

    // The file holds the new shape: the one URL is gone, the token and accounts are kept.
    expect(rowOnDisk(dataDir)).toEqual({ returns_url: upstream.origin, base_url: `${upstream.origin}/api`, token: upstream.syncToken, accounts: [ACCOUNT] });

    const second = await upstream.api.createPackage(ACCOUNT, { return_id: ret.id, tracking_number: tracking('UPG2') });
    local = await startLocal(dataDir, env);
    expect(local.station.output().stderr).not.toContain('rewritten as the two addresses');
    await waitFor('a parcel pulled after the restart', async () => (await local.api.lookup(second.tracking_number)).packages[0]);
    expect((await local.api.station()).sync.state).toBe('online');
  } finally {
    await local.station.stop();
  }
  // The settings, then what sync found out about the upstream's lists.
  const shown = await show(dataDir);
  expect(shown.stdout).toMatch(
    new RegExp(`^returns_url: ${upstream.origin}\nbase_url: ${upstream.origin}/api\naccounts: ${ACCOUNT}\ntoken: set \\(hidden\\)\naccount ${ACCOUNT} `),
  );
}, 120_000);

it('keeps one rate budget per upstream, keyed by its base_url', async () => {
  const { dir: dataDir, cleanup } = await tempDataDir();
  const store = await openStore({ dataDir });
  try {
    const clock = { now: () => new Date().toISOString() };
    const asked: string[] = [];
    // Every answer says 10 of 100 requests are left for the next hour: past the pulls' reserve, so
    // after the first request of a budget its pulls give way to the next round.
    const engine = createSyncEngine({
      store,
      clock,
      fetch: (input) => {
        asked.push(input);
        const headers = { 'content-type': 'application/json', 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': '3600' };
        return Promise.resolve(
          new Response(JSON.stringify({ data: [], meta: { current_page: 1, per_page: 250, total_count: 0, total_pages: 0 } }), { status: 200, headers }),
        );
      },
    });
    const roundWith = async (returnsUrl: string, baseUrl: string): Promise<string[]> => {
      await writeUpstreamSettings(store, { returns_url: returnsUrl, base_url: baseUrl, token: 'unused', accounts: [1] }, clock.now());
      const before = asked.length;
      await engine.runRound({ pull: true });
      return asked.slice(before);
    };
    expect((await roundWith('http://127.0.0.1:9/r1', 'http://127.0.0.1:9/b1')).length).toBeGreaterThan(0);
    // Another returns_url, the same base_url: the same upstream, its budget spent.
    expect(await roundWith('http://127.0.0.1:9/r2', 'http://127.0.0.1:9/b1')).toEqual([]);
    // Another base_url: another upstream, with a budget of its own.
    const fresh = await roundWith('http://127.0.0.1:9/r2', 'http://127.0.0.1:9/b2');
    expect(fresh.length).toBeGreaterThan(0);
    for (const url of fresh) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:9\/b2\/v1\/accounts\/1\//);
  } finally {
    await store.close();
    await cleanup();
  }
});
