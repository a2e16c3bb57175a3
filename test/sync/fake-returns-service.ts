import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { pathToFileURL } from 'node:url';

/*
 * A test double of the THIRD-PARTY returns service, written from the interface spec text alone
 * (/work/shared/spec/returns-service.md), without reading the station's own server: the station's
 * sync is tested against something it did not write. It does what the spec shows and, where the
 * spec says "not shown", offers a switch (FakeModes, mutable at run time) whose default is the
 * unfriendly/minimal choice.
 *
 * Endpoints (spec "Endpoints"), all behind `Authorization: Bearer <token>`:
 *   POST  {returns_url}/returns                                   create a manual return (200)
 *   GET   {returns_url}/returns                                   get returns
 *   GET   {base_url}/v1/accounts/{account_id}/return_packages      list (data + meta)
 *   POST  {base_url}/v1/accounts/{account_id}/return_packages      create (flat body)
 *   GET   {base_url}/v1/accounts/{account_id}/return_packages/{id} get one
 *   PATCH {base_url}/v1/accounts/{account_id}/return_packages/{id} update
 *   GET   {base_url}/v1/accounts/{account_id}/returns              the account returns listing the
 *                                                                 authentication guidance mentions
 *   GET   {media_url}/{file}                                       media file bytes (urls of media_files)
 * Field presence per answer follows the spec's L/C/G/U table exactly (list items carry
 * line_items_count and carrier {id,name,service}; get carries carrier {id,name,code}, line_items,
 * media_files, processed_at, processor_id, fulfillment_center_id; only update carries notes).
 * Tracking numbers are not unique (the spec shows no uniqueness). Ids are integers from the fake.
 *
 * Each "not shown" of the spec and what covers it:
 *   Other resource groups                              → not served; unknown paths answer 404 JSON.
 *   Manual return response record / listing fields     → `returnCreateBody` ('record' default: id,
 *                                                        the fields, line items with ids | 'empty');
 *                                                        `returnTimestamps` (default false: no
 *                                                        created_at/updated_at on returns).
 *   Allowed weight_unit, dimension_unit, currency     → any string accepted (no switch).
 *   Numeric bounds, unreceived_quantity vs quantity   → none beyond the types (int32 where the spec
 *                                                        says 32-bit); no switch.
 *   Required fields when creating a package            → `packageRequired` ('none' default | 'all' |
 *                                                        a list); present fields are type-checked.
 *   Values of status, shipping_method, units,
 *     condition, media type                            → any string accepted; `unknownStatuses`
 *                                                        decides whether seeded records in a status
 *                                                        other than in_transit/received are listed.
 *   Complete list of states, allowed moves, rejection  → every move allowed (no switch).
 *   States of a manual return                          → manual returns carry no status.
 *   GET /returns query parameters and response body    → `returnsList` ('paged' {data, meta} default
 *                                                        | 'array': a bare array of every return);
 *                                                        filters per `filters`.
 *   Names of filter and pagination query parameters    → `page`/`per_page` always; `filters`
 *                                                        ('ignored' default | 'honoured': updated_since,
 *                                                        sort, status, tracking_number, return_id,
 *                                                        email); `order` ('id_asc' default | 'id_desc').
 *   Maximum page size                                  → `pageCap` (100 default), `defaultPerPage` (25).
 *   Other updatable fields                             → `patchFields` ('spec' default: status,
 *                                                        actual_arrival, notes; others ignored | 'all':
 *                                                        any create-body field too).
 *   Success status of the four package operations      → `createStatus` (201 default | 200),
 *                                                        `patchStatus` (200 default | 204 no body);
 *                                                        list and get answer 200.
 *   Account returns listing parameters and response    → as GET /returns (`returnsList`, `filters`).
 *   Deleting, getting a return by id, line item and
 *     media file management                            → not served (404) unless `lineItemRoutes` /
 *                                                        `mediaRoutes` (default false).
 *   How tokens are issued                              → the test side issues them: token(accountIds).
 *   Token ↔ account, permissions                       → a token is valid for the accounts given at
 *                                                        issue; another account answers per
 *                                                        `foreignAccount` (401 default | 403 | 404).
 *   Media file downloads (urls under {media_url})      → `mediaAuth` (true default: bearer needed).
 *   Events, webhooks                                   → not served.
 *   Validation failures, unknown identifiers           → 422 {error, error_code: 'VALIDATION_FAILED',
 *                                                        details: {message, fields}}; unknown ids 404
 *                                                        {error, error_code: 'NOT_FOUND', details};
 *                                                        unparsable JSON 400. No switch.
 *   Other error codes / statuses                       → `fault`, `outage`, `loseAnswer`, `latencyMs`.
 *   Which operations a rate limit covers, its scope     → `rateLimit` {limit, windowMs, scope:
 *                                                        'account' default | 'token'} (null: off);
 *                                                        `rateLimited` ('all' default | 'returns-only':
 *                                                        only the /returns endpoints count).
 *   Response when a limit is exceeded                  → 429 + Retry-After, body shaped like the 401's
 *                                                        (error_code 'RATE_LIMITED').
 *   Maximum request body size                          → `maxBodyBytes` (null default: none; else 413).
 *   Versioning policy                                  → none.
 *   Idempotency (the spec shows none)                  → `idempotency` (false default: Idempotency-Key
 *                                                        ignored).
 * Tolerant-reader aids: `extraFields`, `dropFields`, `nullFields`.
 *
 * Both address families live on one listener by default, under distinct prefixes ({returns_url} =
 * origin/manual, {base_url} = origin/api, {media_url} = origin/media); `separateAddresses: true` puts
 * them on two listeners (different ports and prefixes: /manual on one, /api-base and /media-files on
 * the other).
 */

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

