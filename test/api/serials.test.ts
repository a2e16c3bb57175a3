import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackageLineItem } from '#shared/api/line-items.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { returnLine } from '../support/manual-return.ts';
import { call, createPackage, createReturn, expectError, startStation, type TestStation } from './support.ts';

/*
 * Serial numbers through the API, on a real station (docs/decisions/serials.md): the serial rules as
 * a station setting (validated, a supervisor's), a unit's serial kept in its own field and in its
 * `serial:` tag beside the worker's tags, a serial another unit has flagged (the same one again on
 * the same unit is not), and receiving refused while a unit that needs its serial has none.
 */

let s: TestStation;
let terminal: string;
const A1 = '/api/v1/accounts/1';
/** A valid IMEI (its Luhn check digit 7) and another. */
const IMEI = '490154203237518';
const IMEI_2 = '356938035643809';

const RULES = [
  { sku_pattern: 'PHONE-*', kind: 'imei' },
  { sku_pattern: 'LAPTOP-??', kind: 'text', min_length: 8, max_length: 12 },
];

beforeAll(async () => {
  s = await startStation();
  terminal = (await createToken(s.station.store, s.station.ctx.clock, { scope: 'station', role: 'terminal', accountId: null, name: 'UI link' })).secret;
  const res = await call(s.origin, 'PATCH', '/api/v1/station/settings', { token: s.stationToken, body: { serial_rules: RULES } });
  expect(res.status, res.text).toBe(200);
}, 60_000);
afterAll(async () => s?.close());

async function newPackage() {
  const ret = await createReturn(s.origin, s.account1, {
    return_line_items: [
      returnLine('PHONE-X1', 2, { name: 'Phone' }),
      returnLine('LAPTOP-15', 1, { name: 'Laptop' }),
      returnLine('CASE-1', 1, { name: 'Case' }),
    ],
  });
  const pkg = await createPackage(s.origin, s.account1, 1, ret.id, { status: 'delivered' });
  const [phone, laptop, caseLine] = ret.return_line_items;
  if (!phone || !laptop || !caseLine) throw new Error('The return has no lines.');
  return { pkg, phone, laptop, caseLine, items: `${A1}/return_packages/${pkg.id}/line_items` };
}

async function send(method: string, path: string, body?: Record<string, unknown>, status = method === 'POST' ? 201 : 200): Promise<PackageLineItem> {
  const res = await call(s.origin, method, path, { token: s.account1, ...(body ? { body } : {}) });
  expect(res.status, res.text).toBe(status);
  return res.json as PackageLineItem;
}

describe('the serial rules', () => {
  it('are a station setting, read back in order, and a terminal cannot change them', async () => {
    const got = await call(s.origin, 'GET', '/api/v1/station/settings', { token: s.stationToken });
    expect((got.json as { serial_rules: unknown }).serial_rules).toEqual([
      { sku_pattern: 'PHONE-*', kind: 'imei' },
      { sku_pattern: 'LAPTOP-??', kind: 'text', min_length: 8, max_length: 12 },
    ]);
    const refused = await call(s.origin, 'PATCH', '/api/v1/station/settings', { token: terminal, body: { serial_rules: [] } });
    expect(refused.status, refused.text).toBe(403);
    const after = await call(s.origin, 'GET', '/api/v1/station/settings', { token: s.stationToken });
    expect((after.json as { serial_rules: unknown[] }).serial_rules).toHaveLength(2);
  });

  it('refuses a bad table with the field at fault, and changes nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [[{ sku_pattern: 'PHONE *', kind: 'imei' }], 'serial_rules[0].sku_pattern'],
      [[{ sku_pattern: 'A-*', kind: 'text', min_length: 9, max_length: 4 }], 'serial_rules[0].max_length'],
      [[{ sku_pattern: 'A-*', kind: 'text', max_length: 34 }], 'serial_rules[0].max_length'],
      [
        [
          { sku_pattern: 'a-*', kind: 'imei' },
          { sku_pattern: 'A-*', kind: 'imei' },
        ],
        'serial_rules[1].sku_pattern',
      ],
      [[{ sku_pattern: 'A-*', kind: 'barcode' }], 'serial_rules[0].kind'],
      [Array.from({ length: 51 }, (_, i) => ({ sku_pattern: `S${i}-*`, kind: 'imei' })), 'serial_rules'],
    ];
    for (const [rules, path] of cases) {
      const res = await call(s.origin, 'PATCH', '/api/v1/station/settings', { token: s.stationToken, body: { serial_rules: rules } });
      const details = expectError(res, 'VALIDATION_FAILED');
      expect((details.fields as Array<{ path: string }>).map((f) => f.path)).toContain(path);
    }
    const after = await call(s.origin, 'GET', '/api/v1/station/settings', { token: s.stationToken });
    expect((after.json as { serial_rules: unknown[] }).serial_rules).toHaveLength(2);
  });
});

