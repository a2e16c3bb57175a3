import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { errorBody } from '#shared/api/errors.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '#shared/api/common.ts';
import type { RouteDefinition } from '#shared/api/routes.ts';
import { ContractError, fail } from '../errors.ts';
import { IDEMPOTENCY_TTL_MS } from '../domain/retention.ts';
import type { BoundTables } from '../store/index.ts';

/** What the first request answered, kept for 24 h and returned again for a retry with the same key. */
export interface StoredReply {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** The document's pattern of the header, so the two cannot drift. */
const KEY_SHAPE = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** Canonical JSON (sorted keys): the same body sent with its keys in another order is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface IdempotencyClaim {
  key: string;
  requestHash: string;
}

/**
 * The request's `Idempotency-Key`, checked (before any body is read); null when there is none. Every
 * POST route reads it here, the route table's own and the hand-built ones alike: a key of the wrong
 * shape is a 422, and so is any key on a route that takes none (`replayable: false`), whose answer is
 * made once and never stored for a replay. (Spaces and tabs around a header's value are not part of
 * it in HTTP, RFC 9110 §5.5: Node drops them before this sees the key.)
 */
export function idempotencyKeyFor(request: FastifyRequest, route: Pick<RouteDefinition, 'replayable'>, why = NOT_KEPT): string | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  if (route.replayable === false) {
    const message = `This request takes no Idempotency-Key: ${why}. Send it again without the key.`;
    throw fail('VALIDATION_FAILED', message, { fields: [{ path: 'Idempotency-Key', message }] });
  }
  if (typeof header !== 'string' || !KEY_SHAPE.test(header)) {
    const message = 'Idempotency-Key must be 1–255 visible ASCII characters.';
    throw new ContractError(422, errorBody('VALIDATION_FAILED', message, { fields: [{ path: 'Idempotency-Key', message }] }));
  }
  return header;
}

/** Why a route that takes no key takes none, unless it says otherwise. */
const NOT_KEPT = 'its answer holds a secret the station does not keep';

/**
 * A key's claim. Keys are scoped to the token and the route with its parsed path ids — not the
 * URL as spelled, so `/retur%6Es` or `/accounts/01/...` is the same route as `/returns` — and two
 * integrations (or two endpoints) can never collide on a key.
 */
export function idempotencyClaim(request: FastifyRequest, operationId: string, params: Readonly<object>, key: string, fingerprint: unknown): IdempotencyClaim {
  const route = `${operationId}${canonical(params)}`;
  return {
    key: `${request.principal?.tokenId ?? 0}:${route}:${key}`,
    requestHash: createHash('sha256').update(canonical(fingerprint)).digest('hex'),
  };
}

/** The earlier reply for this claim, or null; 409 when the key came with a different body. Call inside a write. */
export async function replayFor(t: BoundTables, claim: IdempotencyClaim, now: string): Promise<StoredReply | null> {
  const previous = await t.idempotency_keys.get(claim.key);
  if (!previous || Date.parse(previous.created_at) + IDEMPOTENCY_TTL_MS <= Date.parse(now)) return null;
  if (previous.request_hash !== claim.requestHash) throw fail('IDEMPOTENCY_KEY_REUSED');
  return JSON.parse(previous.response) as StoredReply;
}

/** Records the reply in the caller's write, so it commits together with what the request changed. */
export async function rememberReply(t: BoundTables, claim: IdempotencyClaim, reply: StoredReply, now: string): Promise<void> {
  await t.idempotency_keys.put({ key: claim.key, request_hash: claim.requestHash, status: reply.status, response: JSON.stringify(reply), created_at: now });
}
