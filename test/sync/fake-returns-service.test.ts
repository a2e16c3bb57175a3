import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOptions, type FakeReturnsService, startFakeReturnsService } from './fake-returns-service.ts';

/*
 * The fake returns service does what its switches say. Everything goes over real HTTP to an
 * in-process listener; the fake's clock is injected where time matters.
 */

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

const started: FakeReturnsService[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((fake) => fake.close()));
});

async function start(options: FakeOptions = {}): Promise<FakeReturnsService> {
  const fake = await startFakeReturnsService(options);
  started.push(fake);
  return fake;
}

async function call(url: string, init: { method?: string; token?: string | null; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown), text };
}

interface Page {
  data: Array<Record<string, unknown>>;
  meta: { current_page: number; total_pages: number; total_count: number; per_page: number };
}

const packagesUrl = (fake: FakeReturnsService, account = 1) => `${fake.baseUrl}/v1/accounts/${account}/return_packages`;
const list = async (fake: FakeReturnsService, query = '', account = 1): Promise<Page> => {
  const answer = await call(`${packagesUrl(fake, account)}${query}`, { token: fake.defaultToken });
  expect(answer.status).toBe(200);
  return answer.body as Page;
};
const ids = (page: Page) => page.data.map((item) => item.id);

const PACKAGE_BODY = {
  return_id: 7,
  tracking_number: '1Z999AA10123456784',
  estimated_arrival: '2026-11-20T12:00:00Z',
  shipping_method: 'ground',
  weight: 1.5,
  weight_unit: 'kg',
  width: 20,
  height: 10,
  length: 30,
  dimension_unit: 'cm',
  shipping_label_cost: 6.5,
  shipping_label_cost_currency: 'EUR',
  carrier_id: 3,
  location_id: 4,
  status: 'in_transit',
};

const RETURN_BODY = {
  email: 'jane@example.com',
  receive_by: '2026-12-01',
  total_price: 59.9,
  currency: 'EUR',
  weight: 800,
  weight_unit: 'g',
  reason_of_return: 'Too small',
  length: 30,
  width: 20,
  height: 10,
  dimension_unit: 'cm',
  return_line_items: [{ quantity: 2, unreceived_quantity: 2, name: 'T-shirt', price: 19.95, currency: 'EUR', merchant_sku: 'TS-M' }],
};

function manualClock(startAt = Date.parse('2026-11-01T08:00:00Z')) {
  const clock = { t: startAt, now: () => clock.t };
  return clock;
}

describe('authentication and routes', () => {
  it('answers 401 with the spec shape without a valid token, and for an account the token does not cover', async () => {
    const fake = await start({ accounts: [1, 2] });
    const only2 = fake.token([2]);
    for (const token of [null, 'nope', only2]) {
      const answer = await call(packagesUrl(fake, 1), { token });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        error: expect.any(String),
        error_code: 'INVALID_TOKEN',
        details: { message: expect.stringMatching(/invalid or expired/) },
      });
    }
    expect((await call(packagesUrl(fake, 2), { token: only2 })).status).toBe(200);
    fake.revokeToken(only2);
    expect((await call(packagesUrl(fake, 2), { token: only2 })).status).toBe(401);
    fake.modes.foreignAccount = 403;
    expect((await call(packagesUrl(fake, 1), { token: fake.token([2]) })).status).toBe(403);
  });

  it('answers unknown paths, unknown ids and unknown accounts with 404 JSON', async () => {
    const fake = await start();
    for (const url of [
      `${fake.baseUrl}/v1/accounts/1/carriers`,
      `${fake.baseUrl}/accounts/1/return_packages`,
      `${packagesUrl(fake)}/999`,
      `${fake.returnsUrl}/returns/1`,
    ]) {
      const answer = await call(url, { token: fake.defaultToken });
      expect(answer.status, url).toBe(404);
      expect(answer.body).toMatchObject({ error_code: 'NOT_FOUND' });
    }
    expect((await call(packagesUrl(fake, 5), { token: fake.token([5]) })).status).toBe(404);
    expect((await call(packagesUrl(fake), { method: 'DELETE', token: fake.defaultToken })).status).toBe(404);
  });

  it('serves both families on separate ports and prefixes with separateAddresses', async () => {
    const fake = await start({ separateAddresses: true });
    const returnsOrigin = new URL(fake.returnsUrl);
    const baseOrigin = new URL(fake.baseUrl);
    expect(returnsOrigin.port).not.toBe(baseOrigin.port);
    expect(fake.baseUrl.startsWith(fake.returnsUrl)).toBe(false);
    expect(fake.returnsUrl.startsWith(fake.baseUrl)).toBe(false);
    expect((await call(`${fake.returnsUrl}/returns`, { token: fake.defaultToken })).status).toBe(200);
    expect((await call(packagesUrl(fake), { token: fake.defaultToken })).status).toBe(200);
    // Each listener serves only its own family.
    expect((await call(`${returnsOrigin.origin}${baseOrigin.pathname}/v1/accounts/1/return_packages`, { token: fake.defaultToken })).status).toBe(404);
    expect((await call(`${baseOrigin.origin}${returnsOrigin.pathname}/returns`, { token: fake.defaultToken })).status).toBe(404);
  });
});

