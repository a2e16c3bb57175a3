import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { PAIRING_PATH } from '#shared/api/handhelds.ts';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { Health } from '#shared/health.ts';
import { errorBody } from '#shared/api/errors.ts';
import { registerApi } from './api/index.ts';
import { installErrorHandling } from './api/http/error-handler.ts';
import { writeClientError } from './api/http/client-errors.ts';
import { logSafeRequest } from './api/http/redact.ts';
import { lazyRequestLogger } from './api/http/request-logger.ts';
import { guardLoopbackHost } from './api/http/host-guard.ts';
import { pageSecurityHeaders } from './api/http/page-headers.ts';
import type { RateLimits } from './api/rate-limit.ts';
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from './api/http/timeouts.ts';
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS, guardConnections } from './api/http/connection-guard.ts';
import { docsRoutes } from './api/routes/docs.ts';
import { mediaBytesRoute } from './api/routes/media.ts';
import type { DomainContext } from './domain/context.ts';
import { STORE_SCHEMA_VERSION } from './store/index.ts';
import { STATION_NAME, STATION_VERSION } from './version.ts';

export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';

export interface ServerOptions {
  /** Folder of the built renderer (`out/renderer`); the UI is served at `/` when it exists. */
  rendererDir: string;
  /** Log level on stderr; `debug` adds a line per request. */
  logLevel?: LogLevel;
  rateLimits?: Partial<RateLimits>;
  /** Connection timeouts (tests shorten them); DEFAULT_HTTP_TIMEOUTS otherwise. */
  timeouts?: Partial<HttpTimeouts>;
  /** Connection caps; DEFAULT_CONNECTION_LIMITS otherwise. */
  connectionLimits?: Partial<ConnectionLimits>;
}

export interface ServerDeps extends ServerOptions {
  ctx: DomainContext;
  /** Serve HTTPS with this key and certificate chain (electron/station/tls/); plain HTTP without. */
  https?: { key: string; cert: string } | undefined;
  rateLimits: RateLimits;
  /** True once the station listens on a loopback address: then only loopback Host names are served. */
  isBoundToLoopback: () => boolean;
  /** True while the station shuts down: new requests get 503. */
  isClosing: () => boolean;
}

/** The UI's Content Security Policy: same-origin everything, no plain eval, nothing framed. */
const UI_CSP = {
  defaultSrc: ["'self'"],
  // WebAssembly (the camera's barcode decoder) needs wasm-unsafe-eval; plain eval stays off.
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'blob:', 'data:'],
  mediaSrc: ["'self'", 'blob:', 'mediastream:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * Builds the station's HTTP server without listening, so tests (`inject` or their own port), the
 * headless command and the Electron main process all construct exactly the same server.
 */
export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const level = deps.logLevel ?? 'info';
  const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...deps.timeouts };
  // Timeouts are checked every second (Node's default, 30 s, would let a slow client stay 3× longer);
  // Node's HTTP options go with the TLS ones when serving HTTPS.
  const nodeHttp = { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: 1000 };
  const server = Fastify({
    ...(deps.https ? { https: { ...deps.https, ...nodeHttp } } : { http: nodeHttp }),
    logger: {
      level,
      stream: process.stderr,
      // Secrets never reach the log: media capability URLs and tokens in a query string are
      // redacted, headers (Authorization) are not logged at all.
      serializers: { req: logSafeRequest },
      redact: { paths: ['req.headers.authorization', 'headers.authorization', 'request.headers.authorization'], censor: '[redacted]' },
    },
    // A line per request drowns the log at scanner speed; it is there when asked for.
    logController: new LogController({ disableRequestLogging: level !== 'debug' }),
    // A request's child logger is made when it first logs (most never do).
    childLoggerFactory: lazyRequestLogger,
    // Bounded bodies and slow clients cannot pin the station down.
    bodyLimit: 1024 * 1024,
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    return503OnClosing: false,
    clientErrorHandler: writeClientError,
    // Fastify's own URL errors (bad percent-encoding, over-long path segments) name no resource.
    frameworkErrors: (_error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      reply.code(404).send(errorBody('NOT_FOUND', 'No resource at this address.'));
    },
  });

  const connections = guardConnections(server.server, { ...DEFAULT_CONNECTION_LIMITS, ...deps.connectionLimits });
  installErrorHandling(server);
  guardLoopbackHost(server, deps.isBoundToLoopback);
  // Synchronous hooks (done callbacks): every request passes them, and an async hook costs a promise each.
  server.addHook('onRequest', (_request, reply, done) => {
    if (!deps.isClosing()) return done();
    reply.header('connection', 'close');
    reply.code(503).send(errorBody('UNAVAILABLE', 'The station is shutting down.'));
  });

  mediaBytesRoute(server, deps.ctx);
  // Connections that carried a valid token are cut last when a flood needs room (the API marks them).
  await registerApi(server, {
    ctx: deps.ctx,
    rateLimits: deps.rateLimits,
    heartbeatMs: timeouts.heartbeatMs,
    trustConnection: (socket) => connections.trust(socket),
  });
  // The pages (UI, API reference) get the browser security headers, worked out once at start; the
  // API's JSON answers carry their own few (nosniff, no-store).
  const pageHeaders = pageSecurityHeaders({ contentSecurityPolicy: { useDefaults: false, directives: UI_CSP }, strictTransportSecurity: false });
  await server.register(async (web) => {
    web.addHook('onRequest', (_request, reply, done) => {
      reply.headers(pageHeaders);
      done();
    });
    web.get('/healthz', async (): Promise<Health> => ({
      status: 'ok',
      name: STATION_NAME,
      version: STATION_VERSION,
      data_schema_version: STORE_SCHEMA_VERSION,
    }));
    await web.register(docsRoutes);
    if (existsSync(join(deps.rendererDir, 'index.html'))) {
      await web.register(fastifyStatic, { root: deps.rendererDir, prefix: '/', index: 'index.html', wildcard: false });
      // A handheld's pairing page (docs/decisions/handheld-pairing.md): the same UI, which pairs first.
      web.get(PAIRING_PATH, (_request, reply) => reply.sendFile('index.html'));
    } else {
      web.get('/', (_request, reply) => reply.code(503).send(errorBody('UNAVAILABLE', 'The station UI has not been built. Run `npm run build`.')));
    }
  });
  return server;
}
