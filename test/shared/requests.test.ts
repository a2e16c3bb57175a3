import { describe, expect, it } from 'vitest';
import {
  ManualReturnCreateSchema,
  OperatorCreateSchema,
  OperatorUpdateSchema,
  PACKAGE_FIELD_SETS,
  PackageLineItemCreateSchema,
  PackageLineItemUpdateSchema,
  ReturnListQuerySchema,
  ReturnPackageCreateSchema,
  ReturnPackageListQuerySchema,
  ReturnPackageUpdateSchema,
  deriveReturnStatus,
  fieldErrorsFromIssues,
  parseRequest,
  validationFailedBody,
} from '../../shared/api/index.ts';

function manualReturn() {
  return {
    email: 'jane@example.com',
    receive_by: '2026-12-01',
    total_price: 59.9,
    currency: 'EUR',
    weight: 1200,
    weight_unit: 'g',
    reason_of_return: 'Too small',
    length: 30,
    width: 20,
    height: 10,
    dimension_unit: 'cm',
    return_line_items: [
      { quantity: 2, unreceived_quantity: 2, name: 'Shirt', price: 19.95, currency: 'EUR', merchant_sku: 'SH-1' },
      { quantity: 1, unreceived_quantity: 1, name: 'Cap', price: 20, currency: 'EUR', merchant_sku: 'CP-1' },
      { quantity: 1, unreceived_quantity: 0, name: 'Socks', price: 0, currency: 'EUR', merchant_sku: 'SO-1' },
    ],
  };
}

function fieldsOf(result: { success: boolean; error?: { issues: Parameters<typeof fieldErrorsFromIssues>[0] } }) {
  expect(result.success).toBe(false);
  return fieldErrorsFromIssues(result.error?.issues ?? []);
}

describe('manual return create', () => {
  it('accepts the returns service example body', () => {
    const parsed = ManualReturnCreateSchema.parse(manualReturn());
    expect(parsed.return_line_items).toHaveLength(3);
  });

  it.each(Object.keys(manualReturn()))('requires %s', (key) => {
    const body = Object.fromEntries(Object.entries(manualReturn()).filter(([k]) => k !== key));
    expect(fieldsOf(parseRequest(ManualReturnCreateSchema, body))).toContainEqual({ path: key, message: 'Required.' });
  });

  it('requires every line field', () => {
    const body = manualReturn();
    const lines: Record<string, unknown>[] = body.return_line_items;
    delete lines[1]?.currency;
    delete lines[1]?.quantity;
    expect(fieldsOf(parseRequest(ManualReturnCreateSchema, body))).toEqual([
      { path: 'return_line_items[1].quantity', message: 'Required.' },
      { path: 'return_line_items[1].currency', message: 'Required.' },
    ]);
  });

  it('rejects unknown fields with their path, nested ones included', () => {
    const body = manualReturn();
    const lines: Record<string, unknown>[] = body.return_line_items;
    (lines[2] as Record<string, unknown>).quantiy = 3;
    const fields = fieldsOf(ManualReturnCreateSchema.safeParse({ ...body, notes: 'x' }));
    expect(fields).toContainEqual({ path: 'notes', message: 'Unknown field.' });
    expect(fields).toContainEqual({ path: 'return_line_items[2].quantiy', message: 'Unknown field.' });
  });

  it('names the failing line: return_line_items[2].quantity', () => {
    const body = manualReturn();
    (body.return_line_items[2] as { quantity: number }).quantity = 0;
    const fields = fieldsOf(ManualReturnCreateSchema.safeParse(body));
    expect(fields.map((f) => f.path)).toContain('return_line_items[2].quantity');
  });

  it('keeps unreceived_quantity within 0 … quantity', () => {
    const body = manualReturn();
    (body.return_line_items[0] as { unreceived_quantity: number }).unreceived_quantity = 3;
    expect(fieldsOf(ManualReturnCreateSchema.safeParse(body)).map((f) => f.path)).toEqual(['return_line_items[0].unreceived_quantity']);
    (body.return_line_items[0] as { unreceived_quantity: number }).unreceived_quantity = -1;
    expect(ManualReturnCreateSchema.safeParse(body).success).toBe(false);
  });

  it.each([
    ['receive_by', '2026-02-30'],
    ['currency', 'eur'],
    ['weight_unit', 'KG'],
    ['dimension_unit', 'm'],
    ['weight', 2 ** 31],
    ['weight', -1],
    ['length', 1.5],
    ['email', 'nope'],
    ['total_price', -0.01],
    ['reason_of_return', '   '],
    ['return_line_items', []],
  ])('rejects %s = %j', (key, value) => {
    const fields = fieldsOf(ManualReturnCreateSchema.safeParse({ ...manualReturn(), [key]: value }));
    expect(fields.map((f) => f.path)).toContain(key);
  });

  it('builds a 422 body whose fields use the request names', () => {
    const body = { ...manualReturn(), extra: 1, currency: 'usd' };
    const result = ManualReturnCreateSchema.safeParse(body);
    expect(result.success).toBe(false);
    const error = validationFailedBody(result.error ?? { issues: [] });
    expect(error.error_code).toBe('VALIDATION_FAILED');
    expect(error.error).toBe('Unprocessable Entity');
    expect(error.details.fields?.map((f) => f.path).sort()).toEqual(['currency', 'extra']);
    expect(error.details.message).toMatch(/and 1 more/);
  });

  it('derives the return status from its lines', () => {
    expect(deriveReturnStatus([{ quantity: 2, unreceived_quantity: 2 }])).toBe('awaiting');
    expect(deriveReturnStatus([{ quantity: 2, unreceived_quantity: 1 }])).toBe('partially_received');
    expect(
      deriveReturnStatus([
        { quantity: 2, unreceived_quantity: 0 },
        { quantity: 1, unreceived_quantity: 1 },
      ]),
    ).toBe('partially_received');
    expect(deriveReturnStatus([{ quantity: 2, unreceived_quantity: 0 }])).toBe('received');
  });

  it('list query accepts account_id and status lists', () => {
    expect(ReturnListQuerySchema.parse({ account_id: '4', status: 'awaiting,received' })).toMatchObject({
      account_id: 4,
      status: ['awaiting', 'received'],
      page: 1,
      per_page: 25,
    });
    expect(ReturnListQuerySchema.safeParse({ status: 'open' }).success).toBe(false);
    expect(ReturnListQuerySchema.safeParse({ updated_since: '2026-01-01T00:00:00' }).success).toBe(false);
  });
});

