import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReturnPackageSchema, ReturnPackageUpdatedSchema } from '#shared/api/return-packages.ts';
import { ReturnListResponseSchema, type ReturnRecord } from '#shared/api/returns.ts';
import { call, createPackage, createReturn, expectError, packageBody, returnBody, startStation, type TestStation } from './support.ts';

/*
 * The status machine (docs/api-reference.md, Return packages), derived return quantities (Manual returns) and
 * Idempotency-Key (section 4).
 */

let s: TestStation;
let returnId: number;
const A1 = '/api/v1/accounts/1';
const patch = (id: number, body: unknown) => call(s.origin, 'PATCH', `${A1}/return_packages/${id}`, { token: s.account1, body });
async function getPkg(id: number) {
  const response = await call(s.origin, 'GET', `${A1}/return_packages/${id}`, { token: s.account1 });
  expect(response.status, response.text).toBe(200);
  return ReturnPackageSchema.strict().parse(response.json);
}

// Contract section 6, written out independently of shared/package-status.ts.
const MOVES: Record<string, string[]> = {
  pending: ['in_transit', 'delivered', 'received', 'exception', 'cancelled'],
  in_transit: ['delivered', 'received', 'exception', 'cancelled'],
  delivered: ['received', 'exception'],
  exception: ['in_transit', 'delivered', 'received', 'cancelled'],
  received: [],
  cancelled: [],
};
const ALL = Object.keys(MOVES);

/** A package in `status`, reached through allowed moves from a creatable status. */
async function packageIn(status: string): Promise<{ id: number; updated_at: string }> {
  const createAs = status === 'exception' || status === 'cancelled' ? 'pending' : status;
  const pkg = await createPackage(s.origin, s.account1, 1, returnId, { status: createAs as 'pending' });
  if (createAs === status) return pkg;
  const moved = await patch(pkg.id, { status });
  expect(moved.status, moved.text).toBe(200);
  return moved.json as { id: number; updated_at: string };
}

beforeAll(async () => {
  s = await startStation();
  returnId = (await createReturn(s.origin, s.account1)).id;
});
afterAll(async () => {
  await s.close();
});

