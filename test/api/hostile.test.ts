import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '#shared/api/errors.ts';
import { call, createPackage, createReturn, packageBody, returnBody, startStation, type ApiResponse, type TestStation } from './support.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';

/*
 * Property-based hostile input (fast-check): random and mutated bodies, query strings and path ids
 * never produce a 5xx, the server keeps answering, and a rejected request changes nothing.
 */

let s: TestStation;
let returnId: number;
let packageId: number;
let lineItemId: number;
let operatorId: number;
const A1 = '/api/v1/accounts/1';
const RUNS = 120;
/** Makes a mutated package's unchanged tracking number new, the same way on a replay. */
let trackingSuffix = 0;

beforeAll(async () => {
  s = await startStation();
  const ret = await createReturn(s.origin, s.account1);
  returnId = ret.id;
  packageId = (await createPackage(s.origin, s.account1, 1, returnId)).id;
  lineItemId = (
    (await call(s.origin, 'POST', `${A1}/return_packages/${packageId}/line_items`, { token: s.account1, body: { name: 'Base' } })).json as { id: number }
  ).id;
  operatorId = ((await call(s.origin, 'POST', '/api/v1/station/operators', { token: s.stationToken, body: { name: 'Base' } })).json as { id: number }).id;
});
afterAll(async () => {
  await s.close();
});

/** Everything a rejected request must leave as it was. */
async function snapshot() {
  const { store } = s.station;
  const changes = store.changeLog.after(0, 1_000_000).length;
  const [items, media, operators, idem, pkg, item] = await Promise.all([
    insidesOf(store).db.package_line_items.count(),
    insidesOf(store).db.media_files.count(),
    insidesOf(store).db.operators.count(),
    insidesOf(store).db.idempotency_keys.count(),
    call(s.origin, 'GET', `${A1}/return_packages/${packageId}`, { token: s.stationToken }),
    insidesOf(store).db.package_line_items.get(lineItemId),
  ]);
  const operatorList = await call(s.origin, 'GET', '/api/v1/station/operators?per_page=250', { token: s.stationToken });
  return {
    returns: store.count('returns', {}),
    packages: store.count('return_packages', {}),
    items,
    media,
    operators,
    changes,
    idem,
    pkg: pkg.json,
    item,
    operatorList: operatorList.json,
  };
}

function expectSane(response: ApiResponse, what: string): void {
  expect(response.status, `${what} → ${response.status} ${response.text.slice(0, 300)}`).toBeLessThan(500);
  if (response.status >= 400) {
    const parsed = ErrorBodySchema.safeParse(response.json);
    expect(parsed.success, `${what} → ${response.text.slice(0, 300)}`).toBe(true);
    expect(response.text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  }
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const hostileKey = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'account_id', 'status', 'tracking_number', 'quantity', 'return_line_items'),
);
const hostileValue = fc.oneof(
  jsonValue,
  fc.constantFrom(
    -1,
    0,
    2 ** 31,
    -(2 ** 31) - 1,
    1e308,
    -0,
    0.1,
    '',
    ' ',
    'null',
    '1e1',
    '2026-02-30',
    '2026-11-21T10:00:00',
    'ÿ'.repeat(300),
    '\u0000',
    'EUR',
    'received',
    'cancelled',
  ),
);

/** A valid body with one to three mutations: a field removed, replaced, or an extra one added. */
function mutated(base: Record<string, unknown>) {
  const keys = Object.keys(base);
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('delete' as const), key: fc.constantFrom(...keys) }),
    fc.record({ kind: fc.constant('replace' as const), key: fc.constantFrom(...keys), value: hostileValue }),
    fc.record({ kind: fc.constant('add' as const), key: hostileKey, value: hostileValue }),
  );
  return fc.array(mutation, { minLength: 1, maxLength: 3 }).map((mutations) => {
    const body: Record<string, unknown> = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
    for (const m of mutations) {
      if (m.kind === 'delete') Reflect.deleteProperty(body, m.key);
      else Object.defineProperty(body, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
    }
    return body;
  });
}

interface Target {
  name: string;
  method: 'POST' | 'PATCH';
  path: () => string;
  token: () => string;
  valid: () => Record<string, unknown>;
}
const targets: Target[] = [
  { name: 'POST /returns', method: 'POST', path: () => '/returns', token: () => s.account1, valid: () => returnBody() as unknown as Record<string, unknown> },
  {
    name: 'POST return_packages',
    method: 'POST',
    path: () => `${A1}/return_packages`,
    token: () => s.account1,
    valid: () => packageBody(returnId, { carrier_id: 1, weight: 2, weight_unit: 'kg', status: 'pending' }) as unknown as Record<string, unknown>,
  },
  {
    name: 'PATCH return_package',
    method: 'PATCH',
    path: () => `${A1}/return_packages/${packageId}`,
    token: () => s.account1,
    valid: () => ({ status: 'in_transit', notes: 'ok', weight: 3, weight_unit: 'kg' }),
  },
  {
    name: 'POST line_items',
    method: 'POST',
    path: () => `${A1}/return_packages/${packageId}/line_items`,
    token: () => s.account1,
    valid: () => ({ quantity: 1, name: 'X', condition: 'good', tags: ['restock'] }),
  },
  {
    name: 'PATCH line_item',
    method: 'PATCH',
    path: () => `${A1}/return_packages/${packageId}/line_items/${lineItemId}`,
    token: () => s.account1,
    valid: () => ({ quantity: 2, notes: 'n', defective: true }),
  },
  {
    name: 'POST operators',
    method: 'POST',
    path: () => '/api/v1/station/operators',
    token: () => s.stationToken,
    valid: () => ({ name: 'Op', badge_code: 'B-1', active: true }),
  },
  {
    name: 'PATCH operator',
    method: 'PATCH',
    path: () => `/api/v1/station/operators/${operatorId}`,
    token: () => s.stationToken,
    valid: () => ({ name: 'Op2', active: false }),
  },
];