describe('return package create', () => {
  it('fills optional fields with null and status in_transit', () => {
    const parsed = ReturnPackageCreateSchema.parse({ return_id: 1, tracking_number: '1Z999AA10123456784' });
    expect(parsed.status).toBe('in_transit');
    expect(parsed.carrier_id).toBeNull();
    expect(parsed.estimated_arrival).toBeNull();
    expect(parsed.weight).toBeNull();
  });

  it('normalises estimated_arrival to UTC', () => {
    const parsed = ReturnPackageCreateSchema.parse({
      return_id: 1,
      tracking_number: 'T1',
      estimated_arrival: '2026-11-21T12:00:00+02:00',
    });
    expect(parsed.estimated_arrival).toBe('2026-11-21T10:00:00.000Z');
  });

  it.each(['pending', 'in_transit', 'delivered', 'received'])('may be created %s', (status) => {
    expect(ReturnPackageCreateSchema.safeParse({ return_id: 1, tracking_number: 'T1', status }).success).toBe(true);
  });
  it.each(['exception', 'cancelled', 'lost'])('may not be created %s', (status) => {
    expect(ReturnPackageCreateSchema.safeParse({ return_id: 1, tracking_number: 'T1', status }).success).toBe(false);
  });

  it('requires return_id and tracking_number and rejects unknown or nested fields', () => {
    const fields = fieldsOf(ReturnPackageCreateSchema.safeParse({ dimensions: { length: 1 } }));
    expect(fields.map((f) => f.path).sort()).toEqual(['dimensions', 'return_id', 'tracking_number']);
  });

  it('needs a unit for a weight, dimension or cost', () => {
    const fields = fieldsOf(
      ReturnPackageCreateSchema.safeParse({
        return_id: 1,
        tracking_number: 'T1',
        weight: 2.5,
        height: 3,
        shipping_label_cost: 4.2,
      }),
    );
    expect(fields.map((f) => f.path).sort()).toEqual(['dimension_unit', 'shipping_label_cost_currency', 'weight_unit']);
  });
});

describe('return package update', () => {
  it('accepts each PATCH field of the contract', () => {
    const samples: Record<string, unknown> = {
      status: 'received',
      actual_arrival: '2026-11-21T10:00:00Z',
      notes: 'Box dented',
      estimated_arrival: null,
      tracking_number: 'T2',
      shipping_method: 'ground',
      weight: 1.25,
      weight_unit: 'kg',
      width: 10,
      height: 10,
      length: 10,
      dimension_unit: 'cm',
      shipping_label_cost: 5,
      shipping_label_cost_currency: 'USD',
      carrier_id: 1,
      location_id: 2,
      processor_id: 3,
    };
    for (const [key, value] of Object.entries(samples)) {
      expect(ReturnPackageUpdateSchema.safeParse({ [key]: value }).success, key).toBe(true);
    }
  });
  it('rejects an empty body, unknown fields and a null status', () => {
    expect(ReturnPackageUpdateSchema.safeParse({}).success).toBe(false);
    expect(fieldsOf(ReturnPackageUpdateSchema.safeParse({ return_id: 2 }))).toContainEqual({
      path: 'return_id',
      message: 'Unknown field.',
    });
    expect(ReturnPackageUpdateSchema.safeParse({ status: null }).success).toBe(false);
    expect(ReturnPackageUpdateSchema.safeParse({ status: 'lost' }).success).toBe(false);
  });
});

