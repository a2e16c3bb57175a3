import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorBody, errorBody } from '#shared/api/errors.ts';

/** Node's limit on the request line and headers together (`--max-http-header-size`, 16 KiB). */
const MAX_HEADER_BYTES = 16 * 1024;

function answerFor(code: string | undefined): [number, ErrorBody] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [413, errorBody('PAYLOAD_TOO_LARGE', 'The request line and headers are larger than 16 KiB.', { limit_bytes: MAX_HEADER_BYTES })];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [400, errorBody('MALFORMED_JSON', 'The request did not arrive in time.')];
    default:
      return [400, errorBody('MALFORMED_JSON', 'The request could not be read as HTTP/1.1 (bad request line, header, URL byte or framing).')];
  }
}

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses (bad bytes in the URL,
 * Content-Length with Transfer-Encoding, a garbage request line, oversized headers, a request that
 * did not arrive in time) get the contract's one error shape, then the connection is closed —
 * the parser cannot find the next request on it.
 */
export function writeClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, body] = answerFor(error.code);
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      'Cache-Control: no-store\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      `Content-Length: ${Buffer.byteLength(json)}\r\n` +
      'Connection: close\r\n\r\n' +
      json,
  );
}
