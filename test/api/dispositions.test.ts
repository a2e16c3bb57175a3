import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispositionRules } from '#shared/api/disposition-rules.ts';
import type { PackageLineItem } from '#shared/api/line-items.ts';
import { DEFAULT_DISPOSITION_RULES } from '#shared/dispositions.ts';
import { call, createPackage, createReturn, expectError, startStation, type TestStation } from './support.ts';

/*
 * Dispositions through the API: the rules table (defaults, replace, refusals field by
 * field), the rules applied when an item is recorded or its condition changes, the override, the
 * put confirmation, the receive rule, the lists' filter and the tags that carry it all upstream.
 */

let s: TestStation;
const A1 = '/api/v1/accounts/1';
const RULES = '/api/v1/station/disposition-rules';

beforeAll(async () => {
  s = await startStation();
}, 60_000);
afterAll(async () => s?.close());

async function newPackage(overrides: { reason_of_return?: string; status?: 'delivered' | 'in_transit' } = {}) {
  const ret = await createReturn(s.origin, s.account1, overrides.reason_of_return ? { reason_of_return: overrides.reason_of_return } : {});
  const pkg = await createPackage(s.origin, s.account1, 1, ret.id, { status: overrides.status ?? 'delivered' });
  return { ret, pkg, items: `${A1}/return_packages/${pkg.id}/line_items` };
}

async function addItem(path: string, body: Record<string, unknown>): Promise<PackageLineItem> {
  const res = await call(s.origin, 'POST', path, { token: s.account1, body });
  expect(res.status, res.text).toBe(201);
  return res.json as PackageLineItem;
}

async function patchItem(path: string, body: Record<string, unknown>): Promise<PackageLineItem> {
  const res = await call(s.origin, 'PATCH', path, { token: s.account1, body });
  expect(res.status, res.text).toBe(200);
  return res.json as PackageLineItem;
}

const rules = async (): Promise<DispositionRules> => (await call(s.origin, 'GET', RULES, { token: s.account1 })).json as DispositionRules;
const putRules = (body: unknown) => call(s.origin, 'PUT', RULES, { token: s.stationToken, body });

