import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:https';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { guardConnections } from '../../electron/station/api/http/connection-guard.ts';
import { keepStationCertificates } from '../../electron/station/tls/station-certificates.ts';

/*
 * Served over TLS, a request's socket is the TLS socket over the TCP one the guard counts: a token
 * holder's connection must still be found, and so cut last when a new connection needs room.
 */

it("over TLS, a token holder's idle connection is kept and an anonymous one is cut when the cap is reached", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'guard-tls-'));
  const certs = await keepStationCertificates(dir, { dns: ['localhost'], ips: ['127.0.0.1'] }, Date.now());
  const server = createServer({ key: certs.keyPem, cert: certs.certPem + certs.caPem }, (req, res) => {
    guard.trust(req.socket);
    res.end('ok');
  });
  const guard = guardConnections(server, { maxConnections: 2, maxPerPeer: 10 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: certs.caPem });
  const get = () =>
    new Promise<{ body: string; socket: Socket }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ body, socket: res.socket }));
      });
      req.on('error', reject);
      req.end();
    });
  const raw: Socket[] = [];
  const openRaw = async () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    raw.push(socket);
    await new Promise((resolve) => socket.once('connect', resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    return socket;
  };
  try {
    const first = await get();
    expect(first.body).toBe('ok');
    const anonymous = await openRaw();
    expect(guard.open).toBe(2);
    // A third connection needs room: the anonymous one goes, the token holder's (older, idle) stays.
    await openRaw();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(anonymous.destroyed || anonymous.readyState === 'closed').toBe(true);
    const second = await get();
    expect(second.body).toBe('ok');
    expect(second.socket).toBe(first.socket);
  } finally {
    for (const socket of raw) socket.destroy();
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});