describe('status machine', () => {
  it('create accepts pending, in_transit (default), delivered, received; not exception or cancelled', async () => {
    for (const status of ['pending', 'in_transit', 'delivered', 'received']) {
      const response = await call(s.origin, 'POST', `${A1}/return_packages`, {
        token: s.account1,
        body: packageBody(returnId, { status: status as 'pending' }),
      });
      expect(response.status, response.text).toBe(201);
      expect((response.json as { status: string }).status).toBe(status);
    }
    for (const status of ['exception', 'cancelled', 'lost']) {
      const response = await call(s.origin, 'POST', `${A1}/return_packages`, {
        token: s.account1,
        body: packageBody(returnId, { status: status as 'pending' }),
      });
      expectError(response, 'VALIDATION_FAILED');
    }
  });

  const allowed = ALL.flatMap((from) => (MOVES[from] ?? []).map((to) => [from, to] as const));
  it.each(allowed)('%s → %s is allowed; updated_at strictly increases', async (from, to) => {
    const pkg = await packageIn(from);
    const response = await patch(pkg.id, { status: to });
    expect(response.status, response.text).toBe(200);
    const updated = ReturnPackageUpdatedSchema.strict().parse(response.json);
    expect(updated.status).toBe(to);
    expect(updated.updated_at > pkg.updated_at).toBe(true);
    expect((await getPkg(pkg.id)).status).toBe(to);
  });

  const disallowed = ALL.flatMap((from) => ALL.filter((to) => to !== from && !(MOVES[from] ?? []).includes(to)).map((to) => [from, to] as const));
  it('every disallowed move is a 409 with from, to, allowed and changes nothing', async () => {
    expect(disallowed.length).toBeGreaterThan(10);
    const byFrom = new Map<string, { id: number; updated_at: string }>();
    for (const from of ALL) byFrom.set(from, await packageIn(from));
    for (const [from, to] of disallowed) {
      const pkg = byFrom.get(from);
      if (!pkg) throw new Error('fixture');
      const details = expectError(await patch(pkg.id, { status: to, notes: 'should not stick' }), 'INVALID_STATUS_TRANSITION');
      expect({ from: details.from, to: details.to }).toEqual({ from, to });
      expect([...(details.allowed as string[])].sort()).toEqual([...(MOVES[from] ?? [])].sort());
      const after = await getPkg(pkg.id);
      expect(after.status).toBe(from);
      expect(after.updated_at).toBe(pkg.updated_at);
    }
  });

  it.each(ALL)('a PATCH to the current status (%s) is allowed', async (status) => {
    const pkg = await packageIn(status);
    const response = await patch(pkg.id, { status });
    expect(response.status, response.text).toBe(200);
    expect((response.json as { status: string }).status).toBe(status);
    const withNotes = await patch(pkg.id, { status, notes: `still ${status}` });
    expect(withNotes.status, withNotes.text).toBe(200);
    expect((withNotes.json as { notes: string }).notes).toBe(`still ${status}`);
  });

  it('terminal packages still take notes', async () => {
    for (const status of ['received', 'cancelled']) {
      const pkg = await packageIn(status);
      const response = await patch(pkg.id, { notes: 'after the fact' });
      expect(response.status, response.text).toBe(200);
    }
  });

  it('received sets actual_arrival (now), processed_at (now) and processor_id', async () => {
    const operator = (await call(s.origin, 'POST', '/api/v1/station/operators', { token: s.stationToken, body: { name: 'Gus' } })).json as { id: number };
    const pkg = await packageIn('in_transit');
    const before = new Date().toISOString();
    const response = await patch(pkg.id, { status: 'received', processor_id: operator.id });
    const after = new Date().toISOString();
    expect(response.status, response.text).toBe(200);
    const detail = await getPkg(pkg.id);
    expect(detail.actual_arrival).not.toBeNull();
    expect(detail.processed_at).not.toBeNull();
    const arrival = detail.actual_arrival ?? '';
    const processed = detail.processed_at ?? '';
    expect(arrival >= before && arrival <= after, arrival).toBe(true);
    expect(processed >= before && processed <= after, processed).toBe(true);
    expect(detail.processor_id).toBe(operator.id);
  });

  it('received keeps an actual_arrival given in the same request', async () => {
    const pkg = await packageIn('pending');
    expect((await patch(pkg.id, { status: 'received', actual_arrival: '2026-01-02T03:04:05.678+01:00' })).status).toBe(200);
    const detail = await getPkg(pkg.id);
    expect(detail.actual_arrival).toBe('2026-01-02T02:04:05.678Z');
    expect(detail.processed_at).not.toBeNull();
  });

  it('a package created as received is processed at once', async () => {
    const pkg = await packageIn('received');
    const detail = await getPkg(pkg.id);
    expect(detail.processed_at).not.toBeNull();
    expect(detail.actual_arrival).not.toBeNull();
  });

  it('updated_at strictly increases on every change, also in quick succession; a no-op keeps it', async () => {
    const pkg = await packageIn('pending');
    let last = pkg.updated_at;
    for (let i = 0; i < 8; i++) {
      const response = await patch(pkg.id, { notes: `n${i}` });
      const now = (response.json as { updated_at: string }).updated_at;
      expect(now > last, `${now} > ${last}`).toBe(true);
      last = now;
    }
    const same = await patch(pkg.id, { notes: 'n7' });
    expect((same.json as { updated_at: string }).updated_at).toBe(last);
  });
});

