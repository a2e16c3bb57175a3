import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackageLineItem } from '#shared/api/line-items.ts';
import type { StationEvent } from '#shared/api/events.ts';
import { followEvents } from '../support/event-stream.ts';
import { call, createPackage, createReturn, expectError, startStation, type TestStation } from './support.ts';

/*
 * Each unit its own (docs/decisions/units.md), through the API: two units of one return line are two
 * line items with their own condition, disposition, bin, unit id, put and label; who set a unit's
 * condition and who put it, and when; an integrator's line of quantity N stays one line; a PATCH or
 * DELETE of a line changes that one unit; refusals name their field and change nothing.
 */

let s: TestStation;
const A1 = '/api/v1/accounts/1';
let ada: number;
let ben: number;

beforeAll(async () => {
  s = await startStation();
  const worker = async (name: string, badge_code: string) => {
    const res = await call(s.origin, 'POST', '/api/v1/station/operators', { token: s.stationToken, body: { name, badge_code } });
    expect(res.status, res.text).toBe(201);
    return (res.json as { id: number }).id;
  };
  ada = await worker('Ada', 'BADGE-UNITS-ADA');
  ben = await worker('Ben', 'BADGE-UNITS-BEN');
}, 60_000);
afterAll(async () => s?.close());

async function newPackage() {
  const ret = await createReturn(s.origin, s.account1);
  const pkg = await createPackage(s.origin, s.account1, 1, ret.id, { status: 'delivered' });
  const line = ret.return_line_items[0];
  if (!line) throw new Error('The manual return has no line.');
  return { pkg, line, items: `${A1}/return_packages/${pkg.id}/line_items` };
}

async function send(method: string, path: string, body?: Record<string, unknown>, status = method === 'POST' ? 201 : 200): Promise<PackageLineItem> {
  const res = await call(s.origin, method, path, { token: s.account1, ...(body ? { body } : {}) });
  expect(res.status, res.text).toBe(status);
  return res.json as PackageLineItem;
}

async function itemsOf(pkgId: number): Promise<PackageLineItem[]> {
  const res = await call(s.origin, 'GET', `${A1}/return_packages/${pkgId}`, { token: s.account1 });
  expect(res.status, res.text).toBe(200);
  return (res.json as { line_items: PackageLineItem[] }).line_items;
}

const fieldsOf = (details: Record<string, unknown>) => (details.fields as Array<{ path: string }>).map((f) => f.path);