describe('return packages', () => {
  it('answers exactly the L, C, G and U fields of the spec table', async () => {
    const fake = await start();
    const created = await call(packagesUrl(fake), { method: 'POST', token: fake.defaultToken, body: PACKAGE_BODY });
    expect(created.status).toBe(201);
    const c = created.body as Record<string, unknown>;
    expect(Object.keys(c).sort()).toEqual(
      [
        'id',
        'return_id',
        'tracking_number',
        'status',
        'estimated_arrival',
        'shipping_method',
        'weight',
        'weight_unit',
        'dimensions',
        'shipping_label_cost',
        'shipping_label_cost_currency',
        'carrier_id',
        'location_id',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(c.dimensions).toEqual({ length: 30, width: 20, height: 10, dimension_unit: 'cm' });
    expect(typeof c.id).toBe('number');
    expect(c.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);

    const item = (await list(fake)).data[0] ?? {};
    expect(Object.keys(item).sort()).toEqual(
      [
        'id',
        'return_id',
        'tracking_number',
        'status',
        'estimated_arrival',
        'weight',
        'weight_unit',
        'dimensions',
        'carrier',
        'location_id',
        'fulfillment_center_id',
        'line_items_count',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(Object.keys(item.carrier as object).sort()).toEqual(['id', 'name', 'service']);

    const got = (await call(`${packagesUrl(fake)}/${String(c.id)}`, { token: fake.defaultToken })).body as Record<string, unknown>;
    expect(Object.keys(got).sort()).toEqual(
      [
        'id',
        'return_id',
        'tracking_number',
        'status',
        'estimated_arrival',
        'actual_arrival',
        'shipping_method',
        'weight',
        'weight_unit',
        'dimensions',
        'shipping_label_cost',
        'shipping_label_cost_currency',
        'carrier_id',
        'carrier',
        'location_id',
        'fulfillment_center_id',
        'line_items',
        'media_files',
        'processed_at',
        'processor_id',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(Object.keys(got.carrier as object).sort()).toEqual(['code', 'id', 'name']);

    const updated = await call(`${packagesUrl(fake)}/${String(c.id)}`, {
      method: 'PATCH',
      token: fake.defaultToken,
      body: { status: 'received', actual_arrival: '2026-11-21T09:00:00Z', notes: 'box dented' },
    });
    expect(updated.status).toBe(200);
    const u = updated.body as Record<string, unknown>;
    expect(Object.keys(u).sort()).toEqual(
      [
        'id',
        'return_id',
        'tracking_number',
        'status',
        'estimated_arrival',
        'actual_arrival',
        'shipping_method',
        'weight',
        'weight_unit',
        'dimensions',
        'shipping_label_cost',
        'shipping_label_cost_currency',
        'carrier_id',
        'location_id',
        'notes',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(u).toMatchObject({ status: 'received', actual_arrival: '2026-11-21T09:00:00Z', notes: 'box dented' });
  });

  it('keeps tracking numbers non-unique, accepts any status string and changes updated_at on every update', async () => {
    const clock = manualClock();
    const fake = await start({ clock: clock.now });
    for (let i = 0; i < 2; i += 1) {
      expect((await call(packagesUrl(fake), { method: 'POST', token: fake.defaultToken, body: { ...PACKAGE_BODY, status: 'weird_state' } })).status).toBe(201);
    }
    expect(fake.packages(1).map((p) => p.tracking_number)).toEqual([PACKAGE_BODY.tracking_number, PACKAGE_BODY.tracking_number]);
    const stamps = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      const answer = await call(`${packagesUrl(fake)}/1`, { method: 'PATCH', token: fake.defaultToken, body: { notes: `n${i}` } });
      stamps.add((answer.body as { updated_at: string }).updated_at);
    }
    expect(stamps.size).toBe(3); // the clock did not move
  });

  it('validates types with 422 JSON; packageRequired picks the required fields', async () => {
    const fake = await start();
    const bad = await call(packagesUrl(fake), { method: 'POST', token: fake.defaultToken, body: { weight: 'heavy', carrier_id: 1.5 } });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error_code: 'VALIDATION_FAILED', details: { fields: { weight: expect.any(String), carrier_id: expect.any(String) } } });
    expect((await call(packagesUrl(fake), { method: 'POST', token: fake.defaultToken, body: {} })).status).toBe(201);
    fake.modes.packageRequired = 'all';
    expect((await call(packagesUrl(fake), { method: 'POST', token: fake.defaultToken, body: { status: 'in_transit' } })).status).toBe(422);
    expect((await call(packagesUrl(fake), { method: 'POST', token: fake.defaultToken, body: PACKAGE_BODY })).status).toBe(201);
    const notJson = await fetch(packagesUrl(fake), {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.defaultToken}`, 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
  });

  it('createStatus 200, patchStatus 204 with no body', async () => {
    const fake = await start({ modes: { createStatus: 200, patchStatus: 204 } });
    expect((await call(packagesUrl(fake), { method: 'POST', token: fake.defaultToken, body: PACKAGE_BODY })).status).toBe(200);
    const patched = await call(`${packagesUrl(fake)}/1`, { method: 'PATCH', token: fake.defaultToken, body: { status: 'received' } });
    expect(patched.status).toBe(204);
    expect(patched.text).toBe('');
    expect(fake.packages(1)[0]?.status).toBe('received');
  });

  it('patchFields: only status/actual_arrival/notes by default, every create field with "all"', async () => {
    const fake = await start();
    fake.seedPackage(1, { tracking_number: 'A', weight: 1 });
    await call(`${packagesUrl(fake)}/1`, { method: 'PATCH', token: fake.defaultToken, body: { tracking_number: 'B', weight: 2, status: 'received' } });
    expect(fake.packages(1)[0]).toMatchObject({ tracking_number: 'A', weight: 1, status: 'received' });
    fake.modes.patchFields = 'all';
    await call(`${packagesUrl(fake)}/1`, { method: 'PATCH', token: fake.defaultToken, body: { tracking_number: 'B', weight: 2 } });
    expect(fake.packages(1)[0]).toMatchObject({ tracking_number: 'B', weight: 2 });
  });
});

describe('listing', () => {
  it('ignores filters by default and honours them when told', async () => {
    const clock = manualClock();
    const fake = await start({ clock: clock.now });
    fake.seedPackage(1, { tracking_number: 'AAA', status: 'in_transit', return_id: 1 });
    clock.t += 60_000;
    const since = new Date(clock.t).toISOString();
    fake.seedPackage(1, { tracking_number: 'bbb', status: 'received', return_id: 2 });
    clock.t += 60_000;
    fake.seedPackage(1, { tracking_number: 'CCC', status: 'in_transit', return_id: 2 });
    clock.t += 60_000;
    fake.updatePackage(1, 1, { notes: 'touched' }); // updated last

    const queries = [`?updated_since=${encodeURIComponent(since)}`, '?status=received', '?tracking_number=BBB', '?return_id=2', '?sort=-updated_at'];
    for (const query of queries) expect(ids(await list(fake, query)), query).toEqual([1, 2, 3]);

    fake.modes.filters = 'honoured';
    expect(ids(await list(fake, `?updated_since=${encodeURIComponent(since)}`))).toEqual([1, 2, 3]); // inclusive; 1 was updated later
    expect(ids(await list(fake, `?updated_since=${encodeURIComponent(new Date(clock.t + 1).toISOString())}`))).toEqual([]);
    expect(ids(await list(fake, '?status=received'))).toEqual([2]);
    expect(ids(await list(fake, '?status=received,in_transit'))).toEqual([1, 2, 3]);
    expect(ids(await list(fake, '?tracking_number=BBB'))).toEqual([2]);
    expect(ids(await list(fake, '?return_id=2'))).toEqual([2, 3]);
    expect(ids(await list(fake, '?sort=-updated_at'))).toEqual([1, 3, 2]);
    expect(ids(await list(fake, '?sort=created_at'))).toEqual([1, 2, 3]);
    expect(ids(await list(fake, '?sort=-id'))).toEqual([3, 2, 1]);
    expect((await call(`${packagesUrl(fake)}?sort=weight`, { token: fake.defaultToken })).status).toBe(422);
  });

  it('orders by id ascending by default, descending with order id_desc', async () => {
    const fake = await start();
    for (let i = 0; i < 4; i += 1) fake.seedPackage(1);
    expect(ids(await list(fake))).toEqual([1, 2, 3, 4]);
    fake.modes.order = 'id_desc';
    expect(ids(await list(fake))).toEqual([4, 3, 2, 1]);
  });

  it('pages with a default size and clamps per_page to the cap (25, 100, 250), saying the size used', async () => {
    const fake = await start();
    for (let i = 0; i < 260; i += 1) fake.seedPackage(1, { tracking_number: `T${i}` });
    const first = await list(fake);
    expect(first.data).toHaveLength(25);
    expect(first.meta).toEqual({ current_page: 1, total_pages: 11, total_count: 260, per_page: 25 });
    for (const cap of [25, 100, 250]) {
      fake.modes.pageCap = cap;
      const page = await list(fake, '?per_page=1000&page=2');
      expect(page.meta).toEqual({ current_page: 2, total_pages: Math.ceil(260 / cap), total_count: 260, per_page: cap });
      expect(page.data).toHaveLength(Math.min(cap, 260 - cap));
      expect(page.data[0]?.id).toBe(cap + 1);
    }
    const past = await list(fake, '?per_page=100&page=99');
    expect(past.data).toEqual([]);
    expect(past.meta).toMatchObject({ current_page: 99, total_count: 260 });
  });

  it('leaves seeded packages in unknown statuses out unless unknownStatuses', async () => {
    const fake = await start();
    fake.seedPackage(1, { status: 'in_transit' });
    fake.seedPackage(1, { status: 'returned_to_sender' });
    expect(ids(await list(fake))).toEqual([1]);
    fake.modes.unknownStatuses = true;
    const page = await list(fake);
    expect(page.data.map((p) => p.status)).toEqual(['in_transit', 'returned_to_sender']);
  });

  it('adds extra fields, drops fields and nulls fields on request', async () => {
    const fake = await start({ modes: { extraFields: true } });
    fake.seedPackage(1, { tracking_number: 'X', location_id: 9, line_items: [{ name: 'Shirt' }] });
    const withExtra = (await list(fake)).data[0] ?? {};
    expect(withExtra).toMatchObject({ foo_extension: expect.any(Object), internal_ref: expect.any(String) });
    const got = (await call(`${packagesUrl(fake)}/1`, { token: fake.defaultToken })).body as { line_items: Array<Record<string, unknown>> };
    expect(got.line_items[0]).toHaveProperty('internal_ref');
    fake.modes.extraFields = false;
    fake.modes.dropFields = ['tracking_number', 'line_items_count'];
    fake.modes.nullFields = ['location_id'];
    const reduced = (await list(fake)).data[0] ?? {};
    expect(reduced).not.toHaveProperty('tracking_number');
    expect(reduced).not.toHaveProperty('line_items_count');
    expect(reduced).not.toHaveProperty('internal_ref');
    expect(reduced.location_id).toBeNull();
  });
});

describe('manual returns', () => {
  it('creates with 200 and the record (ids on the return and its lines), or an empty body', async () => {
    const fake = await start();
    const created = await call(`${fake.returnsUrl}/returns`, { method: 'POST', token: fake.defaultToken, body: RETURN_BODY });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ id: 1, email: RETURN_BODY.email, return_line_items: [{ id: expect.any(Number), merchant_sku: 'TS-M' }] });
    expect(created.body).not.toHaveProperty('created_at');
    fake.modes.returnCreateBody = 'empty';
    const empty = await call(`${fake.returnsUrl}/returns`, { method: 'POST', token: fake.defaultToken, body: RETURN_BODY });
    expect(empty.status).toBe(200);
    expect(empty.text).toBe('');
    expect(fake.returns(1)).toHaveLength(2);
    const missing = await call(`${fake.returnsUrl}/returns`, {
      method: 'POST',
      token: fake.defaultToken,
      body: { ...RETURN_BODY, weight: 1.5, receive_by: 'soon', return_line_items: [{ quantity: 1 }] },
    });
    expect(missing.status).toBe(422);
    expect(Object.keys((missing.body as { details: { fields: object } }).details.fields)).toEqual(
      expect.arrayContaining(['weight', 'receive_by', 'return_line_items[0].name']),
    );
  });

  it('lists returns paged by default, as a bare array with returnsList array, on both listing paths', async () => {
    const fake = await start({ accounts: [1, 2] });
    for (let i = 0; i < 3; i += 1) fake.seedReturn(1, { email: `c${i}@example.com` });
    fake.seedReturn(2);
    const paged = (await call(`${fake.returnsUrl}/returns?per_page=2`, { token: fake.token([1]) })).body as Page;
    expect(paged.meta).toEqual({ current_page: 1, total_pages: 2, total_count: 3, per_page: 2 });
    const accountList = (await call(`${fake.baseUrl}/v1/accounts/2/returns`, { token: fake.defaultToken })).body as Page;
    expect(accountList.data.map((r) => r.id)).toEqual([4]);
    fake.modes.returnsList = 'array';
    const array = (await call(`${fake.returnsUrl}/returns?per_page=2`, { token: fake.token([1]) })).body as Array<{ id: number }>;
    expect(array.map((r) => r.id)).toEqual([1, 2, 3]);
    fake.modes.filters = 'honoured';
    fake.modes.returnTimestamps = true;
    const byEmail = (await call(`${fake.baseUrl}/v1/accounts/1/returns?email=C1@example.com`, { token: fake.defaultToken })).body as Array<
      Record<string, unknown>
    >;
    expect(byEmail.map((r) => r.id)).toEqual([2]);
    expect(byEmail[0]).toHaveProperty('updated_at');
  });
});

describe('faults', () => {
  it('commits the effect of a lost answer and records it as lost', async () => {
    const fake = await start({ modes: { loseAnswer: (req) => req.method === 'POST' } });
    await expect(call(packagesUrl(fake), { method: 'POST', token: fake.defaultToken, body: PACKAGE_BODY })).rejects.toThrow();
    expect(fake.packages(1)).toHaveLength(1);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', status: 'lost', account: 1 });
  });

  it('answers an injected fault without the effect', async () => {
    const fake = await start({ modes: { fault: (req) => (req.method === 'POST' ? { status: 500, headers: { 'x-why': 'test' } } : null) } });
    const answer = await call(packagesUrl(fake), { method: 'POST', token: fake.defaultToken, body: PACKAGE_BODY });
    expect(answer.status).toBe(500);
    expect(answer.headers.get('x-why')).toBe('test');
    expect(fake.packages(1)).toHaveLength(0);
  });

  it('answers every request with the outage status and Retry-After until the outage ends', async () => {
    const clock = manualClock();
    const fake = await start({ clock: clock.now, modes: { outage: { status: 503, until: clock.t + 90_000 } } });
    const down = await call(packagesUrl(fake), { token: fake.defaultToken });
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('90');
    expect((await call(`${fake.returnsUrl}/returns`, { token: null })).status).toBe(503);
    fake.modes.outage = { status: 502, retryAfterSeconds: 7, until: clock.t + 90_000 };
    expect((await call(packagesUrl(fake), { token: fake.defaultToken })).headers.get('retry-after')).toBe('7');
    clock.t += 90_000;
    expect((await call(packagesUrl(fake), { token: fake.defaultToken })).status).toBe(200);
  });

  it('delays answers by latencyMs', async () => {
    const fake = await start({ modes: { latencyMs: 120 } });
    const before = Date.now();
    await call(packagesUrl(fake), { token: fake.defaultToken });
    expect(Date.now() - before).toBeGreaterThanOrEqual(110);
  });
});

describe('rate limit', () => {
  it('sends X-RateLimit headers on every answer and 429 with Retry-After once exceeded, resetting with the window', async () => {
    const clock = manualClock();
    const fake = await start({ clock: clock.now });
    const first = await call(packagesUrl(fake), { token: fake.defaultToken });
    expect([first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining'), first.headers.get('x-ratelimit-reset')]).toEqual([
      '1000',
      '999',
      '3600',
    ]);
    fake.modes.rateLimit = { limit: 3, windowMs: 60_000, scope: 'account' };
    clock.t += 3_600_000; // a fresh window under the new limit
    for (let i = 0; i < 3; i += 1) expect((await call(packagesUrl(fake), { token: fake.defaultToken })).status).toBe(200);
    clock.t += 20_000;
    const limited = await call(packagesUrl(fake), { token: fake.defaultToken });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('40');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.body).toMatchObject({ error: expect.any(String), error_code: 'RATE_LIMITED', details: { message: expect.any(String) } });
    clock.t += 40_000;
    expect((await call(packagesUrl(fake), { token: fake.defaultToken })).status).toBe(200);
  });

  it('counts per account by default (two tokens share it) and per token with scope token', async () => {
    const fake = await start({ accounts: [1, 2], modes: { rateLimit: { limit: 2, windowMs: 60_000, scope: 'account' } } });
    const a = fake.token([1]);
    const b = fake.token([1]);
    expect((await call(packagesUrl(fake), { token: a })).status).toBe(200);
    expect((await call(packagesUrl(fake), { token: b })).status).toBe(200);
    expect((await call(packagesUrl(fake), { token: b })).status).toBe(429);
    expect((await call(packagesUrl(fake, 2), { token: fake.token([2]) })).status).toBe(200); // another account
    const fresh = await start({ accounts: [1, 2], modes: { rateLimit: { limit: 2, windowMs: 60_000, scope: 'token' } } });
    const both = fresh.token([1, 2]);
    expect((await call(packagesUrl(fresh, 1), { token: both })).status).toBe(200);
    expect((await call(packagesUrl(fresh, 2), { token: both })).status).toBe(200);
    expect((await call(packagesUrl(fresh, 1), { token: both })).status).toBe(429); // same token, other account
    expect((await call(packagesUrl(fresh, 1), { token: fresh.token([1]) })).status).toBe(200); // another token
  });

  it('rateLimited returns-only leaves package operations uncounted', async () => {
    const fake = await start({ modes: { rateLimit: { limit: 1, windowMs: 60_000, scope: 'account' }, rateLimited: 'returns-only' } });
    for (let i = 0; i < 3; i += 1) expect((await call(packagesUrl(fake), { token: fake.defaultToken })).status).toBe(200);
    expect((await call(`${fake.returnsUrl}/returns`, { token: fake.defaultToken })).status).toBe(200);
    expect((await call(`${fake.returnsUrl}/returns`, { token: fake.defaultToken })).status).toBe(429);
  });
});

describe('idempotency', () => {
  it('ignores Idempotency-Key by default and replays the first answer when on', async () => {
    const fake = await start();
    const send = (key: string, body: unknown = PACKAGE_BODY) =>
      call(packagesUrl(fake), { method: 'POST', token: fake.defaultToken, body, headers: { 'idempotency-key': key } });
    await send('k1');
    await send('k1');
    expect(fake.packages(1)).toHaveLength(2);
    fake.modes.idempotency = true;
    const first = await send('k2');
    const again = await send('k2');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(fake.packages(1)).toHaveLength(3);
    expect((await send('k2', { ...PACKAGE_BODY, tracking_number: 'other' })).status).toBe(422);
    // A lost first answer is replayed too.
    fake.modes.loseAnswer = () => true;
    await expect(send('k3')).rejects.toThrow();
    fake.modes.loseAnswer = null;
    expect(((await send('k3')).body as { id: number }).id).toBe(4);
    expect(fake.packages(1)).toHaveLength(4);
  });
});

describe('line item and media routes', () => {
  it('answers 404 by default and serves them when switched on; media urls are under media_url', async () => {
    const fake = await start();
    fake.seedPackage(1, { status: 'received', media_files: [{ type: 'image', content: Uint8Array.from([1, 2, 3]) }] });
    const lineItems = `${packagesUrl(fake)}/1/line_items`;
    const media = `${packagesUrl(fake)}/1/media_files`;
    expect((await call(lineItems, { method: 'POST', token: fake.defaultToken, body: { quantity: 1 } })).status).toBe(404);
    expect((await call(media, { token: fake.defaultToken })).status).toBe(404);
    fake.modes.lineItemRoutes = true;
    fake.modes.mediaRoutes = true;
    const item = await call(lineItems, { method: 'POST', token: fake.defaultToken, body: { quantity: 1, condition: 'good', tags: ['a'] } });
    expect(item.status).toBe(201);
    expect(fake.packages(1)[0]?.line_items).toHaveLength(1);
    const got = (await call(`${packagesUrl(fake)}/1`, { token: fake.defaultToken })).body as { media_files: Array<{ url: string }> };
    const url = got.media_files[0]?.url ?? '';
    expect(url.startsWith(`${fake.mediaUrl}/`)).toBe(true);
    expect((await fetch(url)).status).toBe(401);
    const bytes = await fetch(url, { headers: { authorization: `Bearer ${fake.defaultToken}` } });
    expect([...new Uint8Array(await bytes.arrayBuffer())]).toEqual([1, 2, 3]);
    fake.modes.mediaAuth = false;
    expect((await fetch(url)).status).toBe(200);
  });
});

describe('records and launcher', () => {
  it('records method, path, query, status, time, token and account', async () => {
    const clock = manualClock();
    const fake = await start({ clock: clock.now });
    await call(`${packagesUrl(fake)}?page=2`, { token: fake.defaultToken });
    expect(fake.requests).toEqual([
      {
        method: 'GET',
        path: new URL(packagesUrl(fake)).pathname,
        query: { page: '2' },
        status: 200,
        at: clock.t,
        token: fake.defaultToken,
        account: 1,
        idempotencyKey: null,
        body: '',
      },
    ]);
  });

  it('the launcher prints returns_url, base_url and a token that works', async () => {
    const file = fileURLToPath(new URL('./fake-returns-service.ts', import.meta.url));
    // The repo's Node 24 runs .ts directly, whichever node runs vitest.
    const repoNode = fileURLToPath(new URL('../../node_modules/.bin/node', import.meta.url));
    const child = spawn(
      existsSync(repoNode) ? repoNode : process.execPath,
      [file, '--port', '0', '--separate', '--mode', 'patchStatus=204', '--mode', 'dropFields=notes'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const output = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
          if (/token: \S+\n/.test(text)) resolve(text);
        });
        child.once('exit', (code) => reject(new Error(`launcher exited ${code}`)));
      });
      const base = /base_url: (\S+)/.exec(output)?.[1] ?? '';
      const token = /token: (\S+)/.exec(output)?.[1] ?? '';
      expect(output).toMatch(/returns_url: http:\/\/127\.0\.0\.1:\d+\/manual/);
      expect((await call(`${base}/v1/accounts/1/return_packages`, { token })).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
