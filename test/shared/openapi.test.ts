import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { API_ROUTES, ERROR_CODES, buildOpenApiDocument } from '../../shared/api/index.ts';
import { NameSchema } from '../../shared/api/common.ts';
import { TagSchema } from '../../shared/api/line-items.ts';
import { StationSettingsUpdateSchema } from '../../shared/api/station-settings.ts';

// The document is read as untyped JSON here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const doc = buildOpenApiDocument('9.8.7') as Json;

// Every HTTP operation of the API (docs/api-reference.md, Addresses).
const CONTRACT_OPERATIONS = [
  'GET /healthz',
  'GET /openapi.json',
  'POST /returns',
  'GET /returns',
  'GET /api/v1/accounts/{account_id}/returns',
  // Not in the returns service's interface: added for the UI and integrations (docs/api-decisions.md).
  'GET /api/v1/accounts/{account_id}/returns/{id}',
  'GET /api/v1/accounts/{account_id}/return_packages',
  'POST /api/v1/accounts/{account_id}/return_packages',
  'GET /api/v1/accounts/{account_id}/return_packages/{id}',
  'GET /api/v1/accounts/{account_id}/return_packages/{id}/site_receipt',
  'PATCH /api/v1/accounts/{account_id}/return_packages/{id}',
  'POST /api/v1/accounts/{account_id}/return_packages/{id}/line_items',
  'PATCH /api/v1/accounts/{account_id}/return_packages/{id}/line_items/{line_item_id}',
  'DELETE /api/v1/accounts/{account_id}/return_packages/{id}/line_items/{line_item_id}',
  'POST /api/v1/accounts/{account_id}/return_packages/{id}/media_files',
  'DELETE /api/v1/accounts/{account_id}/return_packages/{id}/media_files/{media_id}',
  'GET /api/v1/accounts/{account_id}/carriers',
  'GET /api/v1/accounts/{account_id}/locations',
  'GET /api/v1/accounts/{account_id}/events',
  'GET /api/v1/station',
  'GET /api/v1/station/lookup',
  'GET /api/v1/station/dock-day',
  'GET /api/v1/station/dock-day/receipts.csv',
  'GET /api/v1/station/settings',
  'GET /api/v1/station/return_packages',
  'PATCH /api/v1/station/settings',
  'GET /api/v1/station/disposition-rules',
  'PUT /api/v1/station/disposition-rules',
  'POST /api/v1/accounts/{account_id}/return_packages/{id}/line_items/{line_item_id}/put',
  'GET /api/v1/station/operators',
  'POST /api/v1/station/operators',
  'PATCH /api/v1/station/operators/{id}',
  'GET /api/v1/station/tokens',
  'POST /api/v1/station/tokens',
  'DELETE /api/v1/station/tokens/{id}',
  'POST /api/v1/station/badge-checks',
  'POST /api/v1/station/supervisor-sessions',
  'DELETE /api/v1/station/supervisor-sessions/current',
  'POST /api/v1/station/first-supervisor',
  // The scale (docs/api-reference.md, The scale).
  'GET /api/v1/station/scale',
  'PUT /api/v1/station/scale',
  'GET /api/v1/station/scale/ports',
  'GET /api/v1/station/scale/weight',
  'GET /api/v1/accounts/{account_id}/return_packages/{id}/weight',
  'POST /api/v1/accounts/{account_id}/return_packages/{id}/weight',
  // The review (docs/api-reference.md, The review).
  'GET /api/v1/station/reviews',
  'GET /api/v1/accounts/{account_id}/return_packages/{id}/review',
  'POST /api/v1/accounts/{account_id}/return_packages/{id}/review/release',
  'POST /api/v1/accounts/{account_id}/return_packages/{id}/review/confirm',
  // The evidence pack (docs/api-reference.md, The evidence pack).
  'GET /api/v1/accounts/{account_id}/return_packages/{id}/evidence.pdf',
  'GET /api/v1/accounts/{account_id}/return_packages/{id}/evidence.zip',
  // Labels and printing (docs/api-reference.md, Labels and printing).
  'POST /api/v1/accounts/{account_id}/return_packages/{id}/line_items/{line_item_id}/label',
  'GET /api/v1/accounts/{account_id}/return_packages/{id}/line_items/{line_item_id}/label.pdf',
  'GET /api/v1/accounts/{account_id}/return_packages/{id}/labels.pdf',
  'POST /api/v1/accounts/{account_id}/return_packages/{id}/labels',
  'POST /api/v1/station/printer/test',
  'GET /api/v1/station/printer/test.pdf',
  'GET /api/v1/station/print-jobs',
  'DELETE /api/v1/station/print-jobs/{id}',
  // Sync with the upstream (docs/api-decisions.md, "Sync").
  'GET /api/v1/accounts/{account_id}/returns/{id}/sync',
  'GET /api/v1/accounts/{account_id}/return_packages/{id}/sync',
  'POST /api/v1/accounts/{account_id}/return_packages/{id}/sync/refresh',
  'GET /api/v1/station/sync',
  'GET /api/v1/station/sync/changes',
  'POST /api/v1/station/sync/retry',
  'POST /api/v1/station/sync/keep-local',
  'GET /api/v1/station/upstream',
  'POST /api/v1/station/upstream',
  'DELETE /api/v1/station/upstream',
  // A site (docs/decisions/site-join.md).
  'POST /api/v1/site/join',
  'POST /api/v1/handhelds/pair',
  'POST /api/v1/station/handhelds/pairings',
  'GET /api/v1/station/site',
  'GET /api/v1/station/site/config',
  'GET /api/v1/station/site/authorities',
  'POST /api/v1/station/site/invites',
  'DELETE /api/v1/station/site/members/{id}',
  'POST /api/v1/station/site/join',
  // Moving the hub (docs/decisions/site-promote.md).
  'POST /api/v1/station/site/promote',
  'POST /api/v1/station/site/take-over',
  'GET /api/v1/station/site/uplink-offer',
  'POST /api/v1/station/site/uplink',
];