export interface FakeRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  body: string;
  token: string | null;
  account: number | null;
}

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface FakeModes {
  /** 'ignored' (default): every query parameter but page/per_page is ignored. */
  filters: 'ignored' | 'honoured';
  /** per_page above it is clamped to it; meta.per_page says the size used. */
  pageCap: number;
  defaultPerPage: number;
  /** List order when no (honoured) sort. */
  order: 'id_asc' | 'id_desc';
  /** Shape of both returns listings. */
  returnsList: 'paged' | 'array';
  /** Success status of POST return_packages. */
  createStatus: 200 | 201;
  /** Success status of PATCH return_packages/{id}; 204 answers with no body. */
  patchStatus: 200 | 204;
  /** Answer of POST /returns (200 either way): the created record, or an empty body. */
  returnCreateBody: 'record' | 'empty';
  /** Add created_at/updated_at to manual return records. */
  returnTimestamps: boolean;
  /** Fields a package create must carry. */
  packageRequired: 'none' | 'all' | string[];
  /** Fields PATCH applies: the three the spec shows, or every create-body field too. */
  patchFields: 'spec' | 'all';
  /** When true, the same Idempotency-Key (per token) with the same request replays the first answer. */
  idempotency: boolean;
  /** Line items listed, created and deleted (never updated: no PATCH, 404) under a package. */
  lineItemRoutes: boolean;
  /** With `lineItemRoutes`: false answers a line item DELETE 405 too (items are only ever added). */
  lineItemDeletes: boolean;
  mediaRoutes: boolean;
  /** Media file downloads need the bearer token. */
  mediaAuth: boolean;
  /** When false, packages seeded (test side) with a status other than in_transit/received are left out of listings. */
  unknownStatuses: boolean;
  /** Add unknown fields (`foo_extension`, `internal_ref`) to every record. */
  extraFields: boolean;
  /** Top-level record fields omitted from answers. */
  dropFields: string[];
  /** Top-level record fields answered as null. */
  nullFields: string[];
  /** Answer to a valid token used on an account it does not cover. */
  foreignAccount: 401 | 403 | 404;
  latencyMs: number;
  /** Commit the effect, then destroy the socket without answering. */
  loseAnswer: ((req: FakeRequest) => boolean) | null;
  /** Answer this instead (no effect). */
  fault: ((req: FakeRequest) => FakeAnswer | null) | null;
  /** Every request answered `status` with Retry-After until `until` (ms on the fake's clock). */
  outage: { status: number; retryAfterSeconds?: number; until: number } | null;
  rateLimit: { limit: number; windowMs: number; scope: 'token' | 'account' } | null;
  rateLimited: 'all' | 'returns-only';
  maxBodyBytes: number | null;
}

export const DEFAULT_MODES: Readonly<FakeModes> = Object.freeze({
  filters: 'ignored',
  pageCap: 100,
  defaultPerPage: 25,
  order: 'id_asc',
  returnsList: 'paged',
  createStatus: 201,
  patchStatus: 200,
  returnCreateBody: 'record',
  returnTimestamps: false,
  packageRequired: 'none',
  patchFields: 'spec',
  idempotency: false,
  lineItemRoutes: false,
  lineItemDeletes: true,
  mediaRoutes: false,
  mediaAuth: true,
  unknownStatuses: false,
  extraFields: false,
  dropFields: [],
  nullFields: [],
  foreignAccount: 401,
  latencyMs: 0,
  loseAnswer: null,
  fault: null,
  outage: null,
  rateLimit: { limit: 1000, windowMs: 3_600_000, scope: 'account' },
  rateLimited: 'all',
  maxBodyBytes: null,
} satisfies FakeModes);

export interface PackageLineItem {
  id: number;
  return_line_item_id: number | null;
  quantity: number;
  merchant_sku: string | null;
  name: string | null;
  condition: string | null;
  defective: boolean;
  notes: string | null;
  barcode: string | null;
  tags: string[];
}

export interface MediaFileRecord {
  id: number;
  url: string;
  type: string;
  created_at: string;
  /** Bytes served at `url` (test side only, never in an answer). */
  content: Uint8Array;
}

