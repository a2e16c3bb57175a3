import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteDefinition } from '#shared/api/routes.ts';
import { fail } from '../errors.ts';
import { type DomainContext, runScript } from '../domain/context.ts';
import { runCoalescedScript } from '../domain/script-batches.ts';
import type { BoundTables, ReadTables } from '../store/index.ts';
import type { Principal } from '../domain/tokens.ts';
import { authorize } from './auth.ts';
import { parseBody, parsePathId, parseQuery } from './http/validate.ts';
import { idempotencyClaim, idempotencyKeyFor, rememberReply, replayFor, type StoredReply } from './idempotency.ts';
import type { JsonOf } from './view-cache.ts';

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A route's path ids, typed from its `params` schema in the route table: `{ account_id: number, id: number }`. */
export type PathIds<R extends RouteDefinition> = R['params'] extends z.ZodObject ? z.output<R['params']> : Record<never, number>;

/** What a handler gets: the caller, the request's validated parts, and the tables to work on. */
export interface RouteInput<R extends RouteDefinition, P = undefined> {
  request: FastifyRequest;
  /**
   * For GET, the store's tables read only (`store.tables`: reads need no transaction); for POST/PATCH/DELETE, the tables
   * bound to the one durable write transaction the handler runs in (docs/decisions/store-bound-tables.md).
   */
  t: R['method'] extends 'GET' ? ReadTables : BoundTables;
  now: string;
  /** What `prepare` produced outside the transaction (e.g. an upload already on disk). */
  prepared: P;
  /** Work to do once the write is durable (files): it cannot happen inside the transaction. */
  afterCommit: (work: () => Promise<void>) => void;
  principal: Principal;
  /** Path ids, already checked to be strict positive integers. */
  params: PathIds<R>;
  query: Output<R['query']>;
  body: R['body'] extends z.ZodType ? z.output<R['body']> : undefined;
  /** `http://host:port` as the caller addressed the station: the base of media URLs. */
  origin: string;
}

/** A handler's answer: its body, or (a GET's remembered view) the body's JSON text already made. */
export type RouteReply<T, S extends number = number> = { status?: S; headers?: Record<string, string> } & ({ body: T } | { json: JsonOf<T> });

/** The success statuses the route table documents for a route: a handler answers no other. */
type StatusOf<R extends RouteDefinition> = R['status'] | (R['alsoSucceeds'] extends { status: infer S extends number } ? S : never);

/** The body of a reply as a value, for the idempotency record (mutations answer bodies, not text). */
function bodyOf<T>(reply: RouteReply<T>): unknown {
  return 'json' in reply ? JSON.parse(reply.json) : reply.body;
}

/** What a handler answers: the response schema's output, the text of a CSV file, a PDF's bytes or stream, a zip's stream, or nothing. */
type ResponseOf<R extends RouteDefinition> = R['response'] extends z.ZodType
  ? z.output<R['response']>
  : R['response'] extends 'csv'
    ? string
    : R['response'] extends 'pdf'
      ? Uint8Array | Readable
      : R['response'] extends 'zip'
        ? Readable
        : undefined;

export type RouteHandler<R extends RouteDefinition, P = undefined> = (input: RouteInput<R, P>) => Promise<RouteReply<ResponseOf<R>, StatusOf<R>>>;

