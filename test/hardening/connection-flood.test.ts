import { connect, type Socket } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { sleep } from '../api/support.ts';
import { startStation } from '../support/station-process.ts';

/*
 * A flood of slow connections (headers that never end) from a local process without a token must
 * not make the station unreachable: the UI's own requests still answer while the flood is held.
 * The station runs with a file limit of 1024 (a common default), so an uncapped station runs out
 * of file descriptors long before the flood ends.
 */

const FLOOD = 3000;
const sockets: Socket[] = [];
afterAll(() => {
  for (const socket of sockets) socket.destroy();
});

/** Opens `count` connections that send a request line and then one header byte every second. */
async function flood(origin: string, count: number): Promise<void> {
  const url = new URL(origin);
  for (let i = 0; i < count; i++) {
    const socket = connect(Number(url.port), url.hostname);
    socket.on('error', () => undefined);
    socket.on('connect', () => socket.write(`GET /healthz HTTP/1.1\r\nHost: ${url.host}\r\nX-Slow: `));
    const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write('a')), 1000);
    socket.on('close', () => clearInterval(timer));
    sockets.push(socket);
    if (i % 100 === 99) await sleep(5);
  }
}

/** A UI-like request on a new connection (fetch without keep-alive reuse across floods): its latency in ms, or null when it failed. */
async function uiRequest(origin: string, token: string): Promise<number | null> {
  const started = performance.now();
  try {
    const response = await fetch(`${origin}/api/v1/station`, {
      headers: { authorization: `Bearer ${token}`, connection: 'close' },
      signal: AbortSignal.timeout(5000),
    });
    await response.arrayBuffer();
    return response.status === 200 ? performance.now() - started : null;
  } catch {
    return null;
  }
}

it(`answers the UI while ${FLOOD} slow connections are held`, async () => {
  const station = await startStation({ fileLimit: 1024 });
  try {
    const rounds: Array<{ opened: number; held: number; latencies: Array<number | null> }> = [];
    for (const target of [0, 500, FLOOD]) {
      await flood(station.origin, target - sockets.length);
      await sleep(1000);
      const latencies: Array<number | null> = [];
      for (let i = 0; i < 10; i++) latencies.push(await uiRequest(station.origin, station.stationToken));
      rounds.push({ opened: sockets.length, held: sockets.filter((s) => !s.destroyed).length, latencies });
    }
    for (const round of rounds) {
      const ok = round.latencies.filter((l): l is number => l !== null).sort((a, b) => a - b);
      console.info(
        `flood: ${round.opened} slow connections opened, ${round.held} of them still open, UI requests ${ok.length}/10 answered, median ${ok[Math.floor(ok.length / 2)]?.toFixed(1) ?? '-'} ms, max ${ok.at(-1)?.toFixed(1) ?? '-'} ms`,
      );
    }
    for (const round of rounds) expect(round.latencies.every((l) => l !== null)).toBe(true);
  } finally {
    for (const socket of sockets) socket.destroy();
    expect(await station.stop()).toBe(0);
  }
}, 120_000);