describe('hostile bodies', () => {
  it.each(targets.map((t) => [t.name, t] as const))('%s: random JSON never 5xx; rejected → nothing changes', async (_name, target) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(jsonValue, fc.dictionary(hostileKey, hostileValue, { maxKeys: 6 })), async (body) => {
        const before = await snapshot();
        const response = await call(s.origin, target.method, target.path(), { token: target.token(), body });
        expectSane(response, `${target.name} ${JSON.stringify(body).slice(0, 200)}`);
        if (response.status >= 400) expect(await snapshot()).toEqual(before);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(targets.map((t) => [t.name, t] as const))('%s: mutated valid bodies never 5xx; rejected → nothing changes', async (_name, target) => {
    await fc.assert(
      fc.asyncProperty(mutated(target.valid()), async (body) => {
        if (
          target.name === 'POST return_packages' &&
          typeof body.tracking_number === 'string' &&
          body.tracking_number === (target.valid().tracking_number as string)
        ) {
          trackingSuffix += 1;
          body.tracking_number = `${String(body.tracking_number)}-${trackingSuffix}`;
        }
        const before = await snapshot();
        const response = await call(s.origin, target.method, target.path(), { token: target.token(), body });
        expectSane(response, `${target.name} ${JSON.stringify(body).slice(0, 200)}`);
        if (response.status >= 400) expect(await snapshot()).toEqual(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('raw bytes declared as JSON never 5xx and change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 })), async (raw) => {
        const before = await snapshot();
        const response = await call(s.origin, 'POST', '/returns', { token: s.account1, raw, headers: { 'content-type': 'application/json' } });
        expectSane(response, `raw ${JSON.stringify(String(raw)).slice(0, 100)}`);
        if (response.status >= 400) expect(await snapshot()).toEqual(before);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('hostile query strings and path ids', () => {
  const listPaths = [
    '/returns',
    `${A1}/returns`,
    `${A1}/return_packages`,
    `${A1}/carriers`,
    `${A1}/locations`,
    '/api/v1/station/lookup',
    '/api/v1/station/operators',
  ];
  const queryKey = fc.oneof(
    fc.constantFrom(
      'page',
      'per_page',
      'sort',
      'status',
      'return_id',
      'tracking_number',
      'carrier_id',
      'location_id',
      'updated_since',
      'email',
      'account_id',
      'code',
    ),
    fc.string({ maxLength: 10 }),
  );
  const queryValue = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.integer().map(String),
    fc.constantFrom(
      '0',
      '-1',
      '1e3',
      '250',
      '251',
      '2147483648',
      'pending,received',
      ',',
      '-id',
      'id',
      '2026-11-21T10:00:00Z',
      '2026-11-21T10:00:00',
      '%',
      '[]',
    ),
  );

  it('random query strings never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...listPaths), fc.array(fc.tuple(queryKey, queryValue), { maxLength: 5 }), async (path, pairs) => {
        const query = new URLSearchParams(pairs).toString();
        const response = await call(s.origin, 'GET', `${path}?${query}`, { token: s.stationToken });
        expectSane(response, `GET ${path}?${query}`);
        if (response.status === 400) expect((response.json as { error_code: string }).error_code).toBe('INVALID_QUERY');
      }),
      { numRuns: 200 },
    );
  });

  it('random path ids never 5xx, and only a strict decimal id can name a resource', async () => {
    const templates = [
      (id: string) => `/api/v1/accounts/${id}/return_packages`,
      (id: string) => `${A1}/return_packages/${id}`,
      (id: string) => `${A1}/return_packages/${packageId}/line_items/${id}`,
      (id: string) => `/api/v1/accounts/${id}/returns`,
      (id: string) => `/api/v1/station/operators/${id}`,
    ];
    const id = fc.oneof(
      fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
      fc.integer().map(String),
      fc.constantFrom('1e1', '07', '%207', '-1', '1.0', '0x1', '1%00', '..', '%2E%2E', '1;1', '1,2', '１'),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...templates.keys()), id, fc.constantFrom('GET', 'PATCH', 'DELETE'), async (which, rawId, method) => {
        const path = templates[which]?.(rawId) ?? '/';
        const response = await call(s.origin, method, path, { token: s.stationToken, body: method === 'PATCH' ? { notes: 'x' } : undefined });
        expectSane(response, `${method} ${path}`);
        if (response.status < 400 && !/^[1-9][0-9]*$/.test(decodeURIComponent(rawId))) {
          throw new Error(`${method} ${path} answered ${response.status} for a non-canonical id`);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the server still answers after all of it', async () => {
    const response = await call(s.origin, 'GET', '/healthz');
    expect(response.status).toBe(200);
  });
});