function operations(d: Json): string[] {
  return Object.entries(d.paths as Json).flatMap(([path, item]) => Object.keys(item as Json).map((method) => `${method.toUpperCase()} ${path}`));
}

function collectRefs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) collectRefs(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with the given version and a bearer scheme', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toBe('9.8.7');
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });

  it('lists exactly the operations of the contract', () => {
    expect(operations(doc).sort()).toEqual([...CONTRACT_OPERATIONS].sort());
    expect(Object.keys(API_ROUTES)).toHaveLength(CONTRACT_OPERATIONS.length);
  });

  it('every $ref resolves to a component', () => {
    const refs = collectRefs(doc);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      const name = ref.split('/').pop() ?? '';
      expect(doc.components.schemas, ref).toHaveProperty([name]);
    }
  });

  it('components carry no draft markers of their own', () => {
    for (const schema of Object.values(doc.components.schemas as Json)) {
      expect(schema).not.toHaveProperty('$schema');
      expect(schema).not.toHaveProperty('$id');
    }
  });

  it('operation ids are unique and every path parameter is declared', () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      const names = [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(item as Json)) {
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
        const declared = (op.parameters ?? []).filter((p: Json) => p.in === 'path').map((p: Json) => p.name);
        expect(declared.sort(), `${op.operationId}`).toEqual([...names].sort());
      }
    }
  });

  it('every error response uses the error schema and names its codes', () => {
    for (const item of Object.values(doc.paths as Json)) {
      for (const op of Object.values(item as Json)) {
        const statuses = Object.keys(op.responses).filter((s) => Number(s) >= 400);
        expect(statuses).toContain('500');
        for (const status of statuses) {
          const response = op.responses[status];
          expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
          for (const code of Object.keys(response.content['application/json'].examples)) {
            expect(ERROR_CODES[code as keyof typeof ERROR_CODES].status).toBe(Number(status));
          }
        }
        if (op.security === undefined) expect(Object.keys(op.responses)).toContain('401');
      }
    }
  });

  it('the health check needs no token; package routes answer 401, 403 and 404', () => {
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    const get = doc.paths['/api/v1/accounts/{account_id}/return_packages/{id}'].get;
    expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404', '429']));
    const patch = doc.paths['/api/v1/accounts/{account_id}/return_packages/{id}'].patch;
    expect(Object.keys(patch.responses['409'].content['application/json'].examples)).toContain('INVALID_STATUS_TRANSITION');
    expect(patch.responses['422']).toBeDefined();
  });

  it('request bodies are strict and responses reference the L/C/G/U schemas', () => {
    const create = doc.paths['/api/v1/accounts/{account_id}/return_packages'].post;
    expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ReturnPackageCreate' });
    expect(doc.components.schemas.ReturnPackageCreate.additionalProperties).toBe(false);
    expect(doc.components.schemas.ReturnPackageCreate.required.sort()).toEqual(['return_id', 'tracking_number']);
    expect(doc.components.schemas.ManualReturnCreate.required).toEqual(expect.arrayContaining(['email', 'receive_by', 'return_line_items']));
    expect(create.responses['201'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ReturnPackageCreated',
    });
    expect(create.responses['201'].headers).toHaveProperty('Location');
    expect(create.parameters.map((p: Json) => p.name)).toContain('Idempotency-Key');
    const list = doc.paths['/api/v1/accounts/{account_id}/return_packages'].get;
    expect(list.parameters.map((p: Json) => p.name)).toEqual(
      expect.arrayContaining(['page', 'per_page', 'status', 'return_id', 'tracking_number', 'carrier_id', 'location_id', 'updated_since', 'sort']),
    );
    expect(Object.keys(doc.components.schemas.ReturnPackage.properties)).toContain('media_files');
  });

  it('media upload accepts each allowed type and multipart', () => {
    const upload = doc.paths['/api/v1/accounts/{account_id}/return_packages/{id}/media_files'].post;
    expect(Object.keys(upload.requestBody.content).sort()).toEqual(
      ['application/pdf', 'image/jpeg', 'image/png', 'image/webp', 'multipart/form-data', 'video/mp4', 'video/webm'].sort(),
    );
  });

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it("a unit label's 200 (its job, made before) is documented beside the 201 of a new one", () => {
    const label = doc.paths['/api/v1/accounts/{account_id}/return_packages/{id}/line_items/{line_item_id}/label'].post;
    expect(label.responses['200'].content).toEqual(label.responses['201'].content);
    expect(label.responses['201'].content['application/json'].schema.properties.kind.enum).toContain('unit');
    expect(label.responses['200'].description).toMatch(/made before/);
  });

  it('a POST that takes no Idempotency-Key says so, and lists no such header', () => {
    const posts = Object.values(doc.paths as Record<string, Json>).flatMap((item) => (item.post ? [item.post as Json] : []));
    const without = posts.filter((op) => !(op.parameters ?? []).some((p: Json) => p.name === 'Idempotency-Key'));
    expect(without.map((op) => op.operationId).sort()).toEqual(
      Object.values(API_ROUTES)
        .filter((r) => r.method === 'POST' && 'replayable' in r)
        .map((r) => r.operationId)
        .sort(),
    );
    for (const op of without) expect(op.description, op.operationId).toMatch(/No Idempotency-Key \(422/);
  });
});