describe('return package list query', () => {
  it('parses filters and defaults', () => {
    const q = ReturnPackageListQuerySchema.parse({ status: 'pending,in_transit,pending', return_id: '12' });
    expect(q).toMatchObject({ status: ['pending', 'in_transit'], return_id: 12, sort: '-created_at', page: 1, per_page: 25 });
  });
  it.each([{ status: 'pending,' }, { status: 'lost' }, { sort: 'name' }, { return_id: '1e1' }, { per_page: '1000' }, { tracking: 'x' }])(
    'rejects %j',
    (query) => {
      expect(ReturnPackageListQuerySchema.safeParse(query).success).toBe(false);
    },
  );
});

describe('response field sets', () => {
  // The presence table (docs/api-reference.md, Which fields each answer carries), column by column.
  const spec: Record<string, string[]> = {
    id: ['L', 'C', 'G', 'U'],
    return_id: ['L', 'C', 'G', 'U'],
    tracking_number: ['L', 'C', 'G', 'U'],
    status: ['L', 'C', 'G', 'U'],
    estimated_arrival: ['L', 'C', 'G', 'U'],
    actual_arrival: ['G', 'U'],
    shipping_method: ['C', 'G', 'U'],
    weight: ['L', 'C', 'G', 'U'],
    weight_unit: ['L', 'C', 'G', 'U'],
    dimensions: ['L', 'C', 'G', 'U'],
    shipping_label_cost: ['C', 'G', 'U'],
    shipping_label_cost_currency: ['C', 'G', 'U'],
    carrier_id: ['C', 'G', 'U'],
    carrier: ['L', 'G'],
    location_id: ['L', 'C', 'G', 'U'],
    fulfillment_center_id: ['L', 'G'],
    line_items_count: ['L'],
    line_items: ['G'],
    media_files: ['G'],
    processed_at: ['G'],
    processor_id: ['G'],
    weighing: ['G'],
    notes: ['U'],
    created_at: ['L', 'C', 'G', 'U'],
    updated_at: ['L', 'C', 'G', 'U'],
  };
  it.each(['L', 'C', 'G', 'U'] as const)('%s has exactly the fields of its presence column', (column) => {
    const expected = Object.entries(spec)
      .filter(([, cols]) => cols.includes(column))
      .map(([name]) => name)
      .sort();
    expect([...PACKAGE_FIELD_SETS[column]].sort()).toEqual(expected);
  });
});

describe('line items', () => {
  it('applies defaults', () => {
    expect(PackageLineItemCreateSchema.parse({})).toEqual({
      return_line_item_id: null,
      quantity: 1,
      condition: null,
      defective: false,
      notes: null,
      barcode: null,
      serial: null,
      tags: [],
    });
  });
  it('validates condition, quantity and tags', () => {
    expect(PackageLineItemCreateSchema.safeParse({ condition: 'like_new', tags: ['restock'] }).success).toBe(true);
    for (const body of [
      { condition: 'broken' },
      { quantity: 0 },
      { tags: ['a', 'a'] },
      { tags: ['has space'] },
      { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
      { tags: ['x'.repeat(41)] },
      { defective: 'yes' },
      { colour: 'red' },
    ]) {
      expect(PackageLineItemCreateSchema.safeParse(body).success, JSON.stringify(body)).toBe(false);
    }
    const tagFields = fieldsOf(PackageLineItemCreateSchema.safeParse({ tags: ['ok', ''] }));
    expect(tagFields.map((f) => f.path)).toEqual(['tags[1]']);
  });
  it('update needs at least one known field', () => {
    expect(PackageLineItemUpdateSchema.safeParse({}).success).toBe(false);
    expect(PackageLineItemUpdateSchema.safeParse({ quantity: 2 }).success).toBe(true);
    expect(PackageLineItemUpdateSchema.safeParse({ qty: 2 }).success).toBe(false);
  });
});

describe('operators', () => {
  it('create defaults to an active worker without badge or key; a supervisor needs a badge and a PIN; update needs a field', () => {
    expect(OperatorCreateSchema.parse({ name: 'Ana' })).toEqual({ name: 'Ana', badge_code: null, active: true, role: 'worker', sign_in_key: null });
    // A supervisor signs in with a badge and a PIN, so both are required of one.
    expect(OperatorCreateSchema.safeParse({ name: 'Sam', role: 'supervisor', badge_code: 'SUP-1' }).success).toBe(false);
    expect(OperatorCreateSchema.safeParse({ name: 'Sam', role: 'supervisor', pin: '2468' }).success).toBe(false);
    expect(OperatorCreateSchema.safeParse({ name: 'Sam', role: 'supervisor', badge_code: 'SUP-1', pin: '2468' }).success).toBe(true);
    expect(OperatorCreateSchema.safeParse({ name: '' }).success).toBe(false);
    expect(OperatorCreateSchema.safeParse({ name: 'Ana', badge_code: 'has space' }).success).toBe(false);
    expect(OperatorUpdateSchema.safeParse({}).success).toBe(false);
    expect(OperatorUpdateSchema.safeParse({ active: false }).success).toBe(true);
  });
});