describe("a unit's serial", () => {
  it("is kept in its field and goes in a serial: tag after the worker's own tags", async () => {
    const { phone, items } = await newPackage();
    const unit = await send('POST', items, { return_line_item_id: phone.id, serial: ` ${IMEI} `, tags: ['scratched', 'serial:OLD'], condition: 'new' });
    expect(unit.serial).toBe(IMEI);
    expect(unit.tags).toEqual(['scratched', `serial:${IMEI}`, 'disposition:restock', 'bin:RESTOCK', `unit:${unit.unit_id}`]);
    expect(unit.serial_check).toMatchObject({ result: 'unique', scope: 'station', duplicate_of: null });
    // The dock echoes the tags it was given with another of its own: the serial tag stays once.
    const edited = await send('PATCH', `${items}/${unit.id}`, { tags: ['scratched', 'boxed', `serial:${IMEI}`, 'disposition:restock'] });
    expect(edited.tags.filter((t) => t.startsWith('serial:'))).toEqual([`serial:${IMEI}`]);
    expect(edited.tags.slice(0, 2)).toEqual(['scratched', 'boxed']);
    // Tags without the serial tag keep the serial; serial: null takes it off, tag too.
    const kept = await send('PATCH', `${items}/${unit.id}`, { tags: ['boxed'] });
    expect(kept.serial).toBe(IMEI);
    expect(kept.tags).toContain(`serial:${IMEI}`);
    const cleared = await send('PATCH', `${items}/${unit.id}`, { serial: null });
    expect(cleared.serial).toBeNull();
    expect(cleared.serial_check).toBeNull();
    expect(cleared.tags.some((t) => t.startsWith('serial:'))).toBe(false);
    expect(cleared.tags).toContain('boxed');
  });

  it("prints on the unit's label", async () => {
    const { phone, items } = await newPackage();
    const unit = await send('POST', items, { return_line_item_id: phone.id, serial: '356938035643825', condition: 'new' });
    const job = await call(s.origin, 'POST', `${items}/${unit.id}/label`, { token: s.account1, body: {} });
    expect(job.status, job.text).toBeLessThan(300);
    expect((job.json as { label: { serial: string | null; unit_id: string } }).label).toMatchObject({ unit_id: unit.unit_id, serial: '356938035643825' });
  });

  it("arriving as a serial: tag alone (another station's unit) is the unit's serial", async () => {
    const { laptop, items } = await newPackage();
    const unit = await send('POST', items, { return_line_item_id: laptop.id, tags: ['serial:LT-ARRIVED-1'] });
    expect(unit.serial).toBe('LT-ARRIVED-1');
  });

  it('refuses what is not a serial (spaces, too long) with the field, and records nothing', async () => {
    const { phone, items, pkg } = await newPackage();
    for (const serial of ['AB 12', 'X'.repeat(34), '']) {
      const res = await call(s.origin, 'POST', items, { token: s.account1, body: { return_line_item_id: phone.id, serial } });
      const details = expectError(res, 'VALIDATION_FAILED');
      expect((details.fields as Array<{ path: string }>).map((f) => f.path)).toEqual(['serial']);
    }
    const got = await call(s.origin, 'GET', `${A1}/return_packages/${pkg.id}`, { token: s.account1 });
    expect((got.json as { line_items: unknown[] }).line_items).toEqual([]);
  });

  it('recorded on another unit of the account is flagged with that unit; the same serial again on one unit is not', async () => {
    const first = await newPackage();
    const a = await send('POST', first.items, { return_line_item_id: first.phone.id, serial: IMEI_2, condition: 'good' });
    expect(a.serial_check?.result).toBe('unique');
    // The same unit scanned twice: no change, no duplicate.
    const again = await send('PATCH', `${first.items}/${a.id}`, { serial: IMEI_2.toLowerCase() });
    expect(again.serial_check?.result).toBe('unique');
    // Another parcel, another unit, the same serial (typed in lower case): a duplicate naming the first.
    const second = await newPackage();
    const b = await send('POST', second.items, { return_line_item_id: second.phone.id, serial: IMEI_2 });
    expect(b.serial_check).toMatchObject({
      result: 'duplicate',
      scope: 'station',
      duplicate_of: { unit_id: a.unit_id, return_package_id: first.pkg.id, tracking_number: first.pkg.tracking_number, line_item_id: a.id },
    });
    expect(b.serial_check?.message).toBe(`Serial ${IMEI_2} is already recorded on unit ${a.unit_id} in parcel ${first.pkg.tracking_number}.`);
    // The failed check holds the parcel for review in the same write: its units wait in quarantine.
    expect(b).toMatchObject({ disposition: 'quarantine', disposition_source: 'override' });
    // (The review routes are the review's; the record is read from the store.)
    expect((await s.station.store.packages.get(second.pkg.id))?.review).toMatchObject({
      state: 'held',
      findings: [{ check: 'serial', text: b.serial_check?.message }],
    });
    // The first parcel is not held: its unit was there first.
    expect((await s.station.store.packages.get(first.pkg.id))?.review ?? null).toBeNull();
    // The second unit of the same parcel, the same serial: flagged too (not yet durable when asked).
    const c = await send('POST', second.items, { return_line_item_id: second.phone.id, serial: IMEI_2 });
    expect(c.serial_check?.result).toBe('duplicate');
    // Corrected to another serial: unique again.
    const fixed = await send('PATCH', `${second.items}/${c.id}`, { serial: '490154203237500' });
    expect(fixed.serial_check?.result).toBe('unique');
    // A check that passes later releases nothing: the supervisor decides.
    const still = (await s.station.store.packages.get(second.pkg.id))?.review;
    expect(still?.state).toBe('held');
    expect(still?.findings).toHaveLength(1);
  });
});

