import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_REQUESTS_IN_PROGRESS_PER_CALLER as PER_CALLER } from '../../electron/station/api/fair-share.ts';
import { call, createReturn, sleep, startStation, type TestStation } from './support.ts';

/*
 * Fair share (docs/api-decisions.md, Fair share): while another caller is active, one caller holds at
 * most a few requests in progress; its further requests wait their turn in order, another caller's
 * request goes through at once, and a caller that hangs up while waiting gives its place back. A
 * caller alone is not held back.
 */

let s: TestStation;
beforeAll(async () => {
  s = await startStation();
});
afterAll(async () => {
  await s.close();
});

/** A request whose body never finishes arriving: it holds its caller's place until `finish`. */
async function slowRequest(token: string): Promise<{ finish(): Promise<string>; hangUp(): void }> {
  const url = new URL(s.origin);
  const socket: Socket = connect(Number(url.port), url.hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  const body = JSON.stringify({ email: 'slow@example.com' });
  socket.write(
    `POST /returns HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
  );
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  // The station has read the head (and taken or queued its place) before this resolves.
  await sleep(50);
  return {
    finish: () =>
      new Promise((resolve) => {
        socket.once('close', () => resolve(answer));
        socket.write(body);
      }),
    hangUp: () => socket.destroy(),
  };
}

/** Whether `promise` settles within `ms`. */
async function settlesWithin<T>(promise: Promise<T>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
}

it('a caller alone is not held back', async () => {
  const slow = await Promise.all(Array.from({ length: PER_CALLER + 2 }, () => slowRequest(s.account1)));
  expect((await call(s.origin, 'GET', '/returns', { token: s.account1 })).status).toBe(200);
  for (const request of slow) await request.finish();
});

it('beside another active caller, a caller with every place taken waits its turn; the other goes through at once', async () => {
  // The dock screen (the station token) is active: a request of its own in progress.
  const screen = await slowRequest(s.stationToken);
  const slow = await Promise.all(Array.from({ length: PER_CALLER }, () => slowRequest(s.account1)));
  const queued = call(s.origin, 'GET', '/returns', { token: s.account1 });
  expect(await settlesWithin(queued, 300), 'the fifth request of a busy caller waits').toBe(false);
  // The screen's next request is not held up behind it.
  const other = await call(s.origin, 'GET', '/api/v1/station', { token: s.stationToken });
  expect(other.status).toBe(200);
  await screen.finish();

  // One slow request finishes (refused: its body is not a whole return): the queued one's turn.
  expect(await (slow[0]?.finish() ?? '')).toMatch(/^HTTP\/1\.1 422/);
  expect((await queued).status).toBe(200);
  for (const request of slow.slice(1)) await request.finish();
});

it('a caller that hangs up while waiting gives its place back, and nothing is left held', async () => {
  const screen = await slowRequest(s.stationToken);
  const slow = await Promise.all(Array.from({ length: PER_CALLER }, () => slowRequest(s.account2)));
  const waiting = await slowRequest(s.account2);
  waiting.hangUp();
  for (const request of slow) await request.finish();
  await screen.finish();
  // Every place is free again: as many requests as places, and one more, all answered.
  const answers = await Promise.all(Array.from({ length: PER_CALLER + 1 }, () => call(s.origin, 'GET', '/returns', { token: s.account2 })));
  expect(answers.map((a) => a.status)).toEqual(Array.from({ length: PER_CALLER + 1 }, () => 200));
  await createReturn(s.origin, s.account2);
});

it("photo uploads in progress do not hold a caller's places: its scans go on beside them", async () => {
  const screen = await slowRequest(s.stationToken);
  const ret = await createReturn(s.origin, s.account1);
  const pkg = await call(s.origin, 'POST', '/api/v1/accounts/1/return_packages', {
    token: s.account1,
    body: { return_id: ret.id, tracking_number: `FAIR${Date.now()}` },
  });
  const id = (pkg.json as { id: number }).id;
  const url = new URL(s.origin);
  const uploads: Socket[] = [];
  for (let i = 0; i < PER_CALLER + 1; i++) {
    const socket = connect(Number(url.port), url.hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    // The head of a large upload whose bytes are still on their way.
    socket.write(
      `POST /api/v1/accounts/1/return_packages/${id}/media_files HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${s.account1}\r\nContent-Type: image/jpeg\r\nContent-Length: 100000\r\n\r\n`,
    );
    uploads.push(socket);
  }
  await sleep(100);
  expect(await settlesWithin(call(s.origin, 'GET', '/returns', { token: s.account1 }), 2000)).toBe(true);
  for (const socket of uploads) socket.destroy();
  await screen.finish();
});
