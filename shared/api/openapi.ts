import { TokenCreatedSchema, TokenListResponseSchema, TokenSchema } from './tokens.ts';
import { z } from 'zod';
import { DockDaySchema } from './dock-day.ts';
import { HealthSchema } from '../health.ts';
import { CurrencySchema, IDEMPOTENCY_KEY_PATTERN, ListMetaSchema } from './common.ts';
import { ERROR_CODES, ErrorBodySchema, errorBody, type ErrorCode } from './errors.ts';
import { PackageLineItemCreateSchema, PackageLineItemSchema, PackageLineItemUpdateSchema } from './line-items.ts';
import { MEDIA_TYPE_NAMES, MEDIA_TYPES, MediaFileSchema, MULTIPART_FIELD_BYTES, MULTIPART_FIELDS_MAX } from './media.ts';
import {
  DimensionsSchema,
  GetCarrierSchema,
  ListCarrierSchema,
  ReturnPackageCreateSchema,
  ReturnPackageCreatedSchema,
  ReturnPackageListItemSchema,
  ReturnPackageListResponseSchema,
  ReturnPackageSchema,
  ReturnPackageUpdateSchema,
  ReturnPackageUpdatedSchema,
} from './return-packages.ts';
import { ManualReturnCreateSchema, ReturnLineItemCreateSchema, ReturnLineItemSchema, ReturnListResponseSchema, ReturnRecordSchema } from './returns.ts';
import { API_ROUTES, COMMON_ERROR_CODES, type RouteDefinition } from './routes.ts';
import {
  CarrierListResponseSchema,
  CarrierSchema,
  LocationListResponseSchema,
  LocationSchema,
  LookupResponseSchema,
  OperatorCreateSchema,
  OperatorListResponseSchema,
  OperatorSchema,
  OperatorUpdateSchema,
  StationStatusSchema,
  SyncStatusSchema,
} from './station.ts';
import { EVENT_NAMES } from './events.ts';

/*
 * The OpenAPI 3.1 document of the station API, generated from the same zod schemas that validate
 * requests. Schemas are JSON Schema draft 2020-12 (the dialect of OpenAPI 3.1): request bodies in
 * their input form (defaults shown, strict objects → additionalProperties false), responses in
 * their output form.
 */

type JsonObject = Record<string, unknown>;

/** Named request schemas (components.schemas), converted with io "input". */
const REQUEST_COMPONENTS: Record<string, z.ZodType> = {
  Currency: CurrencySchema,
  ManualReturnCreate: ManualReturnCreateSchema,
  ReturnLineItemCreate: ReturnLineItemCreateSchema,
  ReturnPackageCreate: ReturnPackageCreateSchema,
  ReturnPackageUpdate: ReturnPackageUpdateSchema,
  PackageLineItemCreate: PackageLineItemCreateSchema,
  PackageLineItemUpdate: PackageLineItemUpdateSchema,
  OperatorCreate: OperatorCreateSchema,
  OperatorUpdate: OperatorUpdateSchema,
};

/** Named response schemas, converted with io "output". */
const RESPONSE_COMPONENTS: Record<string, z.ZodType> = {
  Error: ErrorBodySchema,
  ListMeta: ListMetaSchema,
  Health: HealthSchema,
  ReturnLineItem: ReturnLineItemSchema,
  ReturnRecord: ReturnRecordSchema,
  ReturnList: ReturnListResponseSchema,
  Dimensions: DimensionsSchema,
  ListCarrier: ListCarrierSchema,
  GetCarrier: GetCarrierSchema,
  PackageLineItem: PackageLineItemSchema,
  MediaFile: MediaFileSchema,
  ReturnPackageListItem: ReturnPackageListItemSchema,
  ReturnPackageList: ReturnPackageListResponseSchema,
  ReturnPackageCreated: ReturnPackageCreatedSchema,
  ReturnPackage: ReturnPackageSchema,
  ReturnPackageUpdated: ReturnPackageUpdatedSchema,
  SyncStatus: SyncStatusSchema,
  StationStatus: StationStatusSchema,
  LookupResponse: LookupResponseSchema,
  Operator: OperatorSchema,
  OperatorList: OperatorListResponseSchema,
  Token: TokenSchema,
  TokenCreated: TokenCreatedSchema,
  TokenList: TokenListResponseSchema,
  Carrier: CarrierSchema,
  CarrierList: CarrierListResponseSchema,
  Location: LocationSchema,
  LocationList: LocationListResponseSchema,
  DockDay: DockDaySchema,
};

/** The station token roles a `supervisor` route takes (shared/api/routes.ts, RouteAuth). */
const SUPERVISOR_ROLES = ['supervisor', 'admin'] as const;

const COMPONENT_URI = (id: string) => `#/components/schemas/${id}`;

