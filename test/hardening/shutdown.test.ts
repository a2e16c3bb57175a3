import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { call, packageBody, returnBody, sleep } from '../api/support.ts';
import { STATION_BIN, startStation } from '../support/station-process.ts';

/*
 * SIGTERM with slow clients attached: the station finishes what is in flight, then cuts whatever
 * still trickles once its shutdown deadline passes, and exits — it does not wait for the clients.
 */

const SLOW_CLIENTS = 40;
const sockets: Socket[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const socket of sockets) socket.destroy();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A connection that sends `head` at once, then one byte of `trickle` every 500 ms for ever. */
function trickler(origin: string, head: string, trickle: string): Socket {
  const url = new URL(origin);
  const socket = connect(Number(url.port), url.hostname);
  sockets.push(socket);
  socket.on('error', () => undefined);
  let i = 0;
  socket.on('connect', () => {
    socket.write(head);
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      socket.write(trickle[i % trickle.length] ?? 'x');
      i += 1;
    }, 500);
    socket.on('close', () => clearInterval(timer));
  });
  return socket;
}

it('exits within its deadline under trickling clients, after finishing an upload in flight', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'harden-shutdown-'));
  dirs.push(dataDir);
  // A stored token for account 1: it outlives the start (the control token of a start does not).
  const token = execFileSync(process.execPath, [STATION_BIN, 'token', 'create', '--account', '1', '--data-dir', dataDir], { encoding: 'utf8' }).trim();
  const station = await startStation({ dataDir, env: { RETURNS_STATION_SHUTDOWN_DEADLINE_MS: '3000' } });
  const ret = await call(station.origin, 'POST', '/returns', { token, body: { ...returnBody(), account_id: 1 } });
  const pkg = await call(station.origin, 'POST', '/api/v1/accounts/1/return_packages', { token, body: packageBody((ret.json as { id: number }).id) });
  const uploadPath = `/api/v1/accounts/1/return_packages/${(pkg.json as { id: number }).id}/media_files`;
  const host = new URL(station.origin).host;

  for (let i = 0; i < SLOW_CLIENTS / 2; i++) {
    // Headers that never end.
    trickler(station.origin, `GET /api/v1/station HTTP/1.1\r\nHost: ${host}\r\n`, 'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n');
    // A body that never ends.
    trickler(
      station.origin,
      `POST ${uploadPath} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/pdf\r\nContent-Length: 10000000\r\n\r\n%PDF-1.7\n`,
      'x',
    );
  }
  // An upload in flight when the signal comes, whose body arrives in full a second later.
  const pdf = Buffer.from(`%PDF-1.7\n${'y'.repeat(2000)}\n%%EOF\n`);
  const inFlight = new Promise<string>((resolve) => {
    const url = new URL(station.origin);
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST ${uploadPath} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/pdf\r\nContent-Length: ${pdf.length}\r\nConnection: close\r\n\r\n`,
      );
      socket.write(pdf.subarray(0, 100));
      setTimeout(() => socket.write(pdf.subarray(100)), 1000);
    });
    sockets.push(socket);
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
  });
  await sleep(1500);

  const started = performance.now();
  const exit = await station.stop();
  const seconds = (performance.now() - started) / 1000;
  console.info(`shutdown: exit ${exit} after ${seconds.toFixed(2)} s with ${SLOW_CLIENTS} trickling clients (deadline 3 s)`);
  expect(exit).toBe(0);
  expect(seconds).toBeLessThan(3 + 3);
  expect(await inFlight).toMatch(/^HTTP\/1\.1 201 /);

  // Nothing half-written: the station starts again on the directory and the finished upload is there.
  const again = await startStation({ dataDir });
  const list = await call(again.origin, 'GET', `/api/v1/accounts/1/return_packages/${(pkg.json as { id: number }).id}`, { token });
  expect((list.json as { media_files: unknown[] }).media_files).toHaveLength(1);
  expect(await again.stop()).toBe(0);
}, 90_000);