describe('derived return quantities', () => {
  const returnOf = async (id: number, token = s.account1): Promise<ReturnRecord> => {
    const list = ReturnListResponseSchema.parse((await call(s.origin, 'GET', `${A1}/returns?per_page=250`, { token })).json);
    const record = list.data.find((r) => r.id === id);
    if (!record) throw new Error(`return ${id} not listed`);
    return record;
  };

  it('awaiting → partially_received → received as packages with line items are received', async () => {
    const ret = await createReturn(s.origin, s.account1, {
      return_line_items: [
        { quantity: 2, unreceived_quantity: 2, name: 'Sock', price: 3, currency: 'EUR', merchant_sku: 'SOCK' },
        { quantity: 1, unreceived_quantity: 1, name: 'Hat', price: 9, currency: 'EUR', merchant_sku: 'HAT' },
      ],
    });
    const [sock, hat] = ret.return_line_items;
    if (!sock || !hat) throw new Error('fixture');
    expect(ret.status).toBe('awaiting');

    const first = await createPackage(s.origin, s.account1, 1, ret.id);
    const lineItem = (body: unknown, id = first.id) => call(s.origin, 'POST', `${A1}/return_packages/${id}/line_items`, { token: s.account1, body });
    expect((await lineItem({ return_line_item_id: sock.id, quantity: 1 })).status).toBe(201);
    // Line items on a package not yet received do not count.
    let record = await returnOf(ret.id);
    expect(record.status).toBe('awaiting');
    expect(record.return_line_items.map((l) => l.unreceived_quantity)).toEqual([2, 1]);

    expect((await patch(first.id, { status: 'received' })).status).toBe(200);
    record = await returnOf(ret.id);
    expect(record.status).toBe('partially_received');
    expect(record.return_line_items.map((l) => l.unreceived_quantity)).toEqual([1, 1]);

    const second = await createPackage(s.origin, s.account1, 1, ret.id);
    expect((await lineItem({ return_line_item_id: sock.id, quantity: 1 }, second.id)).status).toBe(201);
    expect((await lineItem({ return_line_item_id: hat.id, quantity: 1 }, second.id)).status).toBe(201);
    // An unexpected item (no return line) counts against nothing.
    expect((await lineItem({ name: 'Stray glove' }, second.id)).status).toBe(201);
    expect((await patch(second.id, { status: 'received' })).status).toBe(200);
    record = await returnOf(ret.id);
    expect(record.status).toBe('received');
    expect(record.return_line_items.map((l) => l.unreceived_quantity)).toEqual([0, 0]);
    expect(record.updated_at > record.created_at).toBe(true);
  });

  it('line items added, changed and removed on an already received package recount; floored at 0', async () => {
    const ret = await createReturn(s.origin, s.account1, {
      return_line_items: [{ quantity: 3, unreceived_quantity: 3, name: 'Cup', price: 4, currency: 'EUR', merchant_sku: 'CUP' }],
    });
    const line = ret.return_line_items[0];
    if (!line) throw new Error('fixture');
    const pkg = await createPackage(s.origin, s.account1, 1, ret.id, { status: 'received' });
    const base = `${A1}/return_packages/${pkg.id}/line_items`;
    const added = await call(s.origin, 'POST', base, { token: s.account1, body: { return_line_item_id: line.id, quantity: 2 } });
    expect(added.status).toBe(201);
    let record = await returnOf(ret.id);
    expect(record.return_line_items[0]?.unreceived_quantity).toBe(1);
    expect(record.status).toBe('partially_received');

    const itemId = (added.json as { id: number }).id;
    expect((await call(s.origin, 'PATCH', `${base}/${itemId}`, { token: s.account1, body: { quantity: 5 } })).status).toBe(200);
    record = await returnOf(ret.id);
    expect(record.return_line_items[0]?.unreceived_quantity).toBe(0);
    expect(record.status).toBe('received');

    expect((await call(s.origin, 'DELETE', `${base}/${itemId}`, { token: s.account1 })).status).toBe(204);
    record = await returnOf(ret.id);
    expect(record.return_line_items[0]?.unreceived_quantity).toBe(3);
    expect(record.status).toBe('awaiting');
  });

  it('a return created with unreceived_quantity below quantity counts from there', async () => {
    const ret = await createReturn(s.origin, s.account1, {
      return_line_items: [{ quantity: 4, unreceived_quantity: 2, name: 'Pen', price: 1, currency: 'EUR', merchant_sku: 'PEN' }],
    });
    const line = ret.return_line_items[0];
    if (!line) throw new Error('fixture');
    const pkg = await createPackage(s.origin, s.account1, 1, ret.id);
    await call(s.origin, 'POST', `${A1}/return_packages/${pkg.id}/line_items`, { token: s.account1, body: { return_line_item_id: line.id, quantity: 1 } });
    expect((await patch(pkg.id, { status: 'received' })).status).toBe(200);
    const record = await returnOf(ret.id);
    expect(record.return_line_items[0]?.unreceived_quantity).toBe(1);
    expect(record.status).toBe('partially_received');
  });

  it("a line item may only name a line of the package's own return", async () => {
    const retA = await createReturn(s.origin, s.account1);
    const retB = await createReturn(s.origin, s.account1);
    const pkg = await createPackage(s.origin, s.account1, 1, retA.id);
    const response = await call(s.origin, 'POST', `${A1}/return_packages/${pkg.id}/line_items`, {
      token: s.account1,
      body: { return_line_item_id: retB.return_line_items[0]?.id },
    });
    expectError(response, 'VALIDATION_FAILED');
  });
});

