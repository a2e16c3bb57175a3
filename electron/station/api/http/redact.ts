import type { FastifyRequest } from 'fastify';

const SECRET_QUERY = /([?&](?:token|access_token|api_key|key|secret|authorization)=)[^&#]*/gi;
const MEDIA_CAPABILITY = /^(\/media\/)[^/?#]+/;
const TOKEN_SHAPE = /rst_[A-Za-z0-9_-]{20,}/g;

/**
 * A URL as it may be logged: a media capability (the URL is the permission to read the bytes), a
 * token wrongly sent in the query string, and anything shaped like a station token are replaced.
 */
export function redactUrl(url: string): string {
  return url.replace(MEDIA_CAPABILITY, '$1[redacted]').replace(SECRET_QUERY, '$1[redacted]').replace(TOKEN_SHAPE, '[redacted]');
}

/** The request as debug logs show it: no headers (Authorization), a redacted URL. */
export function logSafeRequest(request: FastifyRequest): Record<string, unknown> {
  return { method: request.method, url: redactUrl(request.url), host: request.host, remoteAddress: request.ip };
}
