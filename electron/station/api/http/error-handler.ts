import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { errorBody } from '#shared/api/errors.ts';
import { ContractError } from '../../errors.ts';
import { storageFailure } from './storage-errors.ts';

/** Fastify's own client errors, by code, mapped to the contract's codes. */
const FASTIFY_CLIENT_ERRORS: Record<string, () => ContractError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new ContractError(413, errorBody('PAYLOAD_TOO_LARGE', 'The JSON body is larger than 1 MiB.', { limit_bytes: 1024 * 1024 })),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new ContractError(415, errorBody('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.')),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new ContractError(400, errorBody('MALFORMED_JSON', 'The body does not match its Content-Length.')),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new ContractError(400, errorBody('MALFORMED_JSON', 'The request body is empty; send a JSON object.')),
};

/**
 * Every error leaves in the contract's one shape. A thrown error's message never reaches the client
 * (it may hold SQL, paths or stack frames): unexpected errors are logged and answered with a
 * generic 500 carrying only the request id to quote in a report.
 */
export function installErrorHandling(server: FastifyInstance): void {
  const noRoute = (request: FastifyRequest) => errorBody('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}.`);
  server.setNotFoundHandler((request, reply) => reply.code(404).send(noRoute(request)));

  server.setErrorHandler((error: FastifyError, request, reply) => {
    // A request that matches no route is a 404 whatever its body: Fastify reads the body of a method
    // it does not know before it finds no route (and refuses a QUERY without Content-Type outright).
    if (request.is404 && !(error instanceof ContractError)) return reply.code(404).send(noRoute(request));
    const known = error instanceof ContractError ? error : (FASTIFY_CLIENT_ERRORS[error.code]?.() ?? storageFailure(error));
    if (known) {
      if (known.status === 503 && !(error instanceof ContractError)) request.log.error({ err: error }, 'the store refused a write');
      return reply.code(known.status).headers(known.headers).send(known.body);
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      return reply.code(400).send(errorBody('MALFORMED_JSON', 'The request could not be read.'));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody('INTERNAL_ERROR', 'The station failed to handle this request.', { request_id: request.id }));
  });
}