export interface RouteExtras<R extends RouteDefinition, P> {
  /** Work before the write transaction, which must not wait on anything but the store. */
  prepare?: (input: Omit<RouteInput<R, undefined>, 't' | 'now' | 'prepared' | 'afterCommit'>) => Promise<P>;
  /** What identifies "the same request" for Idempotency-Key; the JSON body by default. */
  fingerprint?: (prepared: P) => unknown;
  /** Runs once the write is durable or has failed: lets go of what `prepare` holds (upload bytes). */
  release?: (prepared: P) => Promise<void>;
  /**
   * The write may be shared with other requests' writes (domain/script-batches.ts): the handler may
   * run again after an aborted batch, so it must read and write through `t` alone.
   */
  coalesce?: boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** `/a/{id}` (OpenAPI, shared/api/routes.ts) → `/a/:id` (Fastify). */
export function fastifyPath(template: string): string {
  return template.replace(/\{([a-z_]+)\}/g, ':$1');
}

/** The origin a caller used, for absolute media URLs. The Host header is checked by the host guard. */
export function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** How a path id is named in its 404: `account_id` → account, `id` → resource, `media_id` → media. */
function resourceNameOf(param: string): string {
  return param === 'account_id' ? 'account' : param.replace(/_id$/, '').replace('id', 'resource');
}

/** The names of a path template's `{name}` parameters, in order. */
function templateNames(template: string): string[] {
  return [...template.matchAll(/\{([a-z_]+)\}/g)].map((match) => match[1] ?? '');
}

export interface RouteOpening<R extends RouteDefinition> {
  params: PathIds<R>;
  /** The caller; null only on `auth: 'none'` routes. */
  principal: Principal | null;
}

/**
 * The checks every route opens with, in this order, each with its own error: the path ids (404 when
 * not a strict id), the token against the route's rule (401/403), then the path's account (404 when
 * the station does not have it). Shared by `addRoute` and the event stream.
 */
export function createRouteOpening<R extends RouteDefinition>(ctx: DomainContext, route: R): (request: FastifyRequest) => Promise<RouteOpening<R>> {
  const names = Object.keys(route.params?.shape ?? {});
  if (templateNames(route.path).join() !== names.join()) {
    throw new Error(`Route ${route.operationId}: the params schema must name the path's parameters (${route.path}).`);
  }
  // Accounts are never deleted: once seen, an account needs no more lookups.
  const knownAccounts = new Set<number>();
  const resources = names.map(resourceNameOf);
  return async (request) => {
    const raw = (request.params ?? {}) as Record<string, string | undefined>;
    const ids: Record<string, number> = {};
    names.forEach((name, i) => (ids[name] = parsePathId(raw[name], resources[i] ?? name)));
    const accountId = ids.account_id;
    const principal = authorize(request, route.auth, accountId ?? null);
    if (accountId !== undefined && !knownAccounts.has(accountId)) {
      if (!(await ctx.store.accounts.get(accountId))) throw fail('NOT_FOUND', `No account ${accountId} on this station.`);
      knownAccounts.add(accountId);
    }
    // The ids were parsed one by one from the schema's own keys: they are the schema's output.
    return { params: ids as PathIds<R>, principal };
  };
}

/**
 * Registers one route of the shared route table: path ids, token and account, query and body are
 * checked before the handler runs, in that order, each with its contract error. A mutating handler
 * runs inside one durable store write; with an `Idempotency-Key` that write also checks and records
 * the reply, so a retry after a lost answer gets the first answer and never a second record.
 */
export function addRoute<R extends RouteDefinition, P = undefined>(
  server: FastifyInstance,
  ctx: DomainContext,
  route: R,
  handler: RouteHandler<R, P>,
  extras: RouteExtras<R, P> = {},
): void {
  const open = createRouteOpening(ctx, route);
  server.route({
    method: route.method,
    url: fastifyPath(route.path),
    handler: async (request, reply) => {
      const { params, principal } = await open(request);
      if (!principal) throw new Error(`Route ${route.operationId} has no token rule.`);
      const query = (route.query ? parseQuery(route.query, request.query ?? {}) : undefined) as Output<R['query']>;
      const body = (route.body && route.body !== 'media' ? parseBody(route.body, request.body) : undefined) as RouteInput<R>['body'];
      // Checked before `prepare`, which may stream an upload to disk.
      const idempotencyKey = route.method === 'POST' ? idempotencyKeyFor(request, route) : null;
      const base = { request, principal, params, query, body, origin: originOf(request) };
      const prepared = (extras.prepare ? await extras.prepare(base) : undefined) as P;

      let result: StoredReply & { replayed?: boolean; json?: string };
      const afterCommitWork: Array<() => Promise<void>> = [];
      const afterCommit = (work: () => Promise<void>) => void afterCommitWork.push(work);
      try {
        if (route.method === 'GET') {
          // A GET route's `t` is typed as the read-only tables (R['method'] is 'GET'; TypeScript cannot narrow R).
          const t = ctx.store.tables satisfies ReadTables as unknown as RouteInput<R, P>['t'];
          const fresh = await handler({ ...base, prepared, afterCommit, t, now: ctx.clock.now() });
          const answer = 'json' in fresh ? { body: undefined, json: fresh.json } : { body: fresh.body };
          result = { status: fresh.status ?? route.status, headers: fresh.headers ?? {}, ...answer };
        } else {
          const fingerprint = extras.fingerprint ? extras.fingerprint(prepared) : request.body;
          const claim = idempotencyKey === null ? null : idempotencyClaim(request, route.operationId, params, idempotencyKey, fingerprint);
          const run = extras.coalesce ? runCoalescedScript : runScript;
          result = await run(ctx, async (t, now) => {
            afterCommitWork.length = 0; // a script run again (after an aborted batch) queues its work again
            const earlier = claim ? await replayFor(t, claim, now) : null;
            if (earlier) return { ...earlier, replayed: true };
            const fresh = await handler({ ...base, prepared, afterCommit, t, now });
            const stored: StoredReply = { status: fresh.status ?? route.status, body: bodyOf(fresh), headers: fresh.headers ?? {} };
            if (claim) await rememberReply(t, claim, stored, now);
            return stored;
          });
        }
      } finally {
        if (extras.release && prepared !== undefined) await extras.release(prepared);
      }
      for (const work of afterCommitWork) await work().catch((error: unknown) => request.log.error({ err: error }, 'after-commit work failed'));
      reply.code(result.status).headers(result.headers);
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      if (result.status === 204) return reply.send();
      // Text already JSON is sent as it is (Fastify serialises only non-strings).
      if (result.json !== undefined) return reply.type(JSON_TYPE).send(result.json);
      return reply.send(result.body);
    },
  });
}