export interface StoredPackage {
  id: number;
  account_id: number;
  return_id: number | null;
  tracking_number: string | null;
  status: string | null;
  estimated_arrival: string | null;
  actual_arrival: string | null;
  shipping_method: string | null;
  weight: number | null;
  weight_unit: string | null;
  length: number | null;
  width: number | null;
  height: number | null;
  dimension_unit: string | null;
  shipping_label_cost: number | null;
  shipping_label_cost_currency: string | null;
  carrier_id: number | null;
  location_id: number | null;
  fulfillment_center_id: number | null;
  line_items: PackageLineItem[];
  media_files: MediaFileRecord[];
  processed_at: string | null;
  processor_id: number | null;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

export interface ReturnLineItem {
  id: number;
  quantity: number;
  unreceived_quantity: number;
  name: string;
  price: number;
  currency: string;
  merchant_sku: string;
}

export interface StoredReturn {
  id: number;
  account_id: number;
  email: string;
  receive_by: string;
  total_price: number;
  currency: string;
  weight: number;
  weight_unit: string;
  reason_of_return: string;
  length: number;
  width: number;
  height: number;
  dimension_unit: string;
  return_line_items: ReturnLineItem[];
  created_at: string;
  updated_at: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The answered status, or 'lost' when the effect was committed and the answer dropped. */
  status: number | 'lost';
  /** Arrival, on the fake's clock. */
  at: number;
  token: string | null;
  account: number | null;
  idempotencyKey: string | null;
  body: string;
}

export type PackageSeed = Partial<Omit<StoredPackage, 'id' | 'account_id' | 'line_items' | 'media_files'>> & {
  line_items?: Array<Partial<Omit<PackageLineItem, 'id'>>>;
  media_files?: Array<Partial<Omit<MediaFileRecord, 'id' | 'url'>> & { url?: string }>;
};

export type ReturnSeed = Partial<Omit<StoredReturn, 'id' | 'account_id' | 'return_line_items'>> & {
  return_line_items?: Array<Partial<Omit<ReturnLineItem, 'id'>>>;
};

export type PackagePatch = Partial<Omit<StoredPackage, 'id' | 'account_id' | 'created_at' | 'updated_at'>>;

export interface FakeReturnsService {
  /** {returns_url} */
  returnsUrl: string;
  /** {base_url} */
  baseUrl: string;
  /** {media_url} */
  mediaUrl: string;
  /** A token valid for every account the fake was started with. */
  defaultToken: string;
  /** Issues a bearer token valid for these accounts (default: every account the fake was started with). */
  token(accountIds?: number[]): string;
  /** Makes a token invalid (answers 401 from then on). */
  revokeToken(token: string): void;
  /** Mutable at run time. */
  modes: FakeModes;
  requests: RecordedRequest[];
  // Test-side data access: no HTTP, no rate limit, no modes.
  seedReturn(account: number, partial?: ReturnSeed): StoredReturn;
  seedPackage(account: number, partial?: PackageSeed): StoredPackage;
  /** Applies the patch and bumps updated_at. */
  updatePackage(account: number, id: number, patch: PackagePatch): StoredPackage;
  /** Copies of the account's packages, id order. */
  packages(account: number): StoredPackage[];
  returns(account: number): StoredReturn[];
  /** The fake's clock (ms). */
  now(): number;
  close(): Promise<void>;
}

export interface FakeOptions {
  modes?: Partial<FakeModes>;
  separateAddresses?: boolean;
  clock?: () => number;
  /** Accounts that exist (default [1]); other account ids answer 404. */
  accounts?: number[];
  /** Listening port (the first listener's when separate); 0 = any. */
  port?: number;
  /** The second listener's port when separate; 0 = any. */
  port2?: number;
  host?: string;
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const KNOWN_STATUSES = new Set(['in_transit', 'received']);
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
// A small JPEG-looking placeholder for media files seeded without content.
const PLACEHOLDER_MEDIA = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

class HttpError extends Error {
  readonly status: number;
  readonly body: JsonObject;
  constructor(status: number, error: string, errorCode: string, message: string, extra: JsonObject = {}) {
    super(message);
    this.status = status;
    this.body = { error, error_code: errorCode, details: { message, ...extra } };
  }
}

const notFound = (message = 'Not found.') => new HttpError(404, 'Not Found', 'NOT_FOUND', message);
const invalidToken = () => new HttpError(401, 'Unauthorized', 'INVALID_TOKEN', 'The access token is invalid or expired.');

class Validation {
  readonly fields: Record<string, string> = {};
  fail(field: string, message: string): void {
    this.fields[field] ??= message;
  }
  throwIfAny(): void {
    if (Object.keys(this.fields).length > 0) {
      throw new HttpError(422, 'Unprocessable Entity', 'VALIDATION_FAILED', 'The request body is invalid.', { fields: this.fields });
    }
  }
}

type FieldType = 'string' | 'number' | 'integer' | 'int32' | 'timestamp' | 'date' | 'boolean';

function checkType(value: unknown, type: FieldType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'int32':
      return typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));
    case 'timestamp':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const RETURN_FIELD_TYPES: Record<string, FieldType> = {
  email: 'string',
  receive_by: 'date',
  total_price: 'number',
  currency: 'string',
  weight: 'int32',
  weight_unit: 'string',
  reason_of_return: 'string',
  length: 'int32',
  width: 'int32',
  height: 'int32',
  dimension_unit: 'string',
};

const RETURN_LINE_TYPES: Record<string, FieldType> = {
  quantity: 'int32',
  unreceived_quantity: 'int32',
  name: 'string',
  price: 'number',
  currency: 'string',
  merchant_sku: 'string',
};

/** The flat create body of a return package (spec, POST return_packages). */
const PACKAGE_BODY_TYPES: Record<string, FieldType> = {
  return_id: 'integer',
  tracking_number: 'string',
  estimated_arrival: 'timestamp',
  shipping_method: 'string',
  weight: 'number',
  weight_unit: 'string',
  width: 'number',
  height: 'number',
  length: 'number',
  dimension_unit: 'string',
  shipping_label_cost: 'number',
  shipping_label_cost_currency: 'string',
  carrier_id: 'integer',
  location_id: 'integer',
  status: 'string',
};

const PATCH_SPEC_TYPES: Record<string, FieldType> = { status: 'string', actual_arrival: 'timestamp', notes: 'string' };

const LINE_ITEM_TYPES: Record<string, FieldType> = {
  return_line_item_id: 'integer',
  quantity: 'integer',
  merchant_sku: 'string',
  name: 'string',
  condition: 'string',
  defective: 'boolean',
  notes: 'string',
  barcode: 'string',
};

const PACKAGE_SORTS = new Set(['id', '-id', 'created_at', '-created_at', 'updated_at', '-updated_at']);

function json(value: unknown): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

// ---------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------

interface Route {
  kind: 'returns' | 'packages' | 'account-returns' | 'media';
  account: number | null;
  rest: string[];
}

interface Outcome {
  status: number;
  headers: Record<string, string>;
  /** undefined: no body. */
  body: Json | Uint8Array | undefined;
}

export async function startFakeReturnsService(options: FakeOptions = {}): Promise<FakeReturnsService> {
  const clock = options.clock ?? Date.now;
  const accounts = new Set(options.accounts ?? [1]);
  const modes: FakeModes = { ...DEFAULT_MODES, ...options.modes };
  const tokens = new Map<string, number[]>();
  const packages = new Map<number, StoredPackage>();
  /** Seeded packages in an unknown status, hidden from listings unless modes.unknownStatuses. */
  const seededUnknown = new Set<number>();
  const returns = new Map<number, StoredReturn>();
  const idempotent = new Map<string, { fingerprint: string; outcome: Outcome }>();
  const windows = new Map<string, { start: number; count: number }>();
  const ids = { package: 0, ret: 0, returnLine: 0, packageLine: 0, media: 0 };
  const sockets = new Set<Socket>();
  const servers: Server[] = [];

  const separate = options.separateAddresses ?? false;
  const prefixes = separate ? { returns: '/manual', base: '/api-base', media: '/media-files' } : { returns: '/manual', base: '/api', media: '/media' };

  /** A timestamp that differs from `previous` (updated_at changes on every update, even within one ms). */
  const stamp = (previous?: string): string => {
    let at = clock();
    if (previous !== undefined) at = Math.max(at, Date.parse(previous) + 1);
    return new Date(at).toISOString();
  };

  const issueToken = (accountIds: number[] = [...accounts]): string => {
    const token = `fake_${randomBytes(18).toString('base64url')}`;
    tokens.set(token, [...accountIds]);
    return token;
  };

  // ---- records ------------------------------------------------------------------------------

  const mediaRecord = (seed: Partial<Omit<MediaFileRecord, 'id' | 'url'>> & { url?: string }): MediaFileRecord => {
    const id = ++ids.media;
    const type = seed.type ?? 'image';
    return {
      id,
      url: seed.url ?? `${service.mediaUrl}/${id}.${type === 'image' || type.startsWith('image/') ? 'jpg' : 'bin'}`,
      type,
      created_at: seed.created_at ?? stamp(),
      content: seed.content ?? PLACEHOLDER_MEDIA,
    };
  };

  const lineItemRecord = (seed: Partial<Omit<PackageLineItem, 'id'>>): PackageLineItem => ({
    id: ++ids.packageLine,
    return_line_item_id: seed.return_line_item_id ?? null,
    quantity: seed.quantity ?? 1,
    merchant_sku: seed.merchant_sku ?? null,
    name: seed.name ?? null,
    condition: seed.condition ?? null,
    defective: seed.defective ?? false,
    notes: seed.notes ?? null,
    barcode: seed.barcode ?? null,
    tags: seed.tags ?? [],
  });

  const newPackage = (account: number, seed: PackageSeed): StoredPackage => {
    const created = seed.created_at ?? stamp();
    const record: StoredPackage = {
      id: ++ids.package,
      account_id: account,
      return_id: seed.return_id ?? null,
      tracking_number: seed.tracking_number ?? null,
      status: seed.status ?? null,
      estimated_arrival: seed.estimated_arrival ?? null,
      actual_arrival: seed.actual_arrival ?? null,
      shipping_method: seed.shipping_method ?? null,
      weight: seed.weight ?? null,
      weight_unit: seed.weight_unit ?? null,
      length: seed.length ?? null,
      width: seed.width ?? null,
      height: seed.height ?? null,
      dimension_unit: seed.dimension_unit ?? null,
      shipping_label_cost: seed.shipping_label_cost ?? null,
      shipping_label_cost_currency: seed.shipping_label_cost_currency ?? null,
      carrier_id: seed.carrier_id ?? null,
      location_id: seed.location_id ?? null,
      fulfillment_center_id: seed.fulfillment_center_id ?? null,
      line_items: (seed.line_items ?? []).map(lineItemRecord),
      media_files: [],
      processed_at: seed.processed_at ?? null,
      processor_id: seed.processor_id ?? null,
      notes: seed.notes ?? null,
      created_at: created,
      updated_at: seed.updated_at ?? created,
    };
    packages.set(record.id, record);
    record.media_files = (seed.media_files ?? []).map(mediaRecord);
    return record;
  };

  const newReturn = (account: number, seed: ReturnSeed): StoredReturn => {
    const created = seed.created_at ?? stamp();
    const record: StoredReturn = {
      id: ++ids.ret,
      account_id: account,
      email: seed.email ?? 'customer@example.com',
      receive_by: seed.receive_by ?? '2026-12-31',
      total_price: seed.total_price ?? 10,
      currency: seed.currency ?? 'EUR',
      weight: seed.weight ?? 500,
      weight_unit: seed.weight_unit ?? 'g',
      reason_of_return: seed.reason_of_return ?? 'Does not fit',
      length: seed.length ?? 30,
      width: seed.width ?? 20,
      height: seed.height ?? 10,
      dimension_unit: seed.dimension_unit ?? 'cm',
      return_line_items: (seed.return_line_items ?? [{}]).map((line) => ({
        id: ++ids.returnLine,
        quantity: line.quantity ?? 1,
        unreceived_quantity: line.unreceived_quantity ?? line.quantity ?? 1,
        name: line.name ?? 'Item',
        price: line.price ?? 10,
        currency: line.currency ?? 'EUR',
        merchant_sku: line.merchant_sku ?? `SKU-${ids.returnLine}`,
      })),
      created_at: created,
      updated_at: seed.updated_at ?? created,
    };
    returns.set(record.id, record);
    return record;
  };

  const packageOf = (account: number, id: number): StoredPackage => {
    const record = packages.get(id);
    if (!record || record.account_id !== account) throw notFound(`Return package ${id} not found.`);
    return record;
  };

  // ---- views (spec presence table) -----------------------------------------------------------

  const finish = (record: JsonObject, extraRef: string): JsonObject => {
    const out: JsonObject = Object.fromEntries(Object.entries(record).filter(([field]) => !modes.dropFields.includes(field)));
    for (const field of modes.nullFields) if (field in out) out[field] = null;
    if (modes.extraFields) {
      out.foo_extension = { version: 2, flags: ['beta'], nested: { ok: true } };
      out.internal_ref = `${extraRef}`;
    }
    return out;
  };

  const dimensions = (p: StoredPackage): Json => ({ length: p.length, width: p.width, height: p.height, dimension_unit: p.dimension_unit });

  const lineItemView = (item: PackageLineItem): JsonObject => {
    const out = json(item) as JsonObject;
    if (modes.extraFields) out.internal_ref = `pli-${item.id}`;
    return out;
  };

  const mediaView = (media: MediaFileRecord): JsonObject => {
    const out: JsonObject = { id: media.id, url: media.url, type: media.type, created_at: media.created_at };
    if (modes.extraFields) out.internal_ref = `mf-${media.id}`;
    return out;
  };

  const packageView = (p: StoredPackage, view: 'L' | 'C' | 'G' | 'U'): JsonObject => {
    const out: JsonObject = {
      id: p.id,
      return_id: p.return_id,
      tracking_number: p.tracking_number,
      status: p.status,
      estimated_arrival: p.estimated_arrival,
    };
    if (view === 'G' || view === 'U') out.actual_arrival = p.actual_arrival;
    if (view !== 'L') out.shipping_method = p.shipping_method;
    out.weight = p.weight;
    out.weight_unit = p.weight_unit;
    out.dimensions = dimensions(p);
    if (view !== 'L') {
      out.shipping_label_cost = p.shipping_label_cost;
      out.shipping_label_cost_currency = p.shipping_label_cost_currency;
      out.carrier_id = p.carrier_id;
    }
    if (view === 'L') {
      out.carrier = p.carrier_id === null ? null : { id: p.carrier_id, name: `Carrier ${p.carrier_id}`, service: p.shipping_method ?? 'standard' };
    }
    if (view === 'G') {
      out.carrier = p.carrier_id === null ? null : { id: p.carrier_id, name: `Carrier ${p.carrier_id}`, code: `carrier-${p.carrier_id}` };
    }
    out.location_id = p.location_id;
    if (view === 'L' || view === 'G') out.fulfillment_center_id = p.fulfillment_center_id;
    if (view === 'L') out.line_items_count = p.line_items.length;
    if (view === 'G') {
      out.line_items = p.line_items.map(lineItemView);
      out.media_files = p.media_files.map(mediaView);
      out.processed_at = p.processed_at;
      out.processor_id = p.processor_id;
    }
    if (view === 'U') out.notes = p.notes;
    out.created_at = p.created_at;
    out.updated_at = p.updated_at;
    return finish(out, `pkg-${p.id}`);
  };

  const returnView = (r: StoredReturn): JsonObject => {
    const out: JsonObject = {
      id: r.id,
      email: r.email,
      receive_by: r.receive_by,
      total_price: r.total_price,
      currency: r.currency,
      weight: r.weight,
      weight_unit: r.weight_unit,
      reason_of_return: r.reason_of_return,
      length: r.length,
      width: r.width,
      height: r.height,
      dimension_unit: r.dimension_unit,
      return_line_items: r.return_line_items.map((line) => {
        const item: JsonObject = { ...line };
        if (modes.extraFields) item.internal_ref = `rli-${line.id}`;
        return item;
      }),
    };
    if (modes.returnTimestamps) {
      out.created_at = r.created_at;
      out.updated_at = r.updated_at;
    }
    return finish(out, `ret-${r.id}`);
  };

  // ---- listing ------------------------------------------------------------------------------

  const paginate = <T>(items: T[], query: Record<string, string>, view: (item: T) => JsonObject): JsonObject => {
    const requested = query.per_page === undefined ? modes.defaultPerPage : Number.parseInt(query.per_page, 10);
    const perPage = Math.min(modes.pageCap, Number.isFinite(requested) && requested >= 1 ? requested : modes.defaultPerPage);
    const pageParsed = query.page === undefined ? 1 : Number.parseInt(query.page, 10);
    const page = Number.isFinite(pageParsed) && pageParsed >= 1 ? pageParsed : 1;
    const slice = items.slice((page - 1) * perPage, page * perPage);
    return {
      data: slice.map(view),
      meta: { current_page: page, total_pages: Math.ceil(items.length / perPage), total_count: items.length, per_page: perPage },
    };
  };

  const sortBy = <T extends { id: number; created_at: string; updated_at: string }>(items: T[], query: Record<string, string>): T[] => {
    let key: 'id' | 'created_at' | 'updated_at' = 'id';
    let descending = modes.order === 'id_desc';
    if (modes.filters === 'honoured' && query.sort !== undefined) {
      if (!PACKAGE_SORTS.has(query.sort)) {
        throw new HttpError(422, 'Unprocessable Entity', 'VALIDATION_FAILED', `Unknown sort '${query.sort}'.`, { fields: { sort: 'unknown sort' } });
      }
      descending = query.sort.startsWith('-');
      key = query.sort.replace(/^-/, '') as typeof key;
    }
    const sign = descending ? -1 : 1;
    return [...items].sort((a, b) => {
      const primary = key === 'id' ? a.id - b.id : Date.parse(a[key]) - Date.parse(b[key]);
      return sign * (primary !== 0 ? primary : a.id - b.id);
    });
  };

  const updatedSince = (query: Record<string, string>): number | null => {
    if (modes.filters !== 'honoured' || query.updated_since === undefined) return null;
    const at = Date.parse(query.updated_since);
    if (Number.isNaN(at)) {
      throw new HttpError(422, 'Unprocessable Entity', 'VALIDATION_FAILED', 'updated_since is not a timestamp.', {
        fields: { updated_since: 'not a timestamp' },
      });
    }
    return at;
  };

  const listPackages = (account: number, query: Record<string, string>): JsonObject => {
    let items = [...packages.values()].filter((p) => p.account_id === account && (modes.unknownStatuses || !seededUnknown.has(p.id)));
    if (modes.filters === 'honoured') {
      const since = updatedSince(query);
      if (since !== null) items = items.filter((p) => Date.parse(p.updated_at) >= since);
      if (query.status !== undefined) {
        const wanted = new Set(
          query.status
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== ''),
        );
        items = items.filter((p) => p.status !== null && wanted.has(p.status));
      }
      if (query.tracking_number !== undefined) {
        const wanted = query.tracking_number.toLowerCase();
        items = items.filter((p) => p.tracking_number?.toLowerCase() === wanted);
      }
      if (query.return_id !== undefined) items = items.filter((p) => String(p.return_id) === query.return_id);
    }
    return paginate(sortBy(items, query), query, (p) => packageView(p, 'L'));
  };

