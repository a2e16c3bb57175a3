import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/*
 * A fault-injecting HTTP proxy between a station and its upstream, for sync tests. It forwards
 * every request unless told otherwise, and can: go fully offline, lose the answer after the
 * upstream committed (the connection drops once the upstream has answered), delay, answer with a
 * fault (5xx, 429 with headers, 422 …) for chosen requests, strip `Idempotency-Key` (an upstream
 * with no idempotency, as the returns service's), and enforce its own small rate limit in fixed windows with
 * X-RateLimit-* headers. Every request is recorded. (Clock skew: start the upstream with
 * RETURNS_STATION_CLOCK_OFFSET.)
 */

export interface SeenRequest {
  method: string;
  path: string;
  at: number;
  status: number | 'lost' | 'offline';
  idempotencyKey: string | null;
}

export interface Fault {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface FaultProxy {
  url: string;
  requests: SeenRequest[];
  offline: boolean;
  delayMs: number;
  stripIdempotencyKey: boolean;
  /** Forward, let the upstream commit, then drop the connection without answering. */
  loseAnswer: ((req: { method: string; path: string; body: string }) => boolean) | null;
  /** Answer this instead of forwarding. */
  fault: ((req: { method: string; path: string; body: string }) => Fault | null) | null;
  /** The proxy's own limit: at most `limit` requests per fixed window of `windowMs`. */
  rateLimit: { limit: number; windowMs: number } | null;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let windowStart = Date.now();
  let windowCount = 0;

  const proxy: FaultProxy = {
    url: '',
    requests: [],
    offline: false,
    delayMs: 0,
    stripIdempotencyKey: false,
    loseAnswer: null,
    fault: null,
    rateLimit: null,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const info = { method: req.method ?? 'GET', path: req.url ?? '/', body: body.toString('utf8') };
    const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
    const record = (status: SeenRequest['status']) =>
      proxy.requests.push({ method: info.method, path: info.path, at: Date.now(), status, idempotencyKey: key });
    if (proxy.offline) {
      record('offline');
      req.socket.destroy();
      return;
    }
    if (proxy.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, proxy.delayMs));
    let limitHeaders: Record<string, string> = {};
    if (proxy.rateLimit) {
      const now = Date.now();
      if (now - windowStart >= proxy.rateLimit.windowMs) {
        windowStart = now;
        windowCount = 0;
      }
      const resetSeconds = Math.max(0, Math.ceil((windowStart + proxy.rateLimit.windowMs - now) / 1000));
      windowCount += 1;
      const remaining = Math.max(0, proxy.rateLimit.limit - windowCount);
      limitHeaders = {
        'x-ratelimit-limit': String(proxy.rateLimit.limit),
        'x-ratelimit-remaining': String(remaining),
        'x-ratelimit-reset': String(resetSeconds),
      };
      if (windowCount > proxy.rateLimit.limit) {
        record(429);
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(resetSeconds), ...limitHeaders });
        res.end(
          JSON.stringify({
            error: 'Too Many Requests',
            error_code: 'RATE_LIMITED',
            details: { message: 'Rate limit exceeded.', retry_after_seconds: resetSeconds },
          }),
        );
        return;
      }
    }
    const fault = proxy.fault?.(info) ?? null;
    if (fault) {
      record(fault.status);
      res.writeHead(fault.status, { 'content-type': 'application/json', ...limitHeaders, ...fault.headers });
      res.end(JSON.stringify(fault.body ?? { error: 'Injected', error_code: 'INTERNAL_ERROR', details: { message: `Injected ${fault.status}.` } }));
      return;
    }
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: upstream.host };
    if (proxy.stripIdempotencyKey) delete headers['idempotency-key'];
    const lose = proxy.loseAnswer?.(info) ?? false;
    const forwarded = httpRequest({ hostname: upstream.hostname, port: upstream.port, method: info.method, path: info.path, headers }, (answer) => {
      const answerChunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => answerChunks.push(chunk));
      answer.on('end', () => {
        if (lose) {
          // The upstream committed; the station never hears of it.
          record('lost');
          req.socket.destroy();
          return;
        }
        record(answer.statusCode ?? 502);
        const outHeaders = { ...answer.headers, ...limitHeaders };
        delete outHeaders['content-length'];
        delete outHeaders['transfer-encoding'];
        res.writeHead(answer.statusCode ?? 502, outHeaders);
        res.end(Buffer.concat(answerChunks));
      });
    });
    forwarded.on('error', () => {
      record(502);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Bad Gateway', error_code: 'UNAVAILABLE', details: { message: 'The proxy cannot reach the upstream.' } }));
    });
    forwarded.end(body);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
