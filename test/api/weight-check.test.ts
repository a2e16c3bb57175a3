import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PackageWeighedSchema } from '#shared/api/scale.ts';
import { createToken } from '../../electron/station/domain/tokens.ts';
import { returnLine } from '../support/manual-return.ts';
import { call, createPackage, createReturn, expectError, startStation, type TestStation } from './support.ts';

/*
 * The weight check (docs/operator-guide.md, The weight check): a weighing is compared with what the
 * parcel should weigh — the package's weight, else its return's when the return has this one package,
 * else the SKU weights the station learned plus the box tare — within the tolerance, and the verdict
 * is recorded with the weight and shown in the package's answer.
 */
let s: TestStation;
let terminal: string;
const A1 = '/api/v1/accounts/1';
beforeAll(async () => {
  s = await startStation();
  terminal = (await createToken(s.station.store, s.station.ctx.clock, { scope: 'station', role: 'terminal', accountId: null, name: 'UI link' })).secret;
});
afterAll(async () => s?.close());

const weigh = async (packageId: number, weight: number, unit = 'kg') => {
  const res = await call(s.origin, 'POST', `${A1}/return_packages/${packageId}/weight`, { token: s.account1, body: { source: 'typed', weight, unit } });
  expect(res.status, res.text).toBe(200);
  return PackageWeighedSchema.parse(res.json).weight;
};
const settings = (body: unknown, token = s.stationToken) => call(s.origin, 'PATCH', '/api/v1/station/settings', { token, body });
const packageOf = async (id: number) => (await call(s.origin, 'GET', `${A1}/return_packages/${id}`, { token: s.account1 })).json as Record<string, unknown>;

/** A return of `lines` with no weight of its own, and its one package (delivered). */
async function parcel(lines: Array<[string, number]>, returnWeight = 0, packageWeight: { weight: number; weight_unit: 'kg' | 'g' } | null = null) {
  const ret = await createReturn(s.origin, s.account1, {
    weight: returnWeight,
    return_line_items: lines.map(([sku, quantity]) => returnLine(sku, quantity)),
  });
  const pkg = await createPackage(s.origin, s.account1, 1, ret.id, { status: 'delivered', ...(packageWeight ?? {}) });
  return { ret, pkg };
}

/** Scans every unit the return expects, sets its condition, and receives the package. */
async function receiveAll(ret: Awaited<ReturnType<typeof parcel>>['ret'], packageId: number) {
  for (const line of ret.return_line_items) {
    for (let n = 0; n < line.quantity; n += 1) {
      const res = await call(s.origin, 'POST', `${A1}/return_packages/${packageId}/line_items`, {
        token: s.account1,
        body: { return_line_item_id: line.id, condition: 'new' },
      });
      expect(res.status, res.text).toBe(201);
    }
  }
  const received = await call(s.origin, 'PATCH', `${A1}/return_packages/${packageId}`, { token: s.account1, body: { status: 'received' } });
  expect(received.status, received.text).toBe(200);
}

describe('what a parcel should weigh, and the verdict', () => {
  it("compares with the package's own weight first: light, heavy and within the tolerance, recorded with the weight", async () => {
    const { pkg } = await parcel([['BOOT-42', 1]], 5000, { weight: 1.8, weight_unit: 'kg' });
    // Within 10 % (the default) of 1.8 kg: 1.62 … 1.98.
    expect(await weigh(pkg.id, 1.95)).toMatchObject({ expected_weight: 1.8, expected_from: 'package', verdict: 'ok' });
    expect(await weigh(pkg.id, 2.5)).toMatchObject({ verdict: 'heavy' });
    // In another unit the expected weight is given in the measured one.
    expect(await weigh(pkg.id, 210, 'g')).toMatchObject({ weight: 210, unit: 'g', expected_weight: 1800, expected_from: 'package', verdict: 'light' });
    // The package's answer shows the last weighing with its verdict.
    expect((await packageOf(pkg.id)).weighing).toEqual({
      measured_weight: 210,
      measured_weight_unit: 'g',
      weight_source: 'typed',
      weight_scale: null,
      weighed_at: expect.any(String),
      weighed_by: null,
      expected_weight: 1800,
      expected_weight_from: 'package',
      weight_verdict: 'light',
    });
  });

  it("uses the return's weight when the return has this one package, and has nothing to compare with two", async () => {
    const one = await parcel([['BOOT-42', 1]], 800);
    expect(await weigh(one.pkg.id, 0.85)).toMatchObject({ expected_weight: 0.8, expected_from: 'return', verdict: 'ok' });

    const two = await parcel([['BOOT-42', 2]], 1600);
    await createPackage(s.origin, s.account1, 1, two.ret.id);
    expect(await weigh(two.pkg.id, 0.8)).toMatchObject({ expected_weight: null, expected_from: null, verdict: 'nothing_to_compare' });
    // Never weighed: the package's weighing is all null.
    const fresh = await createPackage(s.origin, s.account1, 1, two.ret.id);
    expect(Object.values((await packageOf(fresh.id)).weighing as object).every((v) => v === null)).toBe(true);
  });

  it('learns a SKU weight from a received single-SKU parcel (less the box tare) and sums learned weights for the next', async () => {
    expect((await settings({ weight_check: { box_tare: 0.1, unit: 'kg' } })).status).toBe(200);
    // Nothing learned yet: nothing to compare.
    const first = await parcel([['MUG-W', 2]]);
    expect(await weigh(first.pkg.id, 1.1)).toMatchObject({ verdict: 'nothing_to_compare' });
    await receiveAll(first.ret, first.pkg.id);
    // (1.1 − 0.1) / 2 = 0.5 kg a mug: three mugs and a box weigh 1.6 kg.
    const next = await parcel([['mug-w ', 3]]);
    expect(await weigh(next.pkg.id, 1.6)).toMatchObject({ expected_weight: 1.6, expected_from: 'learned_skus', verdict: 'ok' });
    expect(await weigh(next.pkg.id, 0.3)).toMatchObject({ verdict: 'light' });

    // A parcel of a learned SKU and a new one teaches the new one: 2.6 − 0.1 − 0.5 = 2.0 kg a kettle.
    const mixed = await parcel([
      ['MUG-W', 1],
      ['KETTLE-1', 1],
    ]);
    expect(await weigh(mixed.pkg.id, 2.6)).toMatchObject({ verdict: 'nothing_to_compare' });
    await receiveAll(mixed.ret, mixed.pkg.id);
    const kettles = await parcel([['KETTLE-1', 2]]);
    expect(await weigh(kettles.pkg.id, 4.1)).toMatchObject({ expected_weight: 4.1, expected_from: 'learned_skus', verdict: 'ok' });
  });

  it('learns nothing from a parcel that failed the check, nor from one with a unit whose condition is not set', async () => {
    const flagged = await parcel([['VASE-9', 1]], 0, { weight: 2, weight_unit: 'kg' });
    expect(await weigh(flagged.pkg.id, 0.2)).toMatchObject({ verdict: 'light' });
    await receiveAll(flagged.ret, flagged.pkg.id);
    const unset = await parcel([['VASE-9', 1]]);
    await weigh(unset.pkg.id, 1.2);
    const line = unset.ret.return_line_items[0];
    await call(s.origin, 'POST', `${A1}/return_packages/${unset.pkg.id}/line_items`, { token: s.account1, body: { return_line_item_id: line?.id } });
    await call(s.origin, 'PATCH', `${A1}/return_packages/${unset.pkg.id}`, { token: s.account1, body: { status: 'received' } });
    const later = await parcel([['VASE-9', 1]]);
    expect(await weigh(later.pkg.id, 1.2)).toMatchObject({ verdict: 'nothing_to_compare' });
  });
});