  const listReturns = (accountIds: number[], query: Record<string, string>): Json => {
    let items = [...returns.values()].filter((r) => accountIds.includes(r.account_id));
    if (modes.filters === 'honoured') {
      const since = updatedSince(query);
      if (since !== null) items = items.filter((r) => Date.parse(r.updated_at) >= since);
      if (query.email !== undefined) {
        const wanted = query.email.toLowerCase();
        items = items.filter((r) => r.email.toLowerCase() === wanted);
      }
    }
    const sorted = sortBy(items, query);
    if (modes.returnsList === 'array') return sorted.map(returnView);
    return paginate(sorted, query, returnView);
  };

  // ---- writes -------------------------------------------------------------------------------

  const createReturn = (account: number, body: unknown): StoredReturn => {
    const v = new Validation();
    if (!isObject(body)) throw new HttpError(422, 'Unprocessable Entity', 'VALIDATION_FAILED', 'The body must be a JSON object.');
    for (const [field, type] of Object.entries(RETURN_FIELD_TYPES)) {
      if (body[field] === undefined || body[field] === null) v.fail(field, 'is required');
      else if (!checkType(body[field], type)) v.fail(field, `must be ${type}`);
    }
    const lines = body.return_line_items;
    if (!Array.isArray(lines)) v.fail('return_line_items', 'is required (array)');
    else {
      lines.forEach((line: unknown, index) => {
        if (!isObject(line)) return v.fail(`return_line_items[${index}]`, 'must be an object');
        for (const [field, type] of Object.entries(RETURN_LINE_TYPES)) {
          if (line[field] === undefined || line[field] === null) v.fail(`return_line_items[${index}].${field}`, 'is required');
          else if (!checkType(line[field], type)) v.fail(`return_line_items[${index}].${field}`, `must be ${type}`);
        }
      });
    }
    v.throwIfAny();
    // Only the request's own fields: ids and times are the service's.
    const seed: Record<string, unknown> = {};
    for (const field of Object.keys(RETURN_FIELD_TYPES)) seed[field] = body[field];
    seed.return_line_items = (lines as Array<Record<string, unknown>>).map((line) => {
      const item: Record<string, unknown> = {};
      for (const field of Object.keys(RETURN_LINE_TYPES)) item[field] = line[field];
      return item;
    });
    return newReturn(account, seed as ReturnSeed);
  };