describe('two units of one return line', () => {
  it('are two line items with their own condition, disposition, bin and unit id, and who set each condition when', async () => {
    const { pkg, line, items } = await newPackage();
    const first = await send('POST', items, { return_line_item_id: line.id, condition: 'new', condition_by: ada });
    // The second unit is scanned: nothing of the first is copied to it.
    const second = await send('POST', items, { return_line_item_id: line.id });
    expect(second).toMatchObject({ quantity: 1, condition: null, condition_by: null, condition_at: null, disposition: null, bin: null });

    const inspected = await send('PATCH', `${items}/${second.id}`, { condition: 'good', condition_by: ben });
    const stored = await itemsOf(pkg.id);
    expect(stored.map((i) => [i.id, i.return_line_item_id, i.merchant_sku, i.quantity])).toEqual([
      [first.id, line.id, line.merchant_sku, 1],
      [second.id, line.id, line.merchant_sku, 1],
    ]);
    const [a, b] = stored as [PackageLineItem, PackageLineItem];
    expect(a).toMatchObject({ condition: 'new', disposition: 'restock', bin: 'RESTOCK', condition_by: ada });
    expect(b).toMatchObject({ condition: 'good', disposition: 'refurbish', bin: 'REFURB', condition_by: ben, condition_at: inspected.condition_at });
    expect(a.unit_id).toMatch(/^RS-[A-Z0-9]{8}-\d+$/);
    expect(b.unit_id).toMatch(/^RS-[A-Z0-9]{8}-\d+$/);
    expect(a.unit_id).not.toBe(b.unit_id);
    expect(a.condition_at).toBe(first.condition_at);
    // Set when the second unit was inspected, after the first.
    expect(Date.parse(b.condition_at ?? '')).toBeGreaterThanOrEqual(Date.parse(a.condition_at ?? ''));
  });

  it('records a new setter only when the condition changes, and forgets it when the condition is unset', async () => {
    const { items } = await newPackage();
    const unit = await send('POST', items, { condition: 'good', condition_by: ada });
    expect(unit).toMatchObject({ condition_by: ada });
    expect(unit.condition_at).not.toBeNull();
    // The same condition again (a client echoing what it was given) keeps who set it first.
    const same = await send('PATCH', `${items}/${unit.id}`, { condition: 'good', condition_by: ben, notes: 'checked' });
    expect(same).toMatchObject({ condition_by: ada, condition_at: unit.condition_at });
    const changed = await send('PATCH', `${items}/${unit.id}`, { condition: 'fair' });
    expect(changed).toMatchObject({ condition: 'fair', condition_by: null });
    expect(changed.condition_at).not.toBeNull();
    const unset = await send('PATCH', `${items}/${unit.id}`, { condition: null });
    expect(unset).toMatchObject({ condition: null, condition_by: null, condition_at: null });
  });

  it('refuses a setter without a condition or one that is no worker, on the field, and records nothing', async () => {
    const { pkg, items } = await newPackage();
    expect(fieldsOf(expectError(await call(s.origin, 'POST', items, { token: s.account1, body: { condition_by: ada } }), 'VALIDATION_FAILED'))).toEqual([
      'condition_by',
    ]);
    expect(
      fieldsOf(expectError(await call(s.origin, 'POST', items, { token: s.account1, body: { condition: 'new', condition_by: 99_999 } }), 'VALIDATION_FAILED')),
    ).toEqual(['condition_by']);
    expect(await itemsOf(pkg.id)).toEqual([]);
    const unit = await send('POST', items, { condition: 'new' });
    expect(
      fieldsOf(
        expectError(await call(s.origin, 'PATCH', `${items}/${unit.id}`, { token: s.account1, body: { notes: 'x', condition_by: ada } }), 'VALIDATION_FAILED'),
      ),
    ).toEqual(['condition_by']);
    expect(
      fieldsOf(
        expectError(
          await call(s.origin, 'PATCH', `${items}/${unit.id}`, { token: s.account1, body: { condition: 'fair', condition_by: 99_999 } }),
          'VALIDATION_FAILED',
        ),
      ),
    ).toEqual(['condition_by']);
    expect(await itemsOf(pkg.id)).toEqual([unit]);
  });

  it('are put each by its own worker; a new bin forgets the put and who made it', async () => {
    const { items } = await newPackage();
    const unit = await send('POST', items, { condition: 'new' });
    const unknown = expectError(
      await call(s.origin, 'POST', `${items}/${unit.id}/put`, { token: s.account1, body: { bin: 'RESTOCK', put_by: 99_999 } }),
      'VALIDATION_FAILED',
    );
    expect(fieldsOf(unknown)).toEqual(['put_by']);
    const put = await send('POST', `${items}/${unit.id}/put`, { bin: 'restock', put_by: ben }, 200);
    expect(put).toMatchObject({ put_by: ben });
    expect(put.put_confirmed_at).not.toBeNull();
    // Confirming again keeps the first put and its worker.
    expect(await send('POST', `${items}/${unit.id}/put`, { bin: 'RESTOCK', put_by: ada }, 200)).toMatchObject({
      put_by: ben,
      put_confirmed_at: put.put_confirmed_at,
    });
    const moved = await send('PATCH', `${items}/${unit.id}`, { disposition: 'liquidate', disposition_reason: 'outlet', disposition_by: ada });
    expect(moved).toMatchObject({ bin: 'LIQUIDATE', put_confirmed_at: null, put_by: null, disposition_override: { by: ada, reason: 'outlet' } });
    expect(moved.disposition_override?.at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('each get their own label', async () => {
    const { pkg, line, items } = await newPackage();
    const a = await send('POST', items, { return_line_item_id: line.id, condition: 'new' });
    const b = await send('POST', items, { return_line_item_id: line.id, condition: 'new' });
    const res = await call(s.origin, 'POST', `${A1}/return_packages/${pkg.id}/labels`, { token: s.account1, body: {} });
    expect(res.status, res.text).toBe(201);
    const jobs = (res.json as { data: Array<{ kind: string; unit_id: string | null; line_item_id: number | null }> }).data.filter((j) => j.kind === 'unit');
    expect(jobs.map((j) => [j.line_item_id, j.unit_id])).toEqual([
      [a.id, a.unit_id],
      [b.id, b.unit_id],
    ]);
  });
});

describe("an integrator's lines", () => {
  it('a line of quantity N stays one line with one unit id; a PATCH of its quantity keeps the id', async () => {
    const { pkg, line, items } = await newPackage();
    const many = await send('POST', items, { return_line_item_id: line.id, quantity: 3, condition: 'new' });
    expect(many.unit_id).not.toBeNull();
    const fewer = await send('PATCH', `${items}/${many.id}`, { quantity: 2 });
    expect(fewer).toMatchObject({ quantity: 2, unit_id: many.unit_id });
    expect((await itemsOf(pkg.id)).map((i) => [i.id, i.quantity])).toEqual([[many.id, 2]]);
  });

  it('a PATCH or DELETE of a line changes or removes that one unit, not its siblings', async () => {
    const { pkg, line, items } = await newPackage();
    const a = await send('POST', items, { return_line_item_id: line.id, condition: 'new' });
    const b = await send('POST', items, { return_line_item_id: line.id, condition: 'new' });
    const c = await send('POST', items, { return_line_item_id: line.id, condition: 'new' });
    await send('PATCH', `${items}/${b.id}`, { condition: 'unsellable' });
    const del = await call(s.origin, 'DELETE', `${items}/${a.id}`, { token: s.account1 });
    expect(del.status, del.text).toBe(204);
    const left = await itemsOf(pkg.id);
    expect(left.map((i) => [i.id, i.condition, i.disposition, i.unit_id])).toEqual([
      [b.id, 'unsellable', 'dispose', b.unit_id],
      [c.id, 'new', 'restock', c.unit_id],
    ]);
  });
});

describe('a line held by its label or put', () => {
  type Job = { id: number; state: string; unit_id: string | null; line_item_id: number | null };
  const refused = async (method: 'PATCH' | 'DELETE', path: string, body?: Record<string, unknown>) =>
    expectError(await call(s.origin, method, path, { token: s.account1, ...(body ? { body } : {}) }), 'UNIT_LABELLED_OR_PUT');

  it('a put unit keeps its quantity and stays: PATCH of quantity and DELETE are 409 and change nothing', async () => {
    const { pkg, items } = await newPackage();
    const unit = await send('POST', items, { condition: 'new' });
    const put = await send('POST', `${items}/${unit.id}/put`, { bin: 'RESTOCK', put_by: ada }, 200);
    const quantity = await refused('PATCH', `${items}/${unit.id}`, { quantity: 4 });
    expect(quantity).toMatchObject({ unit_id: unit.unit_id });
    expect(quantity.message).toContain('put into RESTOCK was confirmed');
    expect((await refused('DELETE', `${items}/${unit.id}`)).message).toContain('cannot be removed');
    expect(await itemsOf(pkg.id)).toEqual([put]);
    // Its other fields still change; the same quantity again is no change.
    expect(await send('PATCH', `${items}/${unit.id}`, { notes: 'scuffed box', quantity: 1 })).toMatchObject({
      quantity: 1,
      notes: 'scuffed box',
      put_confirmed_at: put.put_confirmed_at,
    });
  });

  it("a labelled unit (also an integrator's line of N) keeps its quantity, and its print job keeps its line", async () => {
    const { pkg, line, items } = await newPackage();
    const unit = await send('POST', items, { return_line_item_id: line.id, condition: 'good' });
    const many = await send('POST', items, { return_line_item_id: line.id, quantity: 3, condition: 'new' });
    // Before its label a line of N changes its quantity freely.
    expect(await send('PATCH', `${items}/${many.id}`, { quantity: 2 })).toMatchObject({ quantity: 2 });
    expect([unit.labelled_at, many.labelled_at]).toEqual([null, null]);
    for (const item of [unit, many]) expect((await call(s.origin, 'POST', `${items}/${item.id}/label`, { token: s.account1, body: {} })).status).toBe(201);
    // The package's view says which units are labelled (the dock's − knows it after a reload).
    for (const item of await itemsOf(pkg.id)) expect(item.labelled_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await refused('PATCH', `${items}/${unit.id}`, { quantity: 4 })).message).toContain('its label was made');
    expect((await refused('PATCH', `${items}/${many.id}`, { quantity: 3 })).message).toContain('these 2 units');
    await refused('DELETE', `${items}/${unit.id}`);
    await refused('DELETE', `${items}/${many.id}`);
    expect((await itemsOf(pkg.id)).map((i) => [i.id, i.quantity, i.unit_id])).toEqual([
      [unit.id, 1, unit.unit_id],
      [many.id, 2, many.unit_id],
    ]);
    const jobs = await call(s.origin, 'GET', '/api/v1/station/print-jobs', { token: s.stationToken });
    const ours = (jobs.json as { data: Job[] }).data.filter((j) => j.unit_id === unit.unit_id || j.unit_id === many.unit_id);
    expect(ours.map((j) => j.line_item_id).sort()).toEqual([unit.id, many.id].sort());
  });

  it('a label still waiting, once cancelled, frees the unit to be removed; those following the account hear of both', async () => {
    const settings = (printer: unknown) => call(s.origin, 'PATCH', '/api/v1/station/settings', { token: s.stationToken, body: { labels: { printer } } });
    // A printer nobody answers at: the label waits in the queue.
    expect((await settings({ kind: 'zpl_tcp', host: '127.0.0.1', port: 9 })).status).toBe(200);
    try {
      const { pkg, items } = await newPackage();
      const unit = await send('POST', items, { condition: 'new' });
      // A terminal with the package open follows the account's events: it learns of the label at once.
      const stream = await followEvents(s.origin, s.account1, 1);
      const labelledInEvent = (events: StationEvent[]) =>
        events.flatMap((e) =>
          e.event === 'package.updated' && e.data.package.id === pkg.id ? [e.data.package.line_items.find((li) => li.id === unit.id)?.labelled_at ?? null] : [],
        );
      const made = await call(s.origin, 'POST', `${items}/${unit.id}/label`, { token: s.account1, body: {} });
      expect(made.status, made.text).toBe(201);
      expect((await itemsOf(pkg.id))[0]?.labelled_at).not.toBeNull();
      await stream.waitFor((events) => labelledInEvent(events).some((at) => at !== null));
      await refused('DELETE', `${items}/${unit.id}`);
      // A try may be under way at this instant (the job `sending` for a moment: 409): cancel again.
      const cancel = () => call(s.origin, 'DELETE', `/api/v1/station/print-jobs/${(made.json as Job).id}`, { token: s.stationToken });
      let cancelled = await cancel();
      for (let tries = 0; cancelled.status === 409 && tries < 20; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        cancelled = await cancel();
      }
      expect(cancelled.status, cancelled.text).toBe(200);
      // Its only label cancelled: no longer labelled, and the followers hear that too.
      expect((await itemsOf(pkg.id))[0]?.labelled_at).toBeNull();
      await stream.waitFor((events) => labelledInEvent(events).at(-1) === null);
      stream.close();
      const removed = await call(s.origin, 'DELETE', `${items}/${unit.id}`, { token: s.account1 });
      expect(removed.status, removed.text).toBe(204);
      expect(await itemsOf(pkg.id)).toEqual([]);
    } finally {
      expect((await settings({ kind: 'browser' })).status).toBe(200);
    }
  });
});