/** Drops `$schema` and `$id`: OpenAPI 3.1's default dialect (JSON Schema 2020-12) covers every schema. */
function stripDialect(schema: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema' && key !== '$id'));
}

function convertComponents(components: Record<string, z.ZodType>, io: 'input' | 'output') {
  const registry = z.registry<{ id: string }>();
  const byName = new Map<z.ZodType, string>();
  for (const [id, schema] of Object.entries(components)) {
    registry.add(schema, { id });
    byName.set(schema, id);
  }
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    uri: COMPONENT_URI,
  }) as { schemas: Record<string, JsonObject> };
  const out: Record<string, JsonObject> = {};
  for (const [id, schema] of Object.entries(schemas)) out[id] = stripDialect(schema);
  return { schemas: out, byName };
}

function inlineSchema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  return stripDialect(z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonObject);
}

function schemaRef(schema: z.ZodType, named: Map<z.ZodType, string>, io: 'input' | 'output'): JsonObject {
  const name = named.get(schema);
  return name === undefined ? inlineSchema(schema, io) : { $ref: COMPONENT_URI(name) };
}

/** Path and query parameters from the route's strict object schemas. */
function parametersOf(route: RouteDefinition): JsonObject[] {
  const out: JsonObject[] = [];
  const add = (schema: z.ZodType | undefined, location: 'path' | 'query') => {
    if (schema === undefined) return;
    const json = inlineSchema(schema, 'input');
    const properties = (json.properties ?? {}) as Record<string, JsonObject>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      const { description, ...propertySchema } = property;
      out.push({
        name,
        in: location,
        required: location === 'path' || required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        // A list parameter is comma-separated: `status=pending,in_transit` (common.ts, commaListMeta).
        ...(propertySchema.type === 'array' ? { style: 'form', explode: false } : {}),
        schema: propertySchema,
      });
    }
  };
  add(route.params, 'path');
  add(route.query, 'query');
  return out;
}

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the current window.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the window resets.',
    schema: { type: 'integer' },
  },
};

function errorResponses(codes: readonly ErrorCode[], withRateLimit: boolean): Record<string, JsonObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    const list = byStatus.get(status) ?? [];
    if (!list.includes(code)) list.push(code);
    byStatus.set(status, list);
  }
  const out: Record<string, JsonObject> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const headers: Record<string, JsonObject> = withRateLimit ? { ...RATE_LIMIT_HEADERS } : {};
    if (status === 401) headers['WWW-Authenticate'] = { schema: { type: 'string' }, description: '`Bearer`' };
    if (status === 429) headers['Retry-After'] = { schema: { type: 'integer' }, description: 'Seconds to wait.' };
    out[String(status)] = {
      description: `${ERROR_CODES[list[0] as ErrorCode].title}: ${list.join(', ')}`,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: {
        'application/json': {
          schema: { $ref: COMPONENT_URI('Error') },
          examples: Object.fromEntries(list.map((code) => [code, { value: errorBody(code) }])),
        },
      },
    };
  }
  return out;
}

/** Headers an operation reads besides its path and query: replay keys on POST, the resume point on SSE. */
function headerParameters(route: RouteDefinition): JsonObject[] {
  const out: JsonObject[] = [];
  if (route.method === 'POST' && route.replayable !== false) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Same key and body within 24 h: the first response again; another body: 409. 1–255 visible ASCII characters (422 otherwise). ' +
        'Spaces and tabs around the value are not part of it (HTTP drops them, RFC 9110 §5.5): `\\tkey` is the key `key`.',
      schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN },
    });
  }
  if (route.response === 'sse') {
    out.push({
      name: 'Last-Event-ID',
      in: 'header',
      required: false,
      description: 'Resume after this event id.',
      schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
    });
  }
  return out;
}

/** A POST that takes no `Idempotency-Key` (its answer is made once, never stored for a replay) says so: any key is a 422. */
function takesNoKey(route: RouteDefinition): string | undefined {
  return route.method === 'POST' && route.replayable === false
    ? 'No Idempotency-Key (422 `VALIDATION_FAILED` on it): the answer is made once and never replayed.'
    : undefined;
}

/** A media upload takes the bytes raw or as multipart; everything else takes JSON. */
function requestBodyOf(route: RouteDefinition, requestNames: Map<z.ZodType, string>): JsonObject | undefined {
  if (route.body === undefined) return undefined;
  if (route.body !== 'media') {
    return {
      required: true,
      content: { 'application/json': { schema: schemaRef(route.body, requestNames, 'input') } },
    };
  }
  const content: Record<string, JsonObject> = {
    'multipart/form-data': {
      schema: {
        type: 'object',
        description: `The part \`file\` is the file (its part's Content-Type one of the allowed media types; a file name is optional and never used). Up to ${MULTIPART_FIELDS_MAX} other fields are ignored.`,
        properties: { file: { contentMediaType: 'application/octet-stream' } },
        required: ['file'],
        additionalProperties: { type: 'string', maxLength: MULTIPART_FIELD_BYTES },
        maxProperties: MULTIPART_FIELDS_MAX + 1,
      },
    },
  };
  for (const type of MEDIA_TYPE_NAMES) {
    content[type] = { schema: { contentMediaType: type, maxLength: MEDIA_TYPES[type].maxBytes } };
  }
  return { required: true, content };
}