  const validatePackageBody = (body: unknown, types: Record<string, FieldType>, required: string[]): Record<string, unknown> => {
    if (!isObject(body)) throw new HttpError(422, 'Unprocessable Entity', 'VALIDATION_FAILED', 'The body must be a JSON object.');
    const v = new Validation();
    for (const field of required) if (body[field] === undefined || body[field] === null) v.fail(field, 'is required');
    for (const [field, type] of Object.entries(types)) {
      const value = body[field];
      if (value !== undefined && value !== null && !checkType(value, type)) v.fail(field, `must be ${type}`);
    }
    v.throwIfAny();
    return body;
  };

  const createPackage = (account: number, body: unknown): StoredPackage => {
    const required = modes.packageRequired === 'all' ? Object.keys(PACKAGE_BODY_TYPES) : modes.packageRequired === 'none' ? [] : modes.packageRequired;
    const valid = validatePackageBody(body, PACKAGE_BODY_TYPES, required);
    const seed: PackageSeed = {};
    for (const field of Object.keys(PACKAGE_BODY_TYPES)) {
      if (valid[field] !== undefined) (seed as Record<string, unknown>)[field] = valid[field];
    }
    return newPackage(account, seed);
  };

  const patchPackage = (record: StoredPackage, body: unknown): void => {
    const types = modes.patchFields === 'all' ? { ...PACKAGE_BODY_TYPES, ...PATCH_SPEC_TYPES } : PATCH_SPEC_TYPES;
    const valid = validatePackageBody(body, types, []);
    const target = record as unknown as Record<string, unknown>;
    for (const field of Object.keys(types)) if (valid[field] !== undefined) target[field] = valid[field];
    seededUnknown.delete(record.id);
    record.updated_at = stamp(record.updated_at);
  };

