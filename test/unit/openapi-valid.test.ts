import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '#shared/api/openapi.ts';

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document by the official 3.1 schema', async () => {
    const document = buildOpenApiDocument('0.0.0-test');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });
});
