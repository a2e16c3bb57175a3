import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PackageLineItem } from '#shared/api/line-items.ts';
import { call, createPackage, createReturn, startStation, type TestStation } from './support.ts';

/*
 * What a site's station sends its hub (docs/decisions/site-receipt.md): a unit's decision as that
 * station recorded it (`site_unit`) is stored as given — the hub's rules do not decide again — and a
 * receipt keeps the time the station received it (`processed_at`). Bad input is refused and changes nothing.
 */

let s: TestStation;
const A1 = '/api/v1/accounts/1';

beforeAll(async () => {
  s = await startStation();
}, 60_000);
afterAll(async () => s?.close());

async function newPackage() {
  const ret = await createReturn(s.origin, s.account1);
  const pkg = await createPackage(s.origin, s.account1, 1, ret.id, { status: 'delivered' });
  const line = ret.return_line_items[0];
  if (!line) throw new Error('The manual return has no line.');
  return { pkg, line, items: `${A1}/return_packages/${pkg.id}/line_items` };
}

async function send(method: string, path: string, body: Record<string, unknown>, status = method === 'POST' ? 201 : 200) {
  const res = await call(s.origin, method, path, { token: s.account1, body });
  expect(res.status, res.text).toBe(status);
  return res.json as PackageLineItem & { status?: string; processed_at?: string | null; error_code?: string; details?: { fields?: Array<{ path: string }> } };
}

const overridden = {
  disposition: 'quarantine',
  bin: 'Q-SITE-7',
  unit_id: 'RS-ABCD1234-17',
  disposition_source: 'override',
  disposition_override: { reason: 'smells of smoke', at: '2026-11-20T08:00:00.000Z' },
  put_confirmed_at: '2026-11-20T08:05:00.000Z',
  condition_at: '2026-11-20T07:58:00.000Z',
} as const;

it('stores a unit as the deciding station recorded it: its disposition, bin, unit id, override and put, not the rules’ answer', async () => {
  const { line, items } = await newPackage();
  // The default rules send a `new` unit to restock; the station that decided overrode it.
  const item = await send('POST', items, { return_line_item_id: line.id, condition: 'new', tags: ['unit:RS-ABCD1234-17'], site_unit: overridden });
  expect(item).toMatchObject({
    condition: 'new',
    disposition: 'quarantine',
    bin: 'Q-SITE-7',
    unit_id: 'RS-ABCD1234-17',
    disposition_source: 'override',
    disposition_override: { by: null, reason: 'smells of smoke', at: '2026-11-20T08:00:00.000Z' },
    put_confirmed_at: '2026-11-20T08:05:00.000Z',
    put_by: null,
    condition_at: '2026-11-20T07:58:00.000Z',
  });
  expect(item.tags.sort()).toEqual(['bin:Q-SITE-7', 'disposition:quarantine', 'unit:RS-ABCD1234-17']);

  // A later decision of that station replaces it: back to the rules' restock, not put yet.
  const back = await send('PATCH', `${items}/${item.id}`, {
    site_unit: { ...overridden, disposition: 'restock', bin: 'A-01', disposition_source: 'rule', disposition_override: null, put_confirmed_at: null },
  });
  expect(back).toMatchObject({
    disposition: 'restock',
    bin: 'A-01',
    unit_id: 'RS-ABCD1234-17',
    disposition_source: 'rule',
    disposition_override: null,
    put_confirmed_at: null,
  });
  // Without site_unit the station's own rules apply as before.
  const plain = await send('POST', items, { return_line_item_id: line.id, condition: 'new' });
  expect(plain.disposition_source).toBe('rule');
  expect(plain.unit_id).not.toBe('RS-ABCD1234-17');
});

it('refuses a site_unit given with an override, or with a unit id stations do not make, and changes nothing', async () => {
  const { pkg, line, items } = await newPackage();
  const item = await send('POST', items, { return_line_item_id: line.id, condition: 'good' });
  const both = await send('PATCH', `${items}/${item.id}`, { site_unit: overridden, disposition: 'dispose', disposition_reason: 'x' }, 422);
  expect(both.details?.fields?.map((f) => f.path)).toContain('site_unit');
  const badId = await send('POST', items, { return_line_item_id: line.id, site_unit: { ...overridden, unit_id: 'not a unit' } }, 422);
  expect(badId.details?.fields?.map((f) => f.path)).toContain('site_unit.unit_id');
  const res = await call(s.origin, 'GET', `${A1}/return_packages/${pkg.id}`, { token: s.account1 });
  const after = (res.json as { line_items: PackageLineItem[] }).line_items;
  expect(after).toHaveLength(1);
  expect(after[0]).toMatchObject({ id: item.id, disposition: item.disposition, bin: item.bin });
});

it('keeps when the deciding station received a package (processed_at), not when the receipt reached this one', async () => {
  const { pkg } = await newPackage();
  const received = await send('PATCH', `${A1}/return_packages/${pkg.id}`, { status: 'received', processed_at: '2026-11-20T07:59:00+01:00' });
  expect(received.status).toBe('received');
  const res = await call(s.origin, 'GET', `${A1}/return_packages/${pkg.id}`, { token: s.account1 });
  expect((res.json as { processed_at: string }).processed_at).toBe('2026-11-20T06:59:00.000Z');
});

it('keeps who received a package by name, for the site’s other stations, whose operators are other people', async () => {
  const { pkg } = await newPackage();
  const worker = await call(s.origin, 'POST', '/api/v1/station/operators', {
    token: s.stationToken,
    body: { name: 'Grace Hopper', badge_code: 'BADGE-SITE-GRACE' },
  });
  expect(worker.status, worker.text).toBe(201);
  await send('PATCH', `${A1}/return_packages/${pkg.id}`, { status: 'received', processor_id: (worker.json as { id: number }).id });
  const receipt = await call(s.origin, 'GET', `${A1}/return_packages/${pkg.id}/site_receipt`, { token: s.account1 });
  expect(receipt.status, receipt.text).toBe(200);
  expect(receipt.json).toMatchObject({ id: pkg.id, status: 'received', processor_name: 'Grace Hopper', line_items: [], media_files: [] });
});