describe('a failed check', () => {
  it('holds the parcel for review in the same write, with the finding; a later pass releases nothing', async () => {
    const reviewOf = async (id: number) => (await s.station.store.tables.return_packages.get(id))?.review ?? null;
    const { ret, pkg } = await parcel([['LAPTOP-1', 1]], 0, { weight: 1.8, weight_unit: 'kg' });
    const line = ret.return_line_items[0];
    const unit = await call(s.origin, 'POST', `${A1}/return_packages/${pkg.id}/line_items`, {
      token: s.account1,
      body: { return_line_item_id: line?.id, condition: 'new' },
    });
    expect(unit.status, unit.text).toBe(201);
    expect(await weigh(pkg.id, 1.85)).toMatchObject({ verdict: 'ok' });
    expect(await reviewOf(pkg.id)).toBeNull();
    expect(await weigh(pkg.id, 0.21)).toMatchObject({ verdict: 'light' });
    expect(await reviewOf(pkg.id)).toMatchObject({ state: 'held', findings: [{ check: 'weight', text: 'weighed 0.21 kg, expected 1.8 kg' }] });
    const items = ((await packageOf(pkg.id)).line_items as Array<{ disposition: string }>).map((i) => i.disposition);
    expect(items).toEqual(['quarantine']);
    expect(await weigh(pkg.id, 1.8)).toMatchObject({ verdict: 'ok' });
    expect(await reviewOf(pkg.id)).toMatchObject({ state: 'held' });
  });
});

describe('the tolerance and the box tare', () => {
  it('passes within the larger of the percentage and the absolute tolerance', async () => {
    expect((await settings({ weight_check: { tolerance_percent: 5, tolerance_absolute: 0.2, unit: 'kg', box_tare: 0 } })).status).toBe(200);
    const light = await parcel([['BOOK-1', 1]], 0, { weight: 0.5, weight_unit: 'kg' });
    // 5 % of 0.5 kg is 25 g; the absolute 200 g is larger.
    expect(await weigh(light.pkg.id, 0.32)).toMatchObject({ verdict: 'ok' });
    expect(await weigh(light.pkg.id, 0.29)).toMatchObject({ verdict: 'light' });
    const heavy = await parcel([['BOOK-1', 1]], 0, { weight: 20, weight_unit: 'kg' });
    // 5 % of 20 kg is 1 kg, larger than 200 g.
    expect(await weigh(heavy.pkg.id, 20.9)).toMatchObject({ verdict: 'ok' });
    expect(await weigh(heavy.pkg.id, 21.1)).toMatchObject({ verdict: 'heavy' });
  });

  it("are a supervisor's to change, validated field by field, and bad input changes nothing", async () => {
    const before = (await call(s.origin, 'GET', '/api/v1/station/settings', { token: s.stationToken })).json as { weight_check: unknown };
    expectError(await settings({ weight_check: { tolerance_percent: 20 } }, terminal), 'SUPERVISOR_REQUIRED');
    for (const [body, path] of [
      [{ tolerance_percent: 101 }, 'weight_check.tolerance_percent'],
      [{ tolerance_absolute: -1 }, 'weight_check.tolerance_absolute'],
      [{ box_tare: 100_001 }, 'weight_check.box_tare'],
      [{ unit: 'stone' }, 'weight_check.unit'],
      [{ tolerance: 5 }, 'weight_check.tolerance'],
    ] as const) {
      const details = expectError(await settings({ weight_check: body }), 'VALIDATION_FAILED');
      expect((details.fields as Array<{ path: string }>).map((f) => f.path)).toContain(path);
    }
    const after = (await call(s.origin, 'GET', '/api/v1/station/settings', { token: s.stationToken })).json as { weight_check: unknown };
    expect(after.weight_check).toEqual(before.weight_check);
  });
});
