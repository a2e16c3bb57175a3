import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '#shared/api/openapi.ts';
import { STATION_VERSION } from '../../version.ts';

/**
 * `/openapi.json` (built from the same zod schemas that validate requests) and `/docs`, an API
 * reference page rendered by the official swagger-ui plugin from that same document.
 */
export async function docsRoutes(server: FastifyInstance): Promise<void> {
  const document = buildOpenApiDocument(STATION_VERSION);
  server.get('/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(document));
  await server.register(fastifySwagger, { mode: 'static', specification: { document: document as never } });
  await server.register(fastifySwaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
}
