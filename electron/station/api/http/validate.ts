import type { z } from 'zod';
import { parseStrictId } from '#shared/api/common.ts';
import { invalidQueryBody, parseRequest, validationFailedBody } from '#shared/api/errors.ts';
import { ContractError, fail } from '../../errors.ts';

/** Validates a JSON body with its zod schema: 422 VALIDATION_FAILED with every bad field named. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = parseRequest(schema, body);
  if (!result.success) throw new ContractError(422, validationFailedBody(result.error));
  return result.data;
}

/** Validates the query string: 400 INVALID_QUERY; unknown parameters are rejected too. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const result = parseRequest(schema, query);
  if (!result.success) throw new ContractError(400, invalidQueryBody(result.error));
  return result.data;
}

/**
 * A path id: one spelling per resource (`7`, never `07`, `7.0`, `1e1` or `%207`). Anything else names
 * no resource, so it is a 404 like an unknown id.
 */
export function parsePathId(value: string | undefined, what: string): number {
  const id = value === undefined ? null : parseStrictId(value);
  if (id === null) throw fail('NOT_FOUND', `No ${what} with id ${JSON.stringify(value ?? '')}.`);
  return id;
}