describe('Idempotency-Key', () => {
  it('the same key and body returns the same response with Idempotent-Replayed, and one record only', async () => {
    const key = `create-return-${Date.now()}`;
    const body = returnBody({ email: 'idem@example.com' });
    const before = s.station.store.count('returns', {});
    const first = await call(s.origin, 'POST', '/returns', { token: s.account1, body, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same body with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const second = await call(s.origin, 'POST', '/returns', { token: s.account1, body: reordered, headers: { 'idempotency-key': key } });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.json).toEqual(first.json);
    expect(s.station.store.count('returns', {})).toBe(before + 1);
  });

  it('replays a 201 with its Location header for packages and line items', async () => {
    const key = `create-package-${Date.now()}`;
    const body = packageBody(returnId);
    const send = () => call(s.origin, 'POST', `${A1}/return_packages`, { token: s.account1, body, headers: { 'idempotency-key': key } });
    const first = await send();
    const second = await send();
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.json).toEqual(first.json);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const listed = await call(s.origin, 'GET', `${A1}/return_packages?tracking_number=${body.tracking_number}`, { token: s.account1 });
    expect(listed.status, listed.text).toBe(200);
    expect((listed.json as { data: unknown[] }).data).toHaveLength(1);

    const pkgId = (first.json as { id: number }).id;
    const sendItem = () =>
      call(s.origin, 'POST', `${A1}/return_packages/${pkgId}/line_items`, { token: s.account1, body: { name: 'X' }, headers: { 'idempotency-key': key } });
    const item1 = await sendItem();
    const item2 = await sendItem();
    expect(item2.json).toEqual(item1.json);
    expect((await getPkg(pkgId)).line_items).toHaveLength(1);
  });

  it('concurrent retries with one key still make one record', async () => {
    const key = `concurrent-${Date.now()}`;
    const body = returnBody({ email: 'concurrent@example.com' });
    const before = s.station.store.count('returns', {});
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => call(s.origin, 'POST', '/returns', { token: s.account1, body, headers: { 'idempotency-key': key } })),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(responses.map((r) => (r.json as { id: number }).id)).size).toBe(1);
    expect(s.station.store.count('returns', {})).toBe(before + 1);
  });

  it('a different body with the same key is a 409 and changes nothing', async () => {
    const key = `conflict-${Date.now()}`;
    await call(s.origin, 'POST', '/returns', { token: s.account1, body: returnBody(), headers: { 'idempotency-key': key } });
    const before = s.station.store.count('returns', {});
    expectError(
      await call(s.origin, 'POST', '/returns', { token: s.account1, body: returnBody({ total_price: 1 }), headers: { 'idempotency-key': key } }),
      'IDEMPOTENCY_KEY_REUSED',
    );
    expect(s.station.store.count('returns', {})).toBe(before);
  });

  it('keys are per token: another token with the same key makes its own record', async () => {
    const key = `shared-key-${Date.now()}`;
    const mine = await call(s.origin, 'POST', '/returns', { token: s.account1, body: returnBody(), headers: { 'idempotency-key': key } });
    const theirs = await call(s.origin, 'POST', '/returns', { token: s.account2, body: returnBody(), headers: { 'idempotency-key': key } });
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect((theirs.json as { account_id: number }).account_id).toBe(2);
    expect((theirs.json as { id: number }).id).not.toBe((mine.json as { id: number }).id);
  });

  it('a rejected request is not remembered: fixing the body with the same key succeeds', async () => {
    const key = `fix-${Date.now()}`;
    const bad = await call(s.origin, 'POST', '/returns', { token: s.account1, body: { ...returnBody(), extra: 1 }, headers: { 'idempotency-key': key } });
    expectError(bad, 'VALIDATION_FAILED');
    const good = await call(s.origin, 'POST', '/returns', { token: s.account1, body: returnBody(), headers: { 'idempotency-key': key } });
    expect(good.status, good.text).toBe(200);
  });

  it('a malformed key is refused', async () => {
    const response = await call(s.origin, 'POST', '/returns', { token: s.account1, body: returnBody(), headers: { 'idempotency-key': 'x'.repeat(256) } });
    expect(response.status).toBe(422);
  });
});
