import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorBodySchema } from '#shared/api/errors.ts';
import { expectNoInternals } from '../api/support.ts';
import { type RunningStation, startStation } from '../support/station-process.ts';

/*
 * Requests Node's HTTP parser itself refuses still get the contract's one error shape, from the
 * real `serve`: raw bytes are sent over a socket, the whole answer is read back.
 */

let station: RunningStation;
beforeAll(async () => {
  station = await startStation();
});
afterAll(() => station.stop());

function send(bytes: Buffer): Promise<string> {
  const url = new URL(station.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy());
  });
}

const host = () => new URL(station.origin).host;
const CASES: Array<[string, () => Buffer, number]> = [
  [
    'a raw non-UTF-8 byte in the URL',
    () => Buffer.concat([Buffer.from('GET /api/v1/station/'), Buffer.from([0xff]), Buffer.from(` HTTP/1.1\r\nHost: ${host()}\r\n\r\n`)]),
    400,
  ],
  [
    'Content-Length and Transfer-Encoding together',
    () => Buffer.from(`POST /returns HTTP/1.1\r\nHost: ${host()}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`),
    400,
  ],
  ['a garbage request line', () => Buffer.from('HELLO THERE\r\n\r\n'), 400],
  ['a binary request line', () => Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, 0x0d, 0x0a, 0x0d, 0x0a]), 400],
  ['a 20 KB header', () => Buffer.from(`GET /healthz HTTP/1.1\r\nHost: ${host()}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), 413],
  ['a control character in a header value', () => Buffer.from(`GET /healthz HTTP/1.1\r\nHost: ${host()}\r\nX-Bad: a\u0001b\r\n\r\n`), 400],
  [
    'an invalid chunk size',
    () => Buffer.from(`POST /returns HTTP/1.1\r\nHost: ${host()}\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`),
    400,
  ],
];

it.each(CASES)('%s gets the contract error shape', async (_what, bytes, status) => {
  const answer = await send(bytes());
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  expect(head, answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
  expect(head.toLowerCase()).toContain('content-type: application/json');
  const parsed = ErrorBodySchema.strict().safeParse(JSON.parse(body));
  expect(parsed.success, body).toBe(true);
  expectNoInternals(body);
  // The station is still there.
  expect((await fetch(`${station.origin}/healthz`)).status).toBe(200);
});
