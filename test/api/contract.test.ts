import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HealthSchema } from '#shared/health.ts';
import { latestVersion, STATION_SCHEMA } from '../../electron/station/store/schema.ts';
import { PackageLineItemSchema } from '#shared/api/line-items.ts';
import {
  DimensionsSchema,
  GetCarrierSchema,
  ListCarrierSchema,
  ReturnPackageCreatedSchema,
  ReturnPackageListItemSchema,
  ReturnPackageSchema,
  ReturnPackageUpdatedSchema,
} from '#shared/api/return-packages.ts';
import { ReturnLineItemSchema, ReturnRecordSchema } from '#shared/api/returns.ts';
import { API_ROUTES } from '#shared/api/routes.ts';
import { ListMetaSchema } from '#shared/api/common.ts';
import {
  CarrierSchema,
  LocationSchema,
  LookupPackageSchema,
  LookupResponseSchema,
  LookupReturnSchema,
  OperatorSchema,
  StationStatusSchema,
  SyncStatusSchema,
} from '#shared/api/station.ts';
import {
  call,
  createPackage,
  createReturn,
  expectError,
  packageBody,
  returnBody,
  startStation,
  uniqueTracking,
  type ApiResponse,
  type TestStation,
} from './support.ts';

/*
 * Contract suite: every endpoint of shared/api/routes.ts answers the exact shapes of the
 * presence table (L/C/G/U) and the API reference (docs/api-reference.md), over real HTTP against the real store.
 */

let s: TestStation;
const get = (path: string, token?: string) => call(s.origin, 'GET', path, { token });
const post = (path: string, body: unknown, token = s.account1) => call(s.origin, 'POST', path, { token, body });
const patch = (path: string, body: unknown, token = s.account1) => call(s.origin, 'PATCH', path, { token, body });
const del = (path: string, token = s.account1) => call(s.origin, 'DELETE', path, { token });
const A1 = '/api/v1/accounts/1';

const keys = (value: unknown) => Object.keys(value as object).sort();

// The presence table (docs/api-reference.md, Which fields each answer carries), written out here independently of the shared schemas.
const L = [
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
];
const C = [
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
];
const G = [
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
  'weighing',
  'created_at',
  'updated_at',
];
const U = [
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
];
const DIMENSIONS = ['dimension_unit', 'height', 'length', 'width'];
// The station's disposition and unit fields follow the returns service's own.
const LINE_ITEM = [
  'barcode',
  'bin',
  'condition',
  'condition_at',
  'condition_by',
  'defective',
  'disposition',
  'disposition_override',
  'disposition_source',
  'id',
  'labelled_at',
  'merchant_sku',
  'name',
  'notes',
  'put_by',
  'put_confirmed_at',
  'quantity',
  'return_line_item_id',
  'serial',
  'serial_check',
  'tags',
  'unit_id',
];
const RETURN = [
  'account_id',
  'created_at',
  'currency',
  'dimension_unit',
  'email',
  'height',
  'id',
  'length',
  'reason_of_return',
  'receive_by',
  'return_line_items',
  'status',
  'total_price',
  'updated_at',
  'weight',
  'weight_unit',
  'width',
];
const RETURN_LINE = ['currency', 'id', 'merchant_sku', 'name', 'price', 'quantity', 'unreceived_quantity'];
const META = ['current_page', 'per_page', 'total_count', 'total_pages'];

function expectReturnRecord(value: unknown) {
  const record = ReturnRecordSchema.strict().parse(value);
  expect(keys(record)).toEqual(RETURN);
  for (const line of record.return_line_items) {
    ReturnLineItemSchema.strict().parse(line);
    expect(keys(line)).toEqual(RETURN_LINE);
  }
  return record;
}

function expectList(response: ApiResponse) {
  expect(response.status, response.text).toBe(200);
  expect(keys(response.json)).toEqual(['data', 'meta']);
  const { meta, data } = response.json as { meta: unknown; data: unknown[] };
  ListMetaSchema.strict().parse(meta);
  expect(keys(meta)).toEqual(META);
  return { data, meta: meta as { current_page: number; total_pages: number; total_count: number; per_page: number } };
}

beforeAll(async () => {
  s = await startStation();
});
afterAll(async () => {
  await s.close();
});

