import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackageLineItem } from '#shared/api/line-items.ts';
import { HELD_FOR_REVIEW } from '#shared/api/reviews.ts';
import { holdForReview, HELD_BIN } from '../../electron/station/domain/reviews.ts';
import { call, createPackage, createReturn, expectError, startStation, type TestStation } from '../api/support.ts';

/*
 * The hold (domain/reviews.ts holdForReview), as the weight and serial checks call it: inside a
 * write of the real store. What it leaves is read back through the API (the units) and the store
 * (the package's review, which no spec answer carries).
 */

let s: TestStation;
const A1 = '/api/v1/accounts/1';
const AT = '2026-11-28T15:00:00.000Z';

beforeAll(async () => {
  s = await startStation();
}, 60_000);
afterAll(async () => s?.close());

async function newPackage() {
  const ret = await createReturn(s.origin, s.account1);
  const pkg = await createPackage(s.origin, s.account1, 1, ret.id, { status: 'delivered' });
  return { pkg, items: `${A1}/return_packages/${pkg.id}/line_items` };
}

async function addItem(path: string, body: Record<string, unknown>): Promise<PackageLineItem> {
  const res = await call(s.origin, 'POST', path, { token: s.account1, body });
  expect(res.status, res.text).toBe(201);
  return res.json as PackageLineItem;
}

async function units(packageId: number): Promise<PackageLineItem[]> {
  const res = await call(s.origin, 'GET', `${A1}/return_packages/${packageId}`, { token: s.account1 });
  return (res.json as { line_items: PackageLineItem[] }).line_items;
}

const hold = (packageId: number, finding: Parameters<typeof holdForReview>[2]) => s.station.store.write((t) => holdForReview(t, packageId, finding));
const reviewOf = async (packageId: number) => (await s.station.store.tables.return_packages.get(packageId))?.review ?? null;

describe('holding a package for review', () => {
  it('keeps why and when, and sends every unit to quarantine marked "held for review"', async () => {
    const { pkg, items } = await newPackage();
    const inspected = await addItem(items, { condition: 'new' });
    const scanned = await addItem(items, {});
    expect(inspected.disposition).toBe('restock');
    expect(scanned.disposition).toBeNull();
    expect(await reviewOf(pkg.id)).toBeNull();

    await hold(pkg.id, { check: 'weight', text: ' weighed 0.21 kg, expected 1.80 kg ', at: AT });

    expect(await reviewOf(pkg.id)).toEqual({
      state: 'held',
      findings: [{ check: 'weight', text: 'weighed 0.21 kg, expected 1.80 kg', at: AT, operator_id: null }],
      held_at: AT,
      decided_by: null,
      decided_by_name: null,
      decided_at: null,
      reason: null,
    });
    for (const unit of await units(pkg.id)) {
      expect(unit).toMatchObject({ disposition: 'quarantine', bin: HELD_BIN, disposition_source: 'override' });
      expect(unit.disposition_override?.reason).toBe(HELD_FOR_REVIEW);
      expect(unit.tags).toContain('disposition:quarantine');
    }
  });

  it('sends a unit received later on the held package to quarantine too, and keeps it there when its condition changes', async () => {
    const { pkg, items } = await newPackage();
    await hold(pkg.id, { check: 'serial', text: 'serial 356938035643809 already on unit RS-X-1', at: AT });
    const later = await addItem(items, { condition: 'like_new' });
    expect(later).toMatchObject({ disposition: 'quarantine', bin: HELD_BIN, disposition_source: 'override' });
    const res = await call(s.origin, 'PATCH', `${items}/${later.id}`, { token: s.account1, body: { condition: 'damaged' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ condition: 'damaged', disposition: 'quarantine', bin: HELD_BIN });
  });

  it('adds a second finding, keeps a repeated one once, and names who was at the dock', async () => {
    const { pkg } = await newPackage();
    const op = await call(s.origin, 'POST', '/api/v1/station/operators', { token: s.stationToken, body: { name: 'Dock Worker', badge_code: `W-${pkg.id}` } });
    expect(op.status, op.text).toBe(201);
    const operatorId = (op.json as { id: number }).id;
    await hold(pkg.id, { check: 'weight', text: 'weighed 0.21 kg, expected 1.80 kg', at: AT, operator_id: operatorId });
    await hold(pkg.id, { check: 'weight', text: 'weighed 0.21 kg, expected 1.80 kg', at: '2026-11-28T15:01:00.000Z' });
    await hold(pkg.id, { check: 'serial', text: 'serial 123 already recorded', at: '2026-11-28T15:02:00.000Z' });
    const review = await reviewOf(pkg.id);
    expect(review?.findings.map((f) => [f.check, f.operator_id])).toEqual([
      ['weight', operatorId],
      ['serial', null],
    ]);
    expect(review?.held_at).toBe(AT);
  });

  it("uses the first quarantine rule's bin when the rules name one", async () => {
    const rulesPath = '/api/v1/station/disposition-rules';
    const before = (await call(s.origin, 'GET', rulesPath, { token: s.stationToken })).json as { rules: unknown[] };
    const put = await call(s.origin, 'PUT', rulesPath, {
      token: s.stationToken,
      body: {
        rules: [
          {
            name: 'Suspect',
            condition: null,
            defective: null,
            reason_contains: 'brick',
            sku_prefix: null,
            package_status: null,
            disposition: 'quarantine',
            bin: 'Q-7',
          },
          ...before.rules,
        ],
      },
    });
    expect(put.status, put.text).toBe(200);
    try {
      const { pkg, items } = await newPackage();
      await addItem(items, { condition: 'new' });
      await hold(pkg.id, { check: 'weight', text: 'weighed 0.10 kg, expected 2.00 kg', at: AT });
      expect((await units(pkg.id)).map((u) => u.bin)).toEqual(['Q-7']);
    } finally {
      await call(s.origin, 'PUT', rulesPath, { token: s.stationToken, body: { rules: before.rules } });
    }
  });

  it('refuses an operator the station does not have and a package it does not have, and changes nothing', async () => {
    const { pkg, items } = await newPackage();
    await addItem(items, { condition: 'new' });
    await expect(hold(pkg.id, { check: 'weight', text: 'light', at: AT, operator_id: 999_999 })).rejects.toMatchObject({ status: 422 });
    expect(await reviewOf(pkg.id)).toBeNull();
    expect((await units(pkg.id))[0]?.disposition).toBe('restock');
    await expect(hold(9_999_999, { check: 'weight', text: 'light', at: AT })).rejects.toMatchObject({ status: 404 });
    expectError(await call(s.origin, 'GET', `${A1}/return_packages/9999999`, { token: s.account1 }), 'NOT_FOUND');
  });
});