describe('the rule table', () => {
  it('starts with the defaults, readable with any token', async () => {
    const table = await rules();
    expect(table.updated_at).toBeNull();
    expect(table.rules.map((r) => [r.disposition, r.bin])).toEqual(DEFAULT_DISPOSITION_RULES.map((r) => [r.disposition, r.bin]));
    expect(table.dispositions.restock).toEqual({ label: 'Restock', color: '#2e7d32' });
  });

  it('is changed with a station token only', async () => {
    expectError(await call(s.origin, 'PUT', RULES, { token: s.account1, body: { rules: [{ disposition: 'restock', bin: 'A' }] } }), 'ACCOUNT_FORBIDDEN');
  });

  it('refuses a rule set that cannot be saved, field by field, and keeps the one it has', async () => {
    const before = await rules();
    const cases: Array<[unknown, string[]]> = [
      [{ rules: [] }, ['rules']],
      [{}, ['rules']],
      [{ rules: [{ disposition: 'sell', bin: 'A' }] }, ['rules[0].disposition']],
      [{ rules: [{ disposition: 'restock', bin: 'A 1' }] }, ['rules[0].bin']],
      [{ rules: [{ disposition: 'restock', bin: 'A', condition: [] }] }, ['rules[0].condition']],
      [{ rules: [{ disposition: 'restock', bin: 'A', package_status: [] }] }, ['rules[0].package_status']],
      [{ rules: [{ disposition: 'restock', bin: 'A', condition: ['new', 'new'] }] }, ['rules[0].condition']],
      [{ rules: [{ disposition: 'restock', bin: 'A', reason_contains: '  ' }] }, ['rules[0].reason_contains']],
      [
        {
          rules: [
            { disposition: 'restock', bin: 'A' },
            { disposition: 'dispose', bin: 'B', condition: ['damaged'] },
          ],
        },
        ['rules[1]'],
      ],
      [
        {
          rules: [
            { disposition: 'restock', bin: 'A', condition: ['new'] },
            { disposition: 'dispose', bin: 'B', condition: ['new'] },
          ],
        },
        ['rules[1]'],
      ],
      [
        {
          rules: [
            { disposition: 'restock', bin: 'A', defective: false },
            { disposition: 'return_to_vendor', bin: 'B', defective: true },
            { disposition: 'quarantine', bin: 'Q', reason_contains: 'recall' },
          ],
        },
        ['rules[2]'],
      ],
      [
        {
          rules: [
            { disposition: 'restock', bin: 'A', sku_prefix: 'AB' },
            { disposition: 'dispose', bin: 'B', sku_prefix: 'abc' },
          ],
        },
        ['rules[1]'],
      ],
      [{ rules: [{ disposition: 'restock', bin: 'A' }], dispositions: { restock: { label: 'R', color: 'green' } } }, ['dispositions.restock.color']],
      [{ rules: [{ disposition: 'restock', bin: 'A', colour: 'x' }] }, ['rules[0].colour']],
    ];
    for (const [body, paths] of cases) {
      const details = expectError(await putRules(body), 'VALIDATION_FAILED');
      const fields = details.fields as Array<{ path: string; message: string }>;
      expect(fields.map((f) => f.path).sort(), JSON.stringify(body)).toEqual(expect.arrayContaining(paths));
      expect(fields[0]?.message.length).toBeGreaterThan(5);
    }
    expect(await rules()).toEqual(before);
  });

  it('keeps a rule that only partly overlaps the ones before it', async () => {
    const res = await putRules({
      rules: [
        { disposition: 'restock', bin: 'A', sku_prefix: 'abc' },
        { disposition: 'dispose', bin: 'B', sku_prefix: 'AB' },
        { disposition: 'quarantine', bin: 'Q' },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const restored = await putRules({ rules: DEFAULT_DISPOSITION_RULES, dispositions: (await rules()).dispositions });
    expect(restored.status, restored.text).toBe(200);
  });
});

describe('at the dock', () => {
  it('gives an item its disposition, bin, unit id and tags when its condition is set, and again when it changes', async () => {
    const { items } = await newPackage();
    const item = await addItem(items, { condition: 'like_new', tags: ['gift', 'disposition:old', 'unit:x'] });
    expect(item).toMatchObject({ disposition: 'restock', bin: 'RESTOCK', disposition_source: 'rule', disposition_override: null, put_confirmed_at: null });
    expect(item.unit_id).toMatch(/^RS-[0-9A-Z]{8}-\d+$/);
    expect(item.tags).toEqual(['gift', 'disposition:restock', 'bin:RESTOCK', `unit:${item.unit_id}`]);

    const damaged = await patchItem(`${items}/${item.id}`, { condition: 'damaged' });
    expect(damaged).toMatchObject({ disposition: 'liquidate', bin: 'LIQUIDATE', unit_id: item.unit_id });
    expect(damaged.tags).toEqual(['gift', 'disposition:liquidate', 'bin:LIQUIDATE', `unit:${item.unit_id}`]);

    const defective = await patchItem(`${items}/${item.id}`, { defective: true });
    expect(defective).toMatchObject({ disposition: 'return_to_vendor', bin: 'RTV' });
    // Tags echoed back with other station tags: the station's own win.
    const echoed = await patchItem(`${items}/${item.id}`, { tags: [...defective.tags, 'bin:ELSEWHERE', 'checked'] });
    expect(echoed.tags).toEqual(['gift', 'checked', 'disposition:return_to_vendor', 'bin:RTV', `unit:${item.unit_id}`]);
  });

  it('an item only scanned has none until it is inspected; marked defective is inspected', async () => {
    const { items } = await newPackage();
    const scanned = await addItem(items, { tags: ['gift'] });
    expect(scanned).toMatchObject({ disposition: null, bin: null, unit_id: null, disposition_source: null, tags: ['gift'] });
    const defective = await patchItem(`${items}/${scanned.id}`, { defective: true });
    expect(defective).toMatchObject({ disposition: 'return_to_vendor', bin: 'RTV', disposition_source: 'rule' });
    // Back to not inspected: the rules' disposition goes, the unit id stays (given once).
    const undone = await patchItem(`${items}/${scanned.id}`, { defective: false });
    expect(undone).toMatchObject({ disposition: null, bin: null, unit_id: defective.unit_id, disposition_source: null });
    expect(undone.tags).toEqual(['gift', `unit:${defective.unit_id}`]);
  });

  it('overrides with who and why, keeps the override when the condition changes, and goes back to the rules', async () => {
    const op = await call(s.origin, 'POST', '/api/v1/station/operators', { token: s.stationToken, body: { name: 'Ada', badge_code: 'BADGE-OVR' } });
    const operatorId = (op.json as { id: number }).id;
    const { items } = await newPackage();
    const item = await addItem(items, { condition: 'new' });
    const path = `${items}/${item.id}`;

    const missingReason = expectError(await call(s.origin, 'PATCH', path, { token: s.account1, body: { disposition: 'refurbish' } }), 'VALIDATION_FAILED');
    expect((missingReason.fields as Array<{ path: string }>).map((f) => f.path)).toEqual(['disposition_reason']);
    const binAlone = expectError(await call(s.origin, 'PATCH', path, { token: s.account1, body: { bin: 'X' } }), 'VALIDATION_FAILED');
    expect((binAlone.fields as Array<{ path: string }>).map((f) => f.path)).toEqual(['bin']);
    const unknownWorker = expectError(
      await call(s.origin, 'PATCH', path, { token: s.account1, body: { disposition: 'refurbish', disposition_reason: 'scratch', disposition_by: 9999 } }),
      'VALIDATION_FAILED',
    );
    expect((unknownWorker.fields as Array<{ path: string }>).map((f) => f.path)).toEqual(['disposition_by']);

    const overridden = await patchItem(path, { disposition: 'refurbish', disposition_reason: 'Scratch on the lid', disposition_by: operatorId });
    expect(overridden).toMatchObject({ disposition: 'refurbish', bin: 'REFURB', disposition_source: 'override', unit_id: item.unit_id });
    expect(overridden.disposition_override).toMatchObject({ by: operatorId, reason: 'Scratch on the lid' });
    expect(overridden.tags).toContain('disposition:refurbish');

    const stillOverridden = await patchItem(path, { condition: 'unsellable' });
    expect(stillOverridden).toMatchObject({ disposition: 'refurbish', disposition_source: 'override', condition: 'unsellable' });

    const ownBin = await patchItem(path, { disposition: 'liquidate', bin: 'L-07', disposition_reason: 'Outlet' });
    expect(ownBin).toMatchObject({ disposition: 'liquidate', bin: 'L-07', disposition_override: { by: null, reason: 'Outlet' } });

    const back = await patchItem(path, { disposition: null });
    expect(back).toMatchObject({ disposition: 'dispose', bin: 'DISPOSE', disposition_source: 'rule', disposition_override: null });
  });

  it('confirms the put by the bin scanned; a wrong bin is a 409 and changes nothing', async () => {
    const { items } = await newPackage();
    const item = await addItem(items, { condition: 'good' });
    const put = `${items}/${item.id}/put`;
    const wrong = expectError(await call(s.origin, 'POST', put, { token: s.account1, body: { bin: 'RESTOCK' } }), 'WRONG_BIN');
    expect(wrong.expected_bin).toBe('REFURB');
    const unchanged = (await call(s.origin, 'GET', `${A1}/return_packages/${(await newPackageOf(items)).id}`, { token: s.account1 })).json as {
      line_items: PackageLineItem[];
    };
    expect(unchanged.line_items[0]?.put_confirmed_at).toBeNull();
    expectError(await call(s.origin, 'POST', put, { token: s.account1, body: { bin: 'has space' } }), 'VALIDATION_FAILED');

    const confirmed = await call(s.origin, 'POST', put, { token: s.account1, body: { bin: 'refurb' } });
    expect(confirmed.status, confirmed.text).toBe(200);
    const at = (confirmed.json as PackageLineItem).put_confirmed_at;
    expect(at).not.toBeNull();
    const again = await call(s.origin, 'POST', put, { token: s.account1, body: { bin: 'REFURB' } });
    expect((again.json as PackageLineItem).put_confirmed_at).toBe(at);

    // A new bin is a new put.
    const moved = await patchItem(`${items}/${item.id}`, { condition: 'new' });
    expect(moved).toMatchObject({ bin: 'RESTOCK', put_confirmed_at: null });
  });
});

/** The package of a line items path. */
function newPackageOf(items: string): { id: number } {
  return { id: Number(/return_packages\/(\d+)\//.exec(items)?.[1]) };
}

describe('receiving', () => {
  it('is refused while an item with a condition has no disposition, listing the items, and changes nothing', async () => {
    const res = await putRules({ rules: [{ disposition: 'restock', bin: 'A', condition: ['new'] }] });
    expect(res.status, res.text).toBe(200);
    try {
      const { pkg, items } = await newPackage();
      const covered = await addItem(items, { condition: 'new' });
      const uncovered = await addItem(items, { condition: 'damaged', merchant_sku: 'DMG-1' });
      const unset = await addItem(items, {});
      const defectiveOnly = await addItem(items, { defective: true });
      expect(uncovered.disposition).toBeNull();
      expect(unset.disposition).toBeNull();
      expect(defectiveOnly.disposition).toBeNull();
      const refused = expectError(
        await call(s.origin, 'PATCH', `${A1}/return_packages/${pkg.id}`, { token: s.account1, body: { status: 'received' } }),
        'DISPOSITION_MISSING',
      );
      expect(refused.line_item_ids).toEqual([uncovered.id, defectiveOnly.id]);
      expect(refused.message).toContain('DMG-1');
      const after = (await call(s.origin, 'GET', `${A1}/return_packages/${pkg.id}`, { token: s.account1 })).json as { status: string };
      expect(after.status).toBe('delivered');

      await patchItem(`${items}/${uncovered.id}`, { disposition: 'liquidate', bin: 'L-1', disposition_reason: 'No rule for damaged' });
      await patchItem(`${items}/${defectiveOnly.id}`, { disposition: 'return_to_vendor', disposition_reason: 'Defective' });
      const received = await call(s.origin, 'PATCH', `${A1}/return_packages/${pkg.id}`, { token: s.account1, body: { status: 'received' } });
      expect(received.status, received.text).toBe(200);
      expect(covered.disposition).toBe('restock');
    } finally {
      expect((await putRules({ rules: DEFAULT_DISPOSITION_RULES })).status).toBe(200);
    }
  });

  it('an exception package needs a disposition on every item', async () => {
    const { pkg, items } = await newPackage({ status: 'in_transit' });
    expect((await call(s.origin, 'PATCH', `${A1}/return_packages/${pkg.id}`, { token: s.account1, body: { status: 'exception' } })).status).toBe(200);
    const item = await addItem(items, { condition: 'new' });
    await patchItem(`${items}/${item.id}`, { disposition: null });
    expect((await putRules({ rules: [{ disposition: 'restock', bin: 'A', condition: ['new'] }] })).status).toBe(200);
    try {
      const unset = await addItem(items, {});
      const refused = expectError(
        await call(s.origin, 'PATCH', `${A1}/return_packages/${pkg.id}`, { token: s.account1, body: { status: 'received' } }),
        'DISPOSITION_MISSING',
      );
      expect(refused.line_item_ids).toEqual([unset.id]);
    } finally {
      expect((await putRules({ rules: DEFAULT_DISPOSITION_RULES })).status).toBe(200);
    }
  });
});

describe('unit ids and tags', () => {
  it("a scanned unit id names its package and item (any case); another station's does not", async () => {
    const { pkg, items } = await newPackage();
    const item = await addItem(items, { condition: 'fair' });
    const lookup = async (code: string) =>
      (await call(s.origin, 'GET', `/api/v1/station/lookup?code=${encodeURIComponent(code)}`, { token: s.stationToken })).json as { unit: unknown };
    expect((await lookup(item.unit_id ?? '')).unit).toEqual({ unit_id: item.unit_id, account_id: 1, return_package_id: pkg.id, line_item_id: item.id });
    expect((await lookup((item.unit_id ?? '').toLowerCase())).unit).toMatchObject({ line_item_id: item.id });
    expect((await lookup('RS-00000000-1')).unit).toBeNull();
    expect((await lookup('TS-RED-M')).unit).toBeNull();
  });

  it('the station tags count toward the 20 an item may carry: too many is a 422 on tags and changes nothing', async () => {
    const { items } = await newPackage();
    const tags = Array.from({ length: 18 }, (_unused, i) => `t${i}`);
    const item = await addItem(items, { tags });
    const refused = expectError(await call(s.origin, 'PATCH', `${items}/${item.id}`, { token: s.account1, body: { condition: 'new' } }), 'VALIDATION_FAILED');
    expect((refused.fields as Array<{ path: string }>).map((f) => f.path)).toEqual(['tags']);
    const pkgId = Number(/return_packages\/(\d+)\//.exec(items)?.[1]);
    const after = ((await call(s.origin, 'GET', `${A1}/return_packages/${pkgId}`, { token: s.account1 })).json as { line_items: PackageLineItem[] })
      .line_items[0];
    expect(after).toMatchObject({ condition: null, disposition: null, tags });
    expectError(await call(s.origin, 'POST', items, { token: s.account1, body: { condition: 'new', tags } }), 'VALIDATION_FAILED');
  });
});

describe('lists', () => {
  it('filter packages and returns by disposition', async () => {
    const a = await newPackage();
    await addItem(a.items, { condition: 'unsellable' });
    const b = await newPackage();
    await addItem(b.items, { condition: 'new' });
    const ids = async (path: string, token = s.account1) =>
      ((await call(s.origin, 'GET', path, { token })).json as { data: Array<{ id: number }> }).data.map((row) => row.id);
    const disposed = await ids(`${A1}/return_packages?disposition=dispose&per_page=250`);
    expect(disposed).toContain(a.pkg.id);
    expect(disposed).not.toContain(b.pkg.id);
    const either = await ids(`${A1}/return_packages?disposition=dispose,restock&per_page=250`);
    expect(either).toEqual(expect.arrayContaining([a.pkg.id, b.pkg.id]));
    const returns = await ids(`${A1}/returns?disposition=dispose&per_page=250`);
    expect(returns).toContain(a.ret.id);
    expect(returns).not.toContain(b.ret.id);
    const station = await ids('/api/v1/station/return_packages?disposition=dispose&per_page=250', s.stationToken);
    expect(station).toContain(a.pkg.id);
    expect(station).not.toContain(b.pkg.id);
    expectError(await call(s.origin, 'GET', `${A1}/return_packages?disposition=sell`, { token: s.account1 }), 'INVALID_QUERY');
  });
});