describe('GET /healthz, /openapi.json, /docs', () => {
  it('/healthz answers {status, name, version, data_schema_version} without a token', async () => {
    const response = await get('/healthz');
    expect(response.status).toBe(200);
    const health = HealthSchema.strict().parse(response.json);
    expect(health.status).toBe('ok');
    expect(health.version).toMatch(/^\d+\.\d+\.\d+/);
    // The schema version of the data directory it runs on: what the store wrote to station.db.
    expect(health.data_schema_version).toBe(latestVersion(STATION_SCHEMA));
  });

  it('/docs is an HTML page', async () => {
    const response = await fetch(`${s.origin}/docs`, { redirect: 'follow' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(await response.text()).toMatch(/<html/i);
  });

  it('/openapi.json is an OpenAPI 3.1 document that lists every route with its method and success status', async () => {
    const response = await get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const doc = response.json as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(doc.openapi).toMatch(/^3\.1/);
    for (const route of Object.values(API_ROUTES)) {
      const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(Object.keys(operation?.responses ?? {}), `${route.method} ${route.path}`).toContain(String(route.status));
    }
  });
});

describe('manual returns', () => {
  it('POST /returns answers 200 with the full record, lines with station ids and derived status', async () => {
    const body = returnBody({ email: 'contract@example.com' });
    const response = await post('/returns', body);
    expect(response.status, response.text).toBe(200);
    const record = expectReturnRecord(response.json);
    expect(record).toMatchObject({
      account_id: 1,
      status: 'awaiting',
      email: 'contract@example.com',
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
    });
    expect(record.id).toBeGreaterThan(0);
    expect(record.return_line_items.map(({ id: _id, ...line }) => line)).toEqual(body.return_line_items);
    expect(new Set(record.return_line_items.map((l) => l.id)).size).toBe(2);
    expect(record.created_at).toBe(record.updated_at);
  });

  it('derives partially_received / received from unreceived quantities given at create', async () => {
    const partly = await createReturn(s.origin, s.account1, {
      return_line_items: [{ quantity: 3, unreceived_quantity: 1, name: 'Mug', price: 5, currency: 'USD', merchant_sku: 'MUG' }],
    });
    expect(partly.status).toBe('partially_received');
    const none = await createReturn(s.origin, s.account1, {
      return_line_items: [{ quantity: 3, unreceived_quantity: 0, name: 'Mug', price: 5, currency: 'USD', merchant_sku: 'MUG' }],
    });
    expect(none.status).toBe('received');
  });

  it('a station token creates a return for the account named in the body', async () => {
    const response = await post('/returns', returnBody({ account_id: 2 }), s.stationToken);
    expect(response.status, response.text).toBe(200);
    expect(expectReturnRecord(response.json).account_id).toBe(2);
  });

  it("GET /returns lists the token account's returns, newest first", async () => {
    const first = await createReturn(s.origin, s.account1, { email: 'order-a@example.com' });
    const second = await createReturn(s.origin, s.account1, { email: 'order-b@example.com' });
    const { data, meta } = expectList(await get('/returns?per_page=250', s.account1));
    data.forEach(expectReturnRecord);
    const records = data as Array<{ id: number; account_id: number }>;
    expect(records.every((r) => r.account_id === 1)).toBe(true);
    const ids = records.map((r) => r.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(meta.total_count).toBe(records.length);
  });

  it("GET /api/v1/accounts/{id}/returns lists that account's returns; filters status and email", async () => {
    const mine = await createReturn(s.origin, s.account1, { email: 'Filter.Me@Example.com' });
    const list = expectList(await get(`${A1}/returns?email=filter.me@example.com`, s.account1));
    list.data.forEach(expectReturnRecord);
    expect((list.data as Array<{ id: number }>).map((r) => r.id)).toEqual([mine.id]);
    const received = expectList(await get(`${A1}/returns?status=received&per_page=250`, s.account1));
    expect((received.data as Array<{ status: string }>).every((r) => r.status === 'received')).toBe(true);
    const other = expectList(await get('/api/v1/accounts/2/returns?per_page=250', s.account2));
    expect((other.data as Array<{ account_id: number }>).every((r) => r.account_id === 2)).toBe(true);
  });

  it("GET /api/v1/accounts/{id}/returns/{return_id} answers one return; another account's is unknown", async () => {
    const mine = await createReturn(s.origin, s.account1, { email: 'one.return@example.com' });
    const response = await get(`${A1}/returns/${mine.id}`, s.account1);
    expect(response.status, response.text).toBe(200);
    expect(expectReturnRecord(response.json)).toEqual(mine);
    expect((await get(`/api/v1/accounts/2/returns/${mine.id}`, s.account2)).status).toBe(404);
    expect((await get(`${A1}/returns/${mine.id}`, s.account2)).status).toBe(403);
    expect((await get(`${A1}/returns/0${mine.id}`, s.account1)).status).toBe(404);
  });
});

describe('return packages', () => {
  let returnId: number;
  beforeAll(async () => {
    returnId = (await createReturn(s.origin, s.account1)).id;
  });

  it('POST answers 201, a Location header and exactly the C fields; unknown optional values are null', async () => {
    const body = packageBody(returnId);
    const response = await post(`${A1}/return_packages`, body);
    expect(response.status, response.text).toBe(201);
    const created = ReturnPackageCreatedSchema.strict().parse(response.json);
    expect(keys(created)).toEqual([...C].sort());
    expect(keys(created.dimensions)).toEqual(DIMENSIONS);
    expect(response.headers.get('location')).toMatch(new RegExp(`${A1}/return_packages/${created.id}$`));
    expect(created).toMatchObject({
      return_id: returnId,
      tracking_number: body.tracking_number,
      status: 'in_transit',
      estimated_arrival: null,
      shipping_method: null,
      weight: null,
      weight_unit: null,
      dimensions: { length: null, width: null, height: null, dimension_unit: null },
      shipping_label_cost: null,
      shipping_label_cost_currency: null,
      carrier_id: null,
      location_id: null,
    });
    // The Location header names the package that GET answers.
    const location = response.headers.get('location') ?? '';
    const fetched = await get(location.startsWith('http') ? new URL(location).pathname : location, s.account1);
    expect(fetched.status).toBe(200);
    expect((fetched.json as { id: number }).id).toBe(created.id);
  });

  it('POST with every field: flat dimensions come back nested, timestamps normalised to UTC', async () => {
    const body = packageBody(returnId, {
      estimated_arrival: '2026-11-21T12:15:30+02:00',
      shipping_method: 'express',
      weight: 1.25,
      weight_unit: 'kg',
      width: 20.5,
      height: 10,
      length: 30,
      dimension_unit: 'cm',
      shipping_label_cost: 7.5,
      shipping_label_cost_currency: 'USD',
      carrier_id: 1,
      location_id: 1,
      status: 'pending',
    });
    const response = await post(`${A1}/return_packages`, body);
    expect(response.status, response.text).toBe(201);
    const created = ReturnPackageCreatedSchema.strict().parse(response.json);
    expect(created).toMatchObject({
      estimated_arrival: '2026-11-21T10:15:30.000Z',
      shipping_method: 'express',
      weight: 1.25,
      weight_unit: 'kg',
      dimensions: { length: 30, width: 20.5, height: 10, dimension_unit: 'cm' },
      shipping_label_cost: 7.5,
      shipping_label_cost_currency: 'USD',
      carrier_id: 1,
      location_id: 1,
      status: 'pending',
    });
    expect(Date.parse(created.created_at)).not.toBeNaN();
    expect(created.updated_at).toBe(created.created_at);
  });

  it('GET one answers exactly the G fields, carrier {id,name,code}, fulfillment center from the location', async () => {
    const created = await createPackage(s.origin, s.account1, 1, returnId, { carrier_id: 2, location_id: 2, shipping_method: 'ground' });
    const response = await get(`${A1}/return_packages/${created.id}`, s.account1);
    expect(response.status).toBe(200);
    const pkg = ReturnPackageSchema.strict().parse(response.json);
    expect(keys(pkg)).toEqual([...G].sort());
    expect(keys(pkg.dimensions)).toEqual(DIMENSIONS);
    DimensionsSchema.strict().parse(pkg.dimensions);
    GetCarrierSchema.strict().parse(pkg.carrier);
    expect(keys(pkg.carrier)).toEqual(['code', 'id', 'name']);
    const carriers = (await get(`${A1}/carriers`, s.account1)).json as { data: Array<{ id: number; name: string; code: string }> };
    const carrier2 = carriers.data.find((c) => c.id === 2);
    expect(pkg.carrier).toEqual({ id: 2, name: carrier2?.name, code: carrier2?.code });
    const locations = (await get(`${A1}/locations`, s.account1)).json as { data: Array<{ id: number; fulfillment_center_id: number | null }> };
    expect(pkg.fulfillment_center_id).toBe(locations.data.find((l) => l.id === 2)?.fulfillment_center_id);
    expect(pkg).toMatchObject({ line_items: [], media_files: [], actual_arrival: null, processed_at: null, processor_id: null, shipping_method: 'ground' });
  });

  it('a package without carrier or location has carrier null and fulfillment_center_id null (present, not missing)', async () => {
    const created = await createPackage(s.origin, s.account1, 1, returnId);
    const pkg = (await get(`${A1}/return_packages/${created.id}`, s.account1)).json as Record<string, unknown>;
    expect(pkg).toHaveProperty('carrier', null);
    expect(pkg).toHaveProperty('fulfillment_center_id', null);
  });

  it('list items carry exactly the L fields, carrier {id,name,service}, and line_items_count', async () => {
    const created = await createPackage(s.origin, s.account1, 1, returnId, { carrier_id: 1, location_id: 1 });
    const li = await post(`${A1}/return_packages/${created.id}/line_items`, { quantity: 1 });
    expect(li.status, li.text).toBe(201);
    const { data } = expectList(await get(`${A1}/return_packages?tracking_number=${created.tracking_number}`, s.account1));
    expect(data).toHaveLength(1);
    const item = ReturnPackageListItemSchema.strict().parse(data[0]);
    expect(keys(item)).toEqual([...L].sort());
    expect(keys(item.dimensions)).toEqual(DIMENSIONS);
    ListCarrierSchema.strict().parse(item.carrier);
    expect(keys(item.carrier)).toEqual(['id', 'name', 'service']);
    const carriers = (await get(`${A1}/carriers`, s.account1)).json as { data: Array<{ id: number; name: string; service: string | null }> };
    const carrier1 = carriers.data.find((c) => c.id === 1);
    expect(item.carrier).toEqual({ id: 1, name: carrier1?.name, service: carrier1?.service });
    expect(item.line_items_count).toBe(1);
    expect(item.fulfillment_center_id).not.toBeNull();
  });

  it('PATCH answers exactly the U fields reflecting the change, notes included', async () => {
    const created = await createPackage(s.origin, s.account1, 1, returnId);
    const response = await patch(`${A1}/return_packages/${created.id}`, {
      status: 'received',
      actual_arrival: '2026-11-21T09:00:00-05:00',
      notes: 'Box dented',
    });
    expect(response.status, response.text).toBe(200);
    const updated = ReturnPackageUpdatedSchema.strict().parse(response.json);
    expect(keys(updated)).toEqual([...U].sort());
    expect(keys(updated.dimensions)).toEqual(DIMENSIONS);
    expect(updated).toMatchObject({ status: 'received', actual_arrival: '2026-11-21T14:00:00.000Z', notes: 'Box dented' });
    expect(updated.updated_at > created.updated_at).toBe(true);
    const pkg = ReturnPackageSchema.strict().parse((await get(`${A1}/return_packages/${created.id}`, s.account1)).json);
    expect(pkg.status).toBe('received');
    expect(pkg.actual_arrival).toBe('2026-11-21T14:00:00.000Z');
    expect(pkg.processed_at).not.toBeNull();
  });

  it('PATCH may change every updatable field and clear optional ones with null', async () => {
    const created = await createPackage(s.origin, s.account1, 1, returnId, { carrier_id: 1, weight: 2, weight_unit: 'kg' });
    const tracking = uniqueTracking('NEW');
    const response = await patch(`${A1}/return_packages/${created.id}`, {
      tracking_number: tracking,
      estimated_arrival: '2026-12-24T00:00:00Z',
      shipping_method: 'freight',
      weight: 5,
      weight_unit: 'lb',
      width: 1,
      height: 2,
      length: 3,
      dimension_unit: 'in',
      shipping_label_cost: 12,
      shipping_label_cost_currency: 'GBP',
      carrier_id: null,
      location_id: 3,
    });
    expect(response.status, response.text).toBe(200);
    expect(ReturnPackageUpdatedSchema.strict().parse(response.json)).toMatchObject({
      tracking_number: tracking,
      estimated_arrival: '2026-12-24T00:00:00.000Z',
      shipping_method: 'freight',
      weight: 5,
      weight_unit: 'lb',
      dimensions: { width: 1, height: 2, length: 3, dimension_unit: 'in' },
      shipping_label_cost: 12,
      shipping_label_cost_currency: 'GBP',
      carrier_id: null,
      location_id: 3,
    });
  });
});

describe('package line items', () => {
  let returnRecord: Awaited<ReturnType<typeof createReturn>>;
  let packageId: number;
  beforeAll(async () => {
    returnRecord = await createReturn(s.origin, s.account1);
    packageId = (await createPackage(s.origin, s.account1, 1, returnRecord.id)).id;
  });

  it('POST answers 201 with the item; name and SKU default from the return line', async () => {
    const line = returnRecord.return_line_items[0];
    const response = await post(`${A1}/return_packages/${packageId}/line_items`, {
      return_line_item_id: line?.id,
      quantity: 1,
      condition: 'like_new',
      tags: ['restock'],
      barcode: '4006381333931',
    });
    expect(response.status, response.text).toBe(201);
    const item = PackageLineItemSchema.strict().parse(response.json);
    expect(keys(item)).toEqual(LINE_ITEM);
    expect(item).toMatchObject({
      return_line_item_id: line?.id,
      quantity: 1,
      merchant_sku: line?.merchant_sku,
      name: line?.name,
      condition: 'like_new',
      defective: false,
      notes: null,
      barcode: '4006381333931',
      // The inspected item's disposition, bin and unit travel in its tags, after the caller's own.
      tags: ['restock', 'disposition:restock', 'bin:RESTOCK', `unit:${item.unit_id}`],
      disposition: 'restock',
      bin: 'RESTOCK',
    });
  });

  it('an unexpected item (no return line) gets nulls, quantity 1, defective false, no tags', async () => {
    const response = await post(`${A1}/return_packages/${packageId}/line_items`, {});
    expect(response.status, response.text).toBe(201);
    expect(PackageLineItemSchema.strict().parse(response.json)).toMatchObject({
      return_line_item_id: null,
      quantity: 1,
      merchant_sku: null,
      name: null,
      condition: null,
      defective: false,
      notes: null,
      barcode: null,
      tags: [],
    });
  });

  it('PATCH changes an item; DELETE answers 204 with no body; the package lists what remains', async () => {
    const created = (await post(`${A1}/return_packages/${packageId}/line_items`, { name: 'Scarf', merchant_sku: 'SC-1' })).json as { id: number };
    const path = `${A1}/return_packages/${packageId}/line_items/${created.id}`;
    const changed = await patch(path, { condition: 'damaged', defective: true, notes: 'Torn', tags: ['dispose'] });
    expect(changed.status, changed.text).toBe(200);
    expect(PackageLineItemSchema.strict().parse(changed.json)).toMatchObject({
      id: created.id,
      name: 'Scarf',
      merchant_sku: 'SC-1',
      condition: 'damaged',
      defective: true,
      notes: 'Torn',
      tags: ['dispose', 'disposition:return_to_vendor', 'bin:RTV', `unit:${(changed.json as { unit_id: string }).unit_id}`],
    });
    const detail = ReturnPackageSchema.strict().parse((await get(`${A1}/return_packages/${packageId}`, s.account1)).json);
    const listed = detail.line_items.find((i) => i.id === created.id);
    expect(listed).toEqual(changed.json);
    detail.line_items.forEach((i) => expect(keys(i)).toEqual(LINE_ITEM));

    const removed = await del(path);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    const after = ReturnPackageSchema.parse((await get(`${A1}/return_packages/${packageId}`, s.account1)).json);
    expect(after.line_items.some((i) => i.id === created.id)).toBe(false);
    expectError(await del(path), 'NOT_FOUND');
  });
});

describe('carriers, locations', () => {
  it('carriers are seeded: UPS, FedEx, USPS, DHL among them, paginated', async () => {
    const { data, meta } = expectList(await get(`${A1}/carriers`, s.account1));
    data.forEach((c) => expect(keys(CarrierSchema.strict().parse(c))).toEqual(['code', 'id', 'name', 'service']));
    const codes = (data as Array<{ code: string }>).map((c) => c.code);
    expect(codes).toEqual(expect.arrayContaining(['ups', 'fedex', 'usps', 'dhl']));
    expect(meta.total_count).toBe(data.length);
    const page = expectList(await get(`${A1}/carriers?per_page=2&page=2`, s.account1));
    expect(page.data).toEqual(data.slice(2, 4));
    expect(page.meta.total_pages).toBe(Math.ceil(data.length / 2));
  });

  it('locations are seeded, each with a fulfillment center', async () => {
    const { data } = expectList(await get(`${A1}/locations`, s.account1));
    expect(data.length).toBeGreaterThan(0);
    data.forEach((l) => expect(keys(LocationSchema.strict().parse(l))).toEqual(['code', 'fulfillment_center_id', 'id', 'name']));
  });

  it('an account token of account 2 reads carriers on its own path', async () => {
    expectList(await get('/api/v1/accounts/2/carriers', s.account2));
  });
});

describe('station resources', () => {
  it("GET /api/v1/station: name, version, accounts, today's counts, sync state, storage, printing, address", async () => {
    const response = await get('/api/v1/station', s.stationToken);
    expect(response.status, response.text).toBe(200);
    const status = StationStatusSchema.strict().parse(response.json);
    expect(keys(status)).toEqual(['accounts', 'address', 'name', 'printing', 'settings', 'storage', 'sync', 'today', 'version']);
    // Served plain on loopback: where it listens, nothing to pin.
    expect(status.address).toEqual({ origin: s.origin, tls: null });
    expect(keys(status.printing)).toEqual(['problem', 'waiting']);
    expect(keys(status.storage)).toEqual(['disk_free_bytes', 'media_budget_bytes', 'media_bytes', 'state']);
    expect(keys(status.today)).toEqual(['date', 'in_progress', 'received']);
    SyncStatusSchema.strict().parse(status.sync);
    expect(status.accounts.map((a) => a.id)).toEqual(expect.arrayContaining([1, 2]));
  });

  it('today.received counts a package received now', async () => {
    const before = StationStatusSchema.parse((await get('/api/v1/station', s.stationToken)).json).today.received;
    const ret = await createReturn(s.origin, s.account1);
    const pkg = await createPackage(s.origin, s.account1, 1, ret.id);
    expect((await patch(`${A1}/return_packages/${pkg.id}`, { status: 'received' })).status).toBe(200);
    const after = StationStatusSchema.parse((await get('/api/v1/station', s.stationToken)).json).today.received;
    expect(after).toBe(before + 1);
  });

  describe('lookup', () => {
    let ret1: Awaited<ReturnType<typeof createReturn>>;
    let ret2: Awaited<ReturnType<typeof createReturn>>;
    let tracking: string;
    beforeAll(async () => {
      ret1 = await createReturn(s.origin, s.account1, {
        email: 'lookup.person@example.com',
        return_line_items: [{ quantity: 1, unreceived_quantity: 1, name: 'Lamp', price: 30, currency: 'EUR', merchant_sku: 'LOOKUP-SKU-77' }],
      });
      ret2 = await createReturn(s.origin, s.account2);
      tracking = uniqueTracking('1ZLOOK');
      await createPackage(s.origin, s.account2, 2, ret2.id, { tracking_number: tracking });
    });

    const lookup = async (code: string) => {
      const response = await get(`/api/v1/station/lookup?code=${encodeURIComponent(code)}`, s.stationToken);
      expect(response.status, response.text).toBe(200);
      const body = LookupResponseSchema.strict().parse(response.json);
      body.packages.forEach((p) => LookupPackageSchema.strict().parse(p));
      body.returns.forEach((r) => LookupReturnSchema.strict().parse(r));
      return body;
    };

    it('finds a package by tracking number, case-insensitively, across accounts, with its account_id', async () => {
      const body = await lookup(tracking.toLowerCase());
      expect(body.packages.map((p) => [p.tracking_number, p.account_id])).toEqual([[tracking, 2]]);
      expect(body.returns).toEqual([]);
    });

    it('finds a return by id, by email and by SKU (with the matched lines)', async () => {
      const byId = await lookup(String(ret1.id));
      expect(byId.returns.some((r) => r.return.id === ret1.id && r.matched_by === 'id' && r.account_id === 1)).toBe(true);
      const byEmail = await lookup('lookup.person@example.com');
      expect(byEmail.returns.map((r) => [r.return.id, r.matched_by])).toContainEqual([ret1.id, 'email']);
      const bySku = await lookup('lookup-sku-77');
      const hit = bySku.returns.find((r) => r.return.id === ret1.id);
      expect(hit?.matched_by).toBe('merchant_sku');
      expect(hit?.matched_line_item_ids).toEqual([ret1.return_line_items[0]?.id]);
    });

    it('an unknown code answers empty lists', async () => {
      const body = await lookup('NO-SUCH-CODE-XYZ-0001');
      expect(body.packages).toEqual([]);
      expect(body.returns).toEqual([]);
    });
  });

  describe('operators', () => {
    it('create (201), list, update; badge codes are unique (422)', async () => {
      const created = await post('/api/v1/station/operators', { name: 'Dana', badge_code: 'OP-DANA' }, s.stationToken);
      expect(created.status, created.text).toBe(201);
      const dana = OperatorSchema.strict().parse(created.json);
      expect(dana).toMatchObject({ name: 'Dana', badge_code: 'OP-DANA', active: true });

      const list = expectList(await get('/api/v1/station/operators', s.stationToken));
      list.data.forEach((o) => OperatorSchema.strict().parse(o));
      expect(list.data).toContainEqual(dana);

      const updated = await patch(`/api/v1/station/operators/${dana.id}`, { active: false, name: 'Dana K.' }, s.stationToken);
      expect(updated.status, updated.text).toBe(200);
      const after = OperatorSchema.strict().parse(updated.json);
      expect(after).toMatchObject({ id: dana.id, name: 'Dana K.', badge_code: 'OP-DANA', active: false });
      expect(after.updated_at > dana.updated_at).toBe(true);

      const dup = await post('/api/v1/station/operators', { name: 'Eve', badge_code: 'OP-DANA' }, s.stationToken);
      const details = expectError(dup, 'VALIDATION_FAILED');
      expect(details.fields).toEqual([expect.objectContaining({ path: 'badge_code' })]);
      const eve = OperatorSchema.parse((await post('/api/v1/station/operators', { name: 'Eve', badge_code: 'OP-EVE' }, s.stationToken)).json);
      expectError(await patch(`/api/v1/station/operators/${eve.id}`, { badge_code: 'OP-DANA' }, s.stationToken), 'VALIDATION_FAILED');
      expectError(await patch('/api/v1/station/operators/999999', { name: 'Ghost' }, s.stationToken), 'NOT_FOUND');
    });

    it('an operator id becomes the processor_id recorded on receipt', async () => {
      const op = OperatorSchema.parse((await post('/api/v1/station/operators', { name: 'Finn' }, s.stationToken)).json);
      const ret = await createReturn(s.origin, s.account1);
      const pkg = await createPackage(s.origin, s.account1, 1, ret.id);
      expect((await patch(`${A1}/return_packages/${pkg.id}`, { status: 'received', processor_id: op.id })).status).toBe(200);
      const detail = ReturnPackageSchema.parse((await get(`${A1}/return_packages/${pkg.id}`, s.account1)).json);
      expect(detail.processor_id).toBe(op.id);
      expectError(await patch(`${A1}/return_packages/${pkg.id}`, { processor_id: 999999 }), 'VALIDATION_FAILED');
    });
  });
});

describe('OpenAPI document against real responses', () => {
  interface AjvLike {
    addSchema(schema: object, key?: string): unknown;
    compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown };
  }

  /**
   * Ajv 8 (draft 2020-12) is not the top-level `ajv` (that is Ajv 6); it is present as a dependency
   * of Fastify's own schema compiler, so it is loaded from there.
   */
  function loadAjv2020(): (new (options: object) => AjvLike) | null {
    try {
      const require = createRequire(import.meta.url);
      const fromFastify = createRequire(require.resolve('@fastify/ajv-compiler'));
      const mod = fromFastify('ajv/dist/2020') as { default?: new (options: object) => AjvLike };
      return mod.default ?? (mod as unknown as new (options: object) => AjvLike);
    } catch {
      return null;
    }
  }

  it("each documented success schema accepts the station's real answer", async () => {
    const Ajv2020 = loadAjv2020();
    expect(Ajv2020, 'Ajv 2020 could not be loaded').not.toBeNull();
    if (!Ajv2020) return;
    const doc = (await get('/openapi.json')).json as {
      components: { schemas: Record<string, object> };
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: object }> }> }>>;
    };
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
    const rewrite = (schema: object) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as object;
    const check = (path: string, method: string, status: number, body: unknown) => {
      const schema = doc.paths[path]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
      expect(schema, `${method} ${path} ${status} documents a JSON schema`).toBeDefined();
      const validate = ajv.compile(rewrite(schema ?? {}));
      expect(validate(body), `${method} ${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };

    const ret = await createReturn(s.origin, s.account1);
    const created = await post(`${A1}/return_packages`, packageBody(ret.id, { carrier_id: 1, location_id: 1 }));
    const id = (created.json as { id: number }).id;
    const line = await post(`${A1}/return_packages/${id}/line_items`, { return_line_item_id: ret.return_line_items[0]?.id });
    const lineId = (line.json as { id: number }).id;
    const op = await post('/api/v1/station/operators', { name: 'Docs' }, s.stationToken);

    const P = '/api/v1/accounts/{account_id}';
    check('/healthz', 'get', 200, (await get('/healthz')).json);
    check('/returns', 'post', 200, (await post('/returns', returnBody())).json);
    check('/returns', 'get', 200, (await get('/returns', s.account1)).json);
    check(`${P}/returns`, 'get', 200, (await get(`${A1}/returns`, s.account1)).json);
    check(`${P}/return_packages`, 'post', 201, created.json);
    check(`${P}/return_packages`, 'get', 200, (await get(`${A1}/return_packages`, s.account1)).json);
    check(`${P}/return_packages/{id}`, 'get', 200, (await get(`${A1}/return_packages/${id}`, s.account1)).json);
    check(`${P}/return_packages/{id}`, 'patch', 200, (await patch(`${A1}/return_packages/${id}`, { notes: 'x' })).json);
    check(`${P}/return_packages/{id}/line_items`, 'post', 201, line.json);
    check(
      `${P}/return_packages/{id}/line_items/{line_item_id}`,
      'patch',
      200,
      (await patch(`${A1}/return_packages/${id}/line_items/${lineId}`, { notes: 'y' })).json,
    );
    check(`${P}/carriers`, 'get', 200, (await get(`${A1}/carriers`, s.account1)).json);
    check(`${P}/locations`, 'get', 200, (await get(`${A1}/locations`, s.account1)).json);
    check('/api/v1/station', 'get', 200, (await get('/api/v1/station', s.stationToken)).json);
    check('/api/v1/station/lookup', 'get', 200, (await get('/api/v1/station/lookup?code=abc', s.stationToken)).json);
    check('/api/v1/station/operators', 'get', 200, (await get('/api/v1/station/operators', s.stationToken)).json);
    check('/api/v1/station/operators', 'post', 201, op.json);
    check(
      '/api/v1/station/operators/{id}',
      'patch',
      200,
      (await patch(`/api/v1/station/operators/${(op.json as { id: number }).id}`, { name: 'D2' }, s.stationToken)).json,
    );
    // The documented error schema accepts a real error.
    const errorSchema = doc.paths[`${P}/return_packages/{id}`]?.get?.responses['404']?.content?.['application/json']?.schema;
    expect(errorSchema).toBeDefined();
    const validateError = ajv.compile(rewrite(errorSchema ?? {}));
    expect(validateError((await get(`${A1}/return_packages/999999`, s.account1)).json)).toBe(true);
  });
});
