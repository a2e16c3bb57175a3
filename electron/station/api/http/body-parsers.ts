import type { FastifyInstance } from 'fastify';
import { fail } from '../../errors.ts';

/**
 * JSON is the only body the API parses by default. Fastify's `text/plain` parser is removed: a
 * cross-site form can send text/plain without a CORS preflight. Other types get 415 from Fastify,
 * except where a route scope registers its own (media uploads).
 */
export function useJsonBodiesOnly(server: FastifyInstance): void {
  server.removeAllContentTypeParsers();
  server.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(fail('MALFORMED_JSON', 'The request body is empty; send a JSON object.'), undefined);
    try {
      // Prototype pollution keys are dropped by the strict schemas; JSON.parse never assigns __proto__.
      done(null, JSON.parse(text));
    } catch {
      done(fail('MALFORMED_JSON'), undefined);
    }
  });
}
