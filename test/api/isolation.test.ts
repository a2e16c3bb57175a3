import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES, buildPath, type RouteDefinition } from '#shared/api/routes.ts';
import { call, createPackage, createReturn, expectError, packageBody, returnBody, sampleMedia, startStation, type TestStation } from './support.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * Account isolation: every authenticated route of the route table, called with no token, a bad
 * token, and another account's token, is refused, and the refusal changes nothing.
 */

let s: TestStation;
let params: Record<string, number>;

beforeAll(async () => {
  s = await startStation();
  const ret = await createReturn(s.origin, s.account1);
  const pkg = await createPackage(s.origin, s.account1, 1, ret.id);
  const item = await call(s.origin, 'POST', `/api/v1/accounts/1/return_packages/${pkg.id}/line_items`, {
    token: s.account1,
    body: { name: 'A', condition: 'like_new' },
  });
  const media = await call(s.origin, 'POST', `/api/v1/accounts/1/return_packages/${pkg.id}/media_files`, {
    token: s.account1,
    raw: sampleMedia('image/png'),
    headers: { 'content-type': 'image/png' },
  });
  expect(media.status, media.text).toBe(201);
  const op = await call(s.origin, 'POST', '/api/v1/station/operators', { token: s.stationToken, body: { name: 'Iso' } });
  params = {
    account_id: 1,
    id: pkg.id,
    line_item_id: (item.json as { id: number }).id,
    media_id: (media.json as { id: number }).id,
    return_id: ret.id,
    operator_id: (op.json as { id: number }).id,
  };
  // Account 2 exists too.
  await createReturn(s.origin, s.account2);
});
afterAll(async () => {
  await s.close();
});

const authenticated = Object.values(API_ROUTES).filter((r: RouteDefinition) => r.auth !== 'none') as RouteDefinition[];

function requestFor(route: RouteDefinition): { path: string; body?: unknown; raw?: Uint8Array; headers?: Record<string, string> } {
  const path = buildPath(
    route.path,
    route.path.startsWith('/api/v1/station/operators/') ? { id: params.operator_id ?? 0 } : (params as Record<string, number>),
  );
  const query = route.operationId === 'lookupCode' ? '?code=abc' : '';
  const bodies: Record<string, unknown> = {
    createReturn: returnBody(),
    createReturnPackage: packageBody(params.return_id ?? 0),
    updateReturnPackage: { notes: 'intruder' },
    createPackageLineItem: { name: 'intruder' },
    updatePackageLineItem: { notes: 'intruder' },
    createOperator: { name: 'intruder' },
    updateOperator: { name: 'intruder' },
  };
  if (route.body === 'media') return { path, raw: sampleMedia('image/jpeg', 99), headers: { 'content-type': 'image/jpeg' } };
  return { path: path + query, body: bodies[route.operationId] };
}

function snapshot() {
  const store = s.station.store;
  return {
    returns: store.count('returns', {}),
    packages: store.count('return_packages', {}),
    items: insidesOf(store).db.package_line_items.count(),
    media: insidesOf(store).db.media_files.count(),
    operators: insidesOf(store).db.operators.count(),
    changes: store.changeLog.after(0, 1_000_000).length,
  };
}
async function settle(snap: ReturnType<typeof snapshot>) {
  return { ...snap, items: await snap.items, media: await snap.media, operators: await snap.operators, changes: await snap.changes };
}

describe('every authenticated route', () => {
  it('is in the table (sanity)', () => {
    expect(authenticated.length).toBeGreaterThanOrEqual(19);
  });

  it.each(authenticated.map((r) => [r.operationId, r] as const))('%s: no token and a bad token → 401; nothing changes', async (_name, route) => {
    const before = await settle(snapshot());
    const req = requestFor(route);
    for (const token of [undefined, 'not-a-real-token', `${s.account1}x`]) {
      const response = await call(s.origin, route.method, req.path, { token, body: req.body, raw: req.raw, headers: req.headers });
      expect(response.status, `${route.method} ${req.path} token=${String(token)}: ${response.text}`).toBe(401);
      expect(response.json).toEqual({ error: 'Unauthorized', error_code: 'INVALID_TOKEN', details: { message: 'The access token is invalid or expired.' } });
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect(await settle(snapshot())).toEqual(before);
  });

  it.each(authenticated.filter((r) => r.auth !== 'any').map((r) => [r.operationId, r] as const))(
    "%s: another account's token → 403; nothing changes",
    async (_name, route) => {
      const before = await settle(snapshot());
      const req = requestFor(route);
      const response = await call(s.origin, route.method, req.path, { token: s.account2, body: req.body, raw: req.raw, headers: req.headers });
      expectError(response, 'ACCOUNT_FORBIDDEN');
      expect(await settle(snapshot())).toEqual(before);
    },
  );

  it("/returns with account 2's token acts on account 2 only", async () => {
    const list = await call(s.origin, 'GET', '/returns?per_page=250', { token: s.account2 });
    expect((list.json as { data: Array<{ account_id: number }> }).data.every((r) => r.account_id === 2)).toBe(true);
    const created = await call(s.origin, 'POST', '/returns', { token: s.account2, body: returnBody() });
    expect((created.json as { account_id: number }).account_id).toBe(2);
  });

  it('the station token may act on every account route', async () => {
    for (const route of authenticated.filter((r) => r.method === 'GET' && r.response !== 'sse')) {
      const req = requestFor(route);
      const response = await call(s.origin, 'GET', req.path, { token: s.stationToken });
      // The site's configuration (PIN hashes) and the authorities its members trust are a hub's members' alone (decisions/site-config.md, hub-tls.md).
      if (route.operationId === 'getSiteConfig' || route.operationId === 'getSiteAuthorities') expectError(response, 'NOT_SITE_MEMBER');
      // A station whose scale is typed by hand reads none itself (test/api/scale.test.ts reads one).
      else if (route.operationId === 'readScale') expectError(response, 'NOT_FOUND');
      else expect(response.status, `${req.path}: ${response.text}`).toBe(200);
    }
  });

  it("the events stream refuses another account's token and no token", async () => {
    const events = API_ROUTES.streamEvents.path.replace('{account_id}', '1');
    expectError(await call(s.origin, 'GET', events, { token: s.account2 }), 'ACCOUNT_FORBIDDEN');
    expect((await call(s.origin, 'GET', events)).status).toBe(401);
  });
});