/** The success response: no body, an event stream, or the route's JSON view; with its headers. */
function successResponseOf(route: RouteDefinition, responseNames: Map<z.ZodType, string>, authenticated: boolean): JsonObject {
  let success: JsonObject;
  if (route.response === null) {
    success = { description: 'Done; no body.' };
  } else if (route.response === 'sse') {
    success = {
      description: `Server-Sent Events: ${EVENT_NAMES.join(', ')}; each data a JSON object.`,
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  } else if (route.response === 'pdf') {
    success = {
      description: `${route.summary}`,
      content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
    };
  } else if (route.response === 'zip') {
    success = {
      description: `${route.summary}`,
      content: { 'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } } },
    };
  } else if (route.response === 'csv') {
    success = {
      description: `${route.summary} RFC 4180, UTF-8, a header row first.`,
      content: { 'text/csv': { schema: { type: 'string' } } },
    };
  } else {
    success = {
      description: route.summary,
      content: { 'application/json': { schema: schemaRef(route.response, responseNames, 'output') } },
    };
  }
  const headers: Record<string, JsonObject> = authenticated ? { ...RATE_LIMIT_HEADERS } : {};
  if (route.operationId === 'createReturnPackage') {
    headers.Location = { description: 'Address of the new package.', schema: { type: 'string' } };
  }
  if (Object.keys(headers).length > 0) success.headers = headers;
  return success;
}

/** Every error an operation can answer: the common ones of its kind, its own, and 404 where it has ids. */
function errorCodesOf(route: RouteDefinition, authenticated: boolean): ErrorCode[] {
  const codes: ErrorCode[] = authenticated ? [...COMMON_ERROR_CODES, ...route.errors] : ['INTERNAL_ERROR', 'UNAVAILABLE', ...route.errors];
  if (!route.errors.includes('NOT_FOUND') && route.params !== undefined) codes.push('NOT_FOUND');
  return codes;
}

function operationOf(route: RouteDefinition, requestNames: Map<z.ZodType, string>, responseNames: Map<z.ZodType, string>): JsonObject {
  const authenticated = route.auth !== 'none';
  const parameters = [...parametersOf(route), ...headerParameters(route)];
  const requestBody = requestBodyOf(route, requestNames);
  const description = [route.description, takesNoKey(route)].filter((text) => text !== undefined).join(' ');
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(description === '' ? {} : { description }),
    tags: [route.tag],
    ...(authenticated ? {} : { security: [] }),
    // Who may call it beyond the token's scope: a terminal's station token is refused (403 SUPERVISOR_REQUIRED).
    ...(route.auth === 'supervisor' ? { 'x-required-role': SUPERVISOR_ROLES } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [String(route.status)]: successResponseOf(route, responseNames, authenticated),
      ...(route.alsoSucceeds === undefined
        ? {}
        : { [String(route.alsoSucceeds.status)]: { ...successResponseOf(route, responseNames, authenticated), description: route.alsoSucceeds.when } }),
      ...errorResponses(errorCodesOf(route, authenticated), authenticated),
    },
  };
}

/** The OpenAPI 3.1 document of the station API. */
export function buildOpenApiDocument(version: string): JsonObject {
  const requests = convertComponents(REQUEST_COMPONENTS, 'input');
  const responses = convertComponents(RESPONSE_COMPONENTS, 'output');
  const paths: Record<string, Record<string, JsonObject>> = {};
  const routes: readonly RouteDefinition[] = Object.values(API_ROUTES);
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    item[route.method.toLowerCase()] = operationOf(route, requests.byName, responses.byName);
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Returns Station API',
      version,
      description:
        'The returns service served locally by a Returns Station: manual returns, return packages, ' +
        'inspection line items, media files, station resources and live events. Every error has the ' +
        'shape {error, error_code, details: {message, ...}}.',
    },
    servers: [{ url: '/', description: 'This station' }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An account token (one account) or a station token (every account). A station token has a role: `admin`, `terminal` or `supervisor`; ' +
            'operations marked `x-required-role` refuse a `terminal` token (403 `SUPERVISOR_REQUIRED`).',
        },
      },
      schemas: { ...requests.schemas, ...responses.schemas },
    },
  };
}
