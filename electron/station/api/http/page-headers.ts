import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The browser security headers of the station's pages (UI, API reference, `/healthz`), worked out
 * once by helmet at start. helmet's answer depends on its options only (no nonces, nothing taken
 * from the request), so every page gets the same set; @fastify/helmet rebuilt the whole middleware
 * chain, CSP parsing included, on every request (docs/decisions/request-pipeline.md).
 */
export function pageSecurityHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: () => undefined,
  };
  let done = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => (done = true));
  if (!done || !headers['content-security-policy']) throw new Error('helmet did not produce the page security headers at start.');
  return Object.freeze(headers);
}