  // ---- routing ------------------------------------------------------------------------------

  /** Which family a path belongs to, on the listener it arrived at. */
  const route = (listener: 'one' | 'manual' | 'base', path: string): Route | null => {
    const under = (prefix: string) =>
      path === prefix || path.startsWith(`${prefix}/`)
        ? path
            .slice(prefix.length)
            .split('/')
            .filter((s) => s !== '')
        : null;
    if (listener !== 'base') {
      const rest = under(prefixes.returns);
      if (rest && rest[0] === 'returns') return { kind: 'returns', account: null, rest: rest.slice(1) };
    }
    if (listener !== 'manual') {
      const media = under(prefixes.media);
      if (media) return { kind: 'media', account: null, rest: media };
      const rest = under(prefixes.base);
      if (rest && rest[0] === 'v1' && rest[1] === 'accounts' && rest[2] !== undefined && /^\d+$/.test(rest[2])) {
        const account = Number(rest[2]);
        if (rest[3] === 'return_packages') return { kind: 'packages', account, rest: rest.slice(4) };
        if (rest[3] === 'returns') return { kind: 'account-returns', account, rest: rest.slice(4) };
      }
    }
    return null;
  };

  const ok = (status: number, body: Json | undefined, headers: Record<string, string> = {}): Outcome => ({ status, headers, body });

