import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import { expect, it } from 'vitest';
import { lazyRequestLogger } from '../../electron/station/api/http/request-logger.ts';

/* A request's logger made on first use writes what Fastify's own child logger writes: the request id on every line. */

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

it('logs with the request id, at the parent level, and makes grandchildren', async () => {
  const { lines, stream } = capture();
  const server = Fastify({
    logger: { level: 'info', stream },
    childLoggerFactory: lazyRequestLogger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  server.get('/quiet', async () => ({ ok: true }));
  server.get('/loud', async (request) => {
    expect(request.log.level).toBe('info');
    request.log.debug('not written: below the level');
    request.log.error({ detail: 7 }, 'something failed');
    request.log.child({ part: 'inner' }).warn('from a grandchild');
    return { ok: true };
  });
  try {
    expect((await server.inject({ method: 'GET', url: '/quiet' })).statusCode).toBe(200);
    expect(lines).toEqual([]);
    const loud = await server.inject({ method: 'GET', url: '/loud' });
    expect(loud.statusCode).toBe(200);
    expect(lines.map(({ msg, reqId, detail, part, level }) => ({ msg, reqId, detail, part, level }))).toEqual([
      { msg: 'something failed', reqId: expect.any(String), detail: 7, part: undefined, level: 50 },
      { msg: 'from a grandchild', reqId: lines[0]?.reqId, detail: undefined, part: 'inner', level: 40 },
    ]);
  } finally {
    await server.close();
  }
});

it('a route log level still applies to its requests', async () => {
  const { lines, stream } = capture();
  const server = Fastify({
    logger: { level: 'info', stream },
    childLoggerFactory: lazyRequestLogger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  server.get('/verbose', { logLevel: 'debug' }, async (request) => {
    request.log.debug('written: the route logs at debug');
    return {};
  });
  try {
    await server.inject({ method: 'GET', url: '/verbose' });
    expect(lines.map((line) => line.msg)).toEqual(['written: the route logs at debug']);
  } finally {
    await server.close();
  }
});