describe('receiving', () => {
  it('is refused while a unit whose SKU needs its serial has none, naming it; nothing changes; with it, received', async () => {
    const { pkg, phone, caseLine, items } = await newPackage();
    const unit = await send('POST', items, { return_line_item_id: phone.id });
    await send('POST', items, { return_line_item_id: caseLine.id });
    const res = await call(s.origin, 'PATCH', `${A1}/return_packages/${pkg.id}`, { token: s.account1, body: { status: 'received' } });
    const details = expectError(res, 'SERIAL_MISSING');
    expect(details.line_item_ids).toEqual([unit.id]);
    expect(details.message).toContain('PHONE-X1');
    const still = await call(s.origin, 'GET', `${A1}/return_packages/${pkg.id}`, { token: s.account1 });
    expect((still.json as { status: string }).status).toBe('delivered');
    await send('PATCH', `${items}/${unit.id}`, { serial: '356938035643817' });
    const received = await call(s.origin, 'PATCH', `${A1}/return_packages/${pkg.id}`, { token: s.account1, body: { status: 'received' } });
    expect(received.status, received.text).toBe(200);
  });
});

describe('a serial of the wrong kind for its SKU', () => {
  it('is refused on serial with the rule in words: a bad IMEI, a text out of its bounds; nothing is written', async () => {
    const { pkg, phone, laptop, items } = await newPackage();
    const cases: Array<[number, string, string]> = [
      [phone.id, '490154203237519', 'is not a valid IMEI: its check digit is wrong'],
      [phone.id, '49015420323751', 'An IMEI is 15 digits: 49015420323751 has 14.'],
      [phone.id, 'IMEI49015420323', 'has other characters'],
      [laptop.id, 'SHORT', 'This serial must have 8–12 characters: SHORT has 5.'],
    ];
    for (const [line, serial, says] of cases) {
      const res = await call(s.origin, 'POST', items, { token: s.account1, body: { return_line_item_id: line, serial } });
      const details = expectError(res, 'VALIDATION_FAILED');
      expect(details.fields).toEqual([{ path: 'serial', message: expect.stringContaining(says) }]);
    }
    const got = await call(s.origin, 'GET', `${A1}/return_packages/${pkg.id}`, { token: s.account1 });
    expect((got.json as { line_items: unknown[] }).line_items).toEqual([]);
    // A SKU no rule names takes any serial.
    const free = await send('POST', items, { return_line_item_id: laptop.id, serial: 'LT12345678' });
    const changed = await call(s.origin, 'PATCH', `${items}/${free.id}`, { token: s.account1, body: { serial: 'LT1' } });
    expect((expectError(changed, 'VALIDATION_FAILED').fields as Array<{ path: string }>)[0]?.path).toBe('serial');
  });
});
