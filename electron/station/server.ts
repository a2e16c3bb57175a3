import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyInstance, LogController } from 'fastify';
import type { Health } from '#shared/health.ts';
import { sendError } from './errors.ts';
import { STATION_NAME, STATION_VERSION } from './version.ts';

export interface ServerOptions {
  /** Folder of the built renderer (`out/renderer`); the UI is served at `/` when it exists. */
  rendererDir: string;
  /** Log level on stderr; `debug` adds a line per request. */
  logLevel?: 'silent' | 'error' | 'warn' | 'info' | 'debug';
}

/**
 * Builds the station's HTTP server without listening, so tests (`inject` or their own port), the
 * headless command and the Electron main process all construct exactly the same server.
 */
export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const level = options.logLevel ?? 'info';
  const server = Fastify({
    logger: { level, stream: process.stderr },
    // A line per request drowns the log at scanner speed; it is there when asked for.
    logController: new LogController({ disableRequestLogging: level !== 'debug' }),
    // The station answers only its own API: bounded bodies and slow clients cannot pin it down.
    bodyLimit: 1024 * 1024,
    requestTimeout: 30_000,
    connectionTimeout: 10_000,
    return503OnClosing: true,
  });

  await server.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'blob:', 'data:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The station is plain HTTP on loopback; HSTS would be meaningless there.
    strictTransportSecurity: false,
  });

  server.get('/healthz', async (): Promise<Health> => ({ status: 'ok', name: STATION_NAME, version: STATION_VERSION }));

  if (existsSync(join(options.rendererDir, 'index.html'))) {
    await server.register(fastifyStatic, { root: options.rendererDir, prefix: '/', index: 'index.html' });
  } else {
    server.get('/', (_request, reply) =>
      sendError(reply, 503, 'Service Unavailable', 'UNAVAILABLE', 'The station UI has not been built. Run `npm run build`.'),
    );
  }

  server.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, 'Not Found', 'NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}.`),
  );

  // Never leak a thrown error's message (it may hold SQL or paths) or a stack trace to a client.
  server.setErrorHandler((error: FastifyError, request, reply) => {
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return sendError(reply, 500, 'Internal Server Error', 'INTERNAL_ERROR', 'The station failed to handle this request.', {
        request_id: request.id,
      });
    }
    return sendError(reply, status, 'Bad Request', 'BAD_REQUEST', 'The request could not be processed.');
  });

  return server;
}