  const parseBody = (raw: string): unknown => {
    if (raw.trim() === '') return undefined;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      throw new HttpError(400, 'Bad Request', 'INVALID_JSON', 'The body is not valid JSON.');
    }
  };

  const handleRoute = (r: Route, method: string, req: FakeRequest, tokenAccounts: number[], rawBody: Buffer, contentType: string): Outcome => {
    if (r.kind === 'media') {
      if (method !== 'GET' || r.rest.length !== 1) throw notFound();
      const url = `${service.mediaUrl}/${r.rest[0]}`;
      for (const p of packages.values()) {
        if (!tokenAccounts.includes(p.account_id) && modes.mediaAuth) continue;
        const media = p.media_files.find((m) => m.url === url);
        if (media) return { status: 200, headers: { 'content-type': media.type.includes('/') ? media.type : 'image/jpeg' }, body: media.content };
      }
      throw notFound('Media file not found.');
    }
    if (r.kind === 'returns') {
      if (r.rest.length !== 0) throw notFound();
      if (method === 'POST') {
        const created = createReturn(tokenAccounts[0] ?? 0, parseBody(req.body));
        return modes.returnCreateBody === 'record' ? ok(200, returnView(created)) : ok(200, undefined);
      }
      if (method === 'GET') return ok(200, listReturns(tokenAccounts, req.query));
      throw notFound();
    }
    const account = r.account ?? 0;
    if (r.kind === 'account-returns') {
      if (r.rest.length !== 0 || method !== 'GET') throw notFound();
      return ok(200, listReturns([account], req.query));
    }
    // return_packages
    const [idPart, sub, subId, ...tooMany] = r.rest;
    if (idPart === undefined) {
      if (method === 'GET') return ok(200, listPackages(account, req.query));
      if (method === 'POST') return ok(modes.createStatus, packageView(createPackage(account, parseBody(req.body)), 'C'));
      throw notFound();
    }
    if (!/^\d+$/.test(idPart) || tooMany.length > 0) throw notFound();
    const record = packageOf(account, Number(idPart));
    if (sub === undefined) {
      if (method === 'GET') return ok(200, packageView(record, 'G'));
      if (method === 'PATCH') {
        patchPackage(record, parseBody(req.body));
        return modes.patchStatus === 204 ? ok(204, undefined) : ok(200, packageView(record, 'U'));
      }
      throw notFound();
    }
    if (sub === 'line_items' && modes.lineItemRoutes) {
      if (subId === undefined && method === 'GET') return ok(200, record.line_items.map(lineItemView));
      if (subId === undefined && method === 'POST') {
        const body = validatePackageBody(parseBody(req.body), LINE_ITEM_TYPES, ['quantity']);
        if (body.tags !== undefined && !(Array.isArray(body.tags) && body.tags.every((t) => typeof t === 'string'))) {
          throw new HttpError(422, 'Unprocessable Entity', 'VALIDATION_FAILED', 'tags must be an array of strings.', {
            fields: { tags: 'must be array of string' },
          });
        }
        const item = lineItemRecord(body as Partial<PackageLineItem>);
        record.line_items.push(item);
        record.updated_at = stamp(record.updated_at);
        return ok(modes.createStatus, lineItemView(item));
      }
      if (subId !== undefined && method === 'DELETE') {
        if (!modes.lineItemDeletes) throw new HttpError(405, 'Method Not Allowed', 'METHOD_NOT_ALLOWED', 'Line items cannot be deleted.');
        const index = record.line_items.findIndex((i) => String(i.id) === subId);
        if (index < 0) throw notFound('Line item not found.');
        record.line_items.splice(index, 1);
        record.updated_at = stamp(record.updated_at);
        return ok(204, undefined);
      }
      throw notFound();
    }
    if (sub === 'media_files' && modes.mediaRoutes) {
      if (subId === undefined && method === 'GET') return ok(200, record.media_files.map(mediaView));
      if (subId === undefined && method === 'POST') {
        let media: MediaFileRecord;
        if (contentType.startsWith('application/json')) {
          const body = parseBody(req.body);
          if (!isObject(body) || typeof body.type !== 'string') {
            throw new HttpError(422, 'Unprocessable Entity', 'VALIDATION_FAILED', 'type is required.', { fields: { type: 'is required' } });
          }
          const content = typeof body.data_base64 === 'string' ? Uint8Array.from(Buffer.from(body.data_base64, 'base64')) : undefined;
          media = mediaRecord({ type: body.type, ...(content ? { content } : {}) });
        } else {
          media = mediaRecord({ type: contentType || 'application/octet-stream', content: Uint8Array.from(rawBody) });
        }
        record.media_files.push(media);
        record.updated_at = stamp(record.updated_at);
        return ok(modes.createStatus, mediaView(media));
      }
      if (subId !== undefined && method === 'DELETE') {
        const index = record.media_files.findIndex((m) => String(m.id) === subId);
        if (index < 0) throw notFound('Media file not found.');
        record.media_files.splice(index, 1);
        record.updated_at = stamp(record.updated_at);
        return ok(204, undefined);
      }
      throw notFound();
    }
    throw notFound();
  };

  // ---- HTTP ---------------------------------------------------------------------------------

  const send = (res: ServerResponse, outcome: Outcome) => {
    const headers: Record<string, string> = { ...outcome.headers };
    let payload: Uint8Array | string | undefined;
    if (outcome.body instanceof Uint8Array) payload = outcome.body;
    else if (outcome.body !== undefined) {
      payload = JSON.stringify(outcome.body);
      headers['content-type'] ??= 'application/json';
    }
    res.writeHead(outcome.status, headers);
    res.end(payload);
  };

  const errorOutcome = (error: HttpError, headers: Record<string, string> = {}): Outcome => ({ status: error.status, headers, body: error.body });

  const handle = async (listener: 'one' | 'manual' | 'base', req: IncomingMessage, res: ServerResponse) => {
    const at = clock();
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const method = req.method ?? 'GET';
    const query: Record<string, string> = {};
    for (const [key, value] of url.searchParams) query[key] ??= value;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks);
    const authorization = req.headers.authorization;
    const bearer = typeof authorization === 'string' ? (/^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? null) : null;
    const idempotencyKey = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
    const r = route(listener, url.pathname);
    const fakeRequest: FakeRequest = { method, path: url.pathname, query, body: rawBody.toString('utf8'), token: bearer, account: r?.account ?? null };
    const record = (status: RecordedRequest['status']) =>
      service.requests.push({
        method,
        path: url.pathname,
        query,
        status,
        at,
        token: bearer,
        account: fakeRequest.account,
        idempotencyKey,
        body: fakeRequest.body,
      });
    const answer = (outcome: Outcome) => {
      record(outcome.status);
      send(res, outcome);
    };

    if (modes.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, modes.latencyMs));

    const outage = modes.outage;
    // eslint-disable-next-line no-restricted-properties -- the outage's end, not Dexie's until()
    const outageEnd = outage?.until ?? 0;
    if (outage && clock() < outageEnd) {
      const retryAfter = outage.retryAfterSeconds ?? Math.max(1, Math.ceil((outageEnd - clock()) / 1000));
      return answer({
        status: outage.status,
        headers: { 'retry-after': String(retryAfter) },
        body: { error: 'Service Unavailable', error_code: 'UNAVAILABLE', details: { message: 'The service is unavailable.' } },
      });
    }

    // Authentication: every request, media files too unless mediaAuth is off.
    const tokenAccounts = bearer === null ? undefined : tokens.get(bearer);
    const needsAuth = r?.kind !== 'media' || modes.mediaAuth;
    if (needsAuth && tokenAccounts === undefined) return answer(errorOutcome(invalidToken()));
    const allowed = tokenAccounts ?? [];
    if (r?.account !== null && r?.account !== undefined) {
      if (!allowed.includes(r.account)) {
        if (modes.foreignAccount === 401) return answer(errorOutcome(invalidToken()));
        if (modes.foreignAccount === 403) return answer(errorOutcome(new HttpError(403, 'Forbidden', 'FORBIDDEN', 'The token has no access to this account.')));
        return answer(errorOutcome(notFound('Account not found.')));
      }
      if (!accounts.has(r.account)) return answer(errorOutcome(notFound('Account not found.')));
    }

    // Rate limit, in fixed windows on the fake's clock.
    let limitHeaders: Record<string, string> = {};
    const limit = modes.rateLimit;
    const counted = modes.rateLimited === 'all' || r?.kind === 'returns' || r?.kind === 'account-returns';
    if (limit && counted && bearer !== null) {
      const scopeKey = limit.scope === 'token' ? `token:${bearer ?? ''}` : `account:${r?.account ?? allowed[0] ?? 'none'}`;
      const now = clock();
      let window = windows.get(scopeKey);
      if (!window || now - window.start >= limit.windowMs) {
        window = { start: now, count: 0 };
        windows.set(scopeKey, window);
      }
      window.count += 1;
      const reset = Math.max(0, Math.ceil((window.start + limit.windowMs - now) / 1000));
      limitHeaders = {
        'x-ratelimit-limit': String(limit.limit),
        'x-ratelimit-remaining': String(Math.max(0, limit.limit - window.count)),
        'x-ratelimit-reset': String(reset),
      };
      if (window.count > limit.limit) {
        return answer({
          status: 429,
          headers: { ...limitHeaders, 'retry-after': String(Math.max(1, reset)) },
          body: { error: 'Too Many Requests', error_code: 'RATE_LIMITED', details: { message: 'Rate limit exceeded.' } },
        });
      }
    }

    const fault = modes.fault?.(fakeRequest) ?? null;
    if (fault) {
      return answer({
        status: fault.status,
        headers: { ...limitHeaders, ...fault.headers },
        body: fault.body === undefined ? { error: 'Injected', error_code: 'INJECTED', details: { message: `Injected ${fault.status}.` } } : json(fault.body),
      });
    }

    if (modes.maxBodyBytes !== null && rawBody.length > modes.maxBodyBytes) {
      return answer(errorOutcome(new HttpError(413, 'Payload Too Large', 'PAYLOAD_TOO_LARGE', 'The request body is too large.'), limitHeaders));
    }

    let outcome: Outcome;
    const replayKey = modes.idempotency && idempotencyKey !== null && method !== 'GET' ? `${bearer ?? ''}\u0000${idempotencyKey}` : null;
    const fingerprint = `${method} ${url.pathname}\u0000${fakeRequest.body}`;
    const earlier = replayKey === null ? undefined : idempotent.get(replayKey);
    if (earlier && earlier.fingerprint !== fingerprint) {
      outcome = errorOutcome(new HttpError(422, 'Unprocessable Entity', 'IDEMPOTENCY_KEY_REUSED', 'The Idempotency-Key was used with another request.'));
    } else if (earlier) {
      outcome = clone(earlier.outcome);
    } else {
      try {
        if (!r) throw notFound(`No route for ${method} ${url.pathname}.`);
        outcome = handleRoute(r, method, fakeRequest, allowed, rawBody, String(req.headers['content-type'] ?? ''));
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        outcome = errorOutcome(error);
      }
      if (replayKey !== null) idempotent.set(replayKey, { fingerprint, outcome: clone(outcome) });
    }
    outcome.headers = { ...limitHeaders, ...outcome.headers };

    if (modes.loseAnswer?.(fakeRequest)) {
      // The effect is committed; the client never hears of it.
      record('lost');
      req.socket.destroy();
      return;
    }
    answer(outcome);
  };

  const listen = async (listener: 'one' | 'manual' | 'base', port: number): Promise<string> => {
    const server = createServer((req, res) => {
      handle(listener, req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'Internal Server Error', error_code: 'INTERNAL', details: { message: 'The fake failed.' } }));
      });
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    servers.push(server);
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return `http://${host}:${(server.address() as AddressInfo).port}`;
  };

  const service: FakeReturnsService = {
    returnsUrl: '',
    baseUrl: '',
    mediaUrl: '',
    defaultToken: '',
    token: issueToken,
    revokeToken: (token) => void tokens.delete(token),
    modes,
    requests: [],
    seedReturn: (account, partial = {}) => clone(newReturn(account, partial)),
    seedPackage: (account, partial = {}) => {
      const record = newPackage(account, partial);
      if (record.status !== null && !KNOWN_STATUSES.has(record.status)) seededUnknown.add(record.id);
      return clone(record);
    },
    updatePackage: (account, id, patch) => {
      const record = packages.get(id);
      if (!record || record.account_id !== account) throw new Error(`No package ${id} in account ${account}`);
      const { line_items: lineItems, media_files: mediaFiles, ...rest } = patch;
      Object.assign(record, rest);
      if (lineItems) record.line_items = lineItems.map((item) => ({ ...item }));
      if (mediaFiles) record.media_files = mediaFiles.map((item) => ({ ...item }));
      if (record.status !== null && !KNOWN_STATUSES.has(record.status)) seededUnknown.add(record.id);
      else seededUnknown.delete(record.id);
      record.updated_at = stamp(record.updated_at);
      return clone(record);
    },
    packages: (account) => [...packages.values()].filter((p) => p.account_id === account).map(clone),
    returns: (account) => [...returns.values()].filter((r) => r.account_id === account).map(clone),
    now: () => clock(),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))).then(() => undefined);
    },
  };

  if (separate) {
    const manualOrigin = await listen('manual', options.port ?? 0);
    const baseOrigin = await listen('base', options.port2 ?? 0);
    service.returnsUrl = `${manualOrigin}${prefixes.returns}`;
    service.baseUrl = `${baseOrigin}${prefixes.base}`;
    service.mediaUrl = `${baseOrigin}${prefixes.media}`;
  } else {
    const origin = await listen('one', options.port ?? 0);
    service.returnsUrl = `${origin}${prefixes.returns}`;
    service.baseUrl = `${origin}${prefixes.base}`;
    service.mediaUrl = `${origin}${prefixes.media}`;
  }
  service.defaultToken = issueToken();
  return service;
}

