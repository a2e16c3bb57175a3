import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/*
 * A pass-through field is one row of the package's field table: this file adds one to a copy of the
 * table (nothing else changes) and checks that the contract's schemas, `/openapi.json`, the station's
 * answers and store, and sync's reader, ownership and sent lists all carry it.
 */

const NEW_FIELD = 'return_label_cost_currency';

vi.mock('#shared/fields/return-package.ts', async (importOriginal) => {
  const original = await importOriginal<{ RETURN_PACKAGE_FIELDS: Record<string, unknown> }>();
  const { settable: settableRow } = await import('#shared/fields/table.ts');
  const { CurrencySchema: currency } = await import('#shared/api/common.ts');
  const { z: zod } = await import('zod');
  // The new row right after the label cost's currency: the back office's, sent on create, read from upstream answers.
  const rows: Array<[string, unknown]> = Object.entries(original.RETURN_PACKAGE_FIELDS).flatMap(([name, row]): Array<[string, unknown]> => {
    const added = {
      type: zod.string().nullable(),
      in: 'CGU',
      ...settableRow(currency),
      owner: 'office',
      up: 'create',
      read: zod.string().regex(/^[A-Z]{3}$/),
    };
    return name === 'shipping_label_cost_currency'
      ? [
          [name, row],
          [NEW_FIELD, added],
        ]
      : [[name, row]];
  });
  return { ...original, RETURN_PACKAGE_FIELDS: Object.fromEntries(rows) };
});

// Imported after the mock: every module below derives from the table copy.
const contract = await import('#shared/api/return-packages.ts');
const { buildOpenApiDocument } = await import('#shared/api/openapi.ts');
const { readUpstreamPackage } = await import('../../electron/station/sync/upstream/upstream-records.ts');
const packageFields = await import('../../electron/station/sync/links/package-fields.ts');
const { call, createReturn, expectError, startStation, uniqueTracking } = await import('./support.ts');
type TestStation = Awaited<ReturnType<typeof startStation>>;

describe('a field added to the package table', () => {
  it('is in the contract: the create and update bodies take it with its rule, C, G and U answer it, L does not', () => {
    const base = { return_id: 1, tracking_number: 'TRK-NEW-FIELD' };
    expect(contract.ReturnPackageCreateSchema.parse({ ...base, [NEW_FIELD]: 'USD' })).toMatchObject({ [NEW_FIELD]: 'USD' });
    expect(contract.ReturnPackageCreateSchema.parse(base)).toMatchObject({ [NEW_FIELD]: null });
    expect(contract.ReturnPackageCreateSchema.safeParse({ ...base, [NEW_FIELD]: 'usd' }).success).toBe(false);
    expect(contract.ReturnPackageUpdateSchema.parse({ [NEW_FIELD]: null })).toEqual({ [NEW_FIELD]: null });
    expect(contract.PACKAGE_UPDATE_FIELDS).toContain(NEW_FIELD);
    expect(contract.PACKAGE_FIELD_SETS.C).toContain(NEW_FIELD);
    expect(contract.PACKAGE_FIELD_SETS.G).toContain(NEW_FIELD);
    expect(contract.PACKAGE_FIELD_SETS.U).toContain(NEW_FIELD);
    expect(contract.PACKAGE_FIELD_SETS.L).not.toContain(NEW_FIELD);
    // In table order: right after the row it follows.
    const g = contract.PACKAGE_FIELD_SETS.G;
    expect(g.indexOf(NEW_FIELD)).toBe(g.indexOf('shipping_label_cost_currency') + 1);
  });

  it('is in /openapi.json: request bodies with its currency rule, the answers that carry it', () => {
    const schemas = (buildOpenApiDocument('0.0.0') as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } }).components.schemas;
    const property = (component: string) => schemas[component]?.properties?.[NEW_FIELD];
    // The request bodies take a currency code of the list, or null.
    for (const request of ['ReturnPackageCreate', 'ReturnPackageUpdate']) {
      expect(property(request), request).toMatchObject({ anyOf: [{ $ref: '#/components/schemas/Currency' }, { type: 'null' }] });
    }
    expect(schemas.Currency).toMatchObject({ enum: expect.arrayContaining(['EUR', 'USD']) });
    for (const answer of ['ReturnPackageCreated', 'ReturnPackage', 'ReturnPackageUpdated']) {
      expect(property(answer), answer).toEqual({ type: ['string', 'null'] });
    }
    expect(property('ReturnPackageListItem')).toBeUndefined();
  });

  it("goes up with a create, is the back office's on the way down, and is read from upstream answers", () => {
    expect(packageFields.SENT_ON_CREATE).toContain(NEW_FIELD);
    expect(packageFields.UPSTREAM_OWNED.has(NEW_FIELD as never)).toBe(true);
    expect(packageFields.STATION_OWNED.has(NEW_FIELD as never)).toBe(false);
    expect(packageFields.SYNCED_FIELDS).toContain(NEW_FIELD);
    const upstream = { id: 7, return_id: 3, tracking_number: 'UP-1', [NEW_FIELD]: 'GBP' };
    const read = readUpstreamPackage(upstream);
    expect(read.ok && read.record).toMatchObject({ [NEW_FIELD]: 'GBP' });
    expect(read.ok && packageFields.upstreamValues(read.record)).toMatchObject({ [NEW_FIELD]: 'GBP' });
    // Tolerant: a value it cannot take is left out, the record is still read.
    const unreadable = readUpstreamPackage({ ...upstream, [NEW_FIELD]: 42 });
    expect(unreadable.ok && NEW_FIELD in unreadable.record).toBe(false);
  });

  describe('at the station', () => {
    let t: TestStation;
    beforeAll(async () => {
      t = await startStation();
    });
    afterAll(() => t.close());

    it('is stored from the create, answered, changed by an update and refused when malformed', async () => {
      const ret = await createReturn(t.origin, t.account1);
      const path = '/api/v1/accounts/1/return_packages';
      const created = await call(t.origin, 'POST', path, {
        token: t.account1,
        body: { return_id: ret.id, tracking_number: uniqueTracking(), [NEW_FIELD]: 'USD' },
      });
      expect(created.status, created.text).toBe(201);
      const id = (created.json as { id: number }).id;
      expect(created.json).toMatchObject({ [NEW_FIELD]: 'USD' });
      const got = await call(t.origin, 'GET', `${path}/${id}`, { token: t.account1 });
      expect(got.json).toMatchObject({ [NEW_FIELD]: 'USD' });
      const updated = await call(t.origin, 'PATCH', `${path}/${id}`, { token: t.account1, body: { [NEW_FIELD]: 'CHF' } });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.json).toMatchObject({ [NEW_FIELD]: 'CHF' });
      const refused = await call(t.origin, 'PATCH', `${path}/${id}`, { token: t.account1, body: { [NEW_FIELD]: 'chf' } });
      expect(expectError(refused, 'VALIDATION_FAILED')).toMatchObject({ fields: [expect.objectContaining({ path: NEW_FIELD })] });
      const list = await call(t.origin, 'GET', `${path}?return_id=${ret.id}`, { token: t.account1 });
      const [item] = (list.json as { data: Array<Record<string, unknown>> }).data;
      expect(item && NEW_FIELD in item).toBe(false);
      const again = await call(t.origin, 'GET', `${path}/${id}`, { token: t.account1 });
      expect(again.json).toMatchObject({ [NEW_FIELD]: 'CHF' });
    });
  });
});