/** Every `pattern` of the document, with where it is. */
function patternsOf(value: unknown, where = ''): Array<{ where: string; pattern: string }> {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Json).flatMap(([key, inner]) =>
    key === 'pattern' && typeof inner === 'string' ? [{ where, pattern: inner }] : patternsOf(inner, `${where}/${key}`),
  );
}

describe('a text rule reads the same to the document and to the station', () => {
  // JSON Schema validators read a pattern with the `u` flag, as Ajv does.
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
  const documented = (schema: Json) => ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as Json);

  it('no pattern says white space with \\s or \\S, whose meaning differs between regex dialects (Python: U+001C–U+001F, U+0085 but not U+FEFF)', () => {
    const shorthand = patternsOf(doc).filter(({ pattern }) => /(?<!\\)(?:\\\\)*\\[sS]/.test(pattern));
    expect(shorthand).toEqual([]);
  });

  // Every white space of JavaScript, the characters other dialects call white space, letters, a
  // character beyond the BMP, a lone surrogate half, and what a key name is made of.
  const alphabet = fc.constantFrom(
    ...['\t', '\n', '\v', '\f', '\r', ' ', '\u00A0', '\u1680', '\u2003', '\u2028', '\u2029', '\u202F', '\u205F', '\u3000', '\uFEFF'],
    ...['\u001C', '\u001F', '\u0085', '\u180E', '\u200B'],
    ...['a', 'Z', 'F', '1', '2', '+', 'C', 't', 'r', 'l', '§', '~', '\u{1F4E6}', '\uD800', 'é'],
  );
  const texts = fc.oneof(fc.string({ unit: alphabet, maxLength: 8 }), fc.string({ unit: alphabet, minLength: 18, maxLength: 44 }));
  const settings = doc.paths['/api/v1/station/settings'].patch.requestBody.content['application/json'].schema;
  const lineItem = doc.components.schemas.PackageLineItemUpdate;
  const cases: Array<[string, Json, (text: string) => unknown, z.ZodType]> = [
    ['a scanner prefix key', settings, (text) => ({ scanner: { prefix: text, suffix: 'Enter' } }), StationSettingsUpdateSchema],
    ['a scanner suffix key', settings, (text) => ({ scanner: { prefix: 'F12', suffix: text } }), StationSettingsUpdateSchema],
    ['a tag', lineItem.properties.tags.items, (text) => text, TagSchema],
    ['a name (not blank)', doc.components.schemas.OperatorCreate.properties.name, (text) => text, NameSchema],
  ];
  it.each(cases)('%s', (_name, schema, wrap, zod) => {
    const byDocument = documented(schema);
    fc.assert(
      fc.property(texts, (text) => {
        // The prefix equal to the suffix is a rule across fields, named in the document's words only.
        if (wrap(text) !== text && text.trim() === 'F12') return;
        expect(zod.safeParse(wrap(text)).success, JSON.stringify(text)).toBe(byDocument(wrap(text)));
      }),
      { numRuns: 4000 },
    );
  });
});