// ---------------------------------------------------------------------------------------------
// Launcher: node test/sync/fake-returns-service.ts --port P [--separate] [--accounts 1,2] [--mode key=value ...]
// ---------------------------------------------------------------------------------------------

/** A --mode value: JSON where it parses (numbers, booleans, null, objects), a comma list for list modes, else the string. */
export function parseModeValue(key: string, value: string): unknown {
  if (key === 'dropFields' || key === 'nullFields') return value === '' ? [] : value.split(',');
  if (key === 'packageRequired' && value !== 'all' && value !== 'none') return value.split(',');
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

async function main(argv: string[]): Promise<void> {
  const modes: Record<string, unknown> = {};
  let port = 0;
  let separate = false;
  let accounts = [1];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--port') port = Number(argv[++i]);
    else if (arg === '--separate') separate = true;
    else if (arg === '--accounts') accounts = String(argv[++i]).split(',').map(Number);
    else if (arg === '--mode') {
      const pair = String(argv[++i]);
      const eq = pair.indexOf('=');
      if (eq < 1) throw new Error(`--mode wants key=value, got '${pair}'`);
      const key = pair.slice(0, eq);
      if (!(key in DEFAULT_MODES)) throw new Error(`Unknown mode '${key}'. Modes: ${Object.keys(DEFAULT_MODES).join(', ')}`);
      modes[key] = parseModeValue(key, pair.slice(eq + 1));
    } else {
      throw new Error(`Unknown argument '${arg}'. Usage: --port P [--separate] [--accounts 1,2] [--mode key=value ...]`);
    }
  }
  const fake = await startFakeReturnsService({
    modes: modes as Partial<FakeModes>,
    separateAddresses: separate,
    accounts,
    port,
    port2: separate && port !== 0 ? port + 1 : 0,
  });
  process.stdout.write(
    `Fake returns service (written from the spec alone)\nreturns_url: ${fake.returnsUrl}\nbase_url: ${fake.baseUrl}\nmedia_url: ${fake.mediaUrl}\naccounts: ${accounts.join(',')}\ntoken: ${fake.defaultToken}\n`,
  );
  const stop = () => void fake.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
