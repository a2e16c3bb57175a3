import type { FastifyInstance } from 'fastify';
import { fail } from '../../errors.ts';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function hostName(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1).toLowerCase();
  return hostHeader.split(':')[0]?.toLowerCase() ?? '';
}

export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  return LOOPBACK_NAMES.has(name) || /^127(\.\d{1,3}){3}$/.test(name) || name.endsWith('.localhost');
}

/**
 * DNS-rebinding defence: a station bound to loopback answers only requests addressed to a loopback
 * name, so a web page whose domain was re-pointed at 127.0.0.1 cannot read it.
 */
export function guardLoopbackHost(server: FastifyInstance, isBoundToLoopback: () => boolean): void {
  // Synchronous (a done callback): every request passes it. The last Host allowed is remembered
  // (a station is addressed by one or two names).
  let allowed: string | undefined;
  server.addHook('onRequest', (request, _reply, done) => {
    const host = request.headers.host ?? '';
    if (host === allowed || !isBoundToLoopback()) return done();
    if (!isLoopbackHost(hostName(host))) return done(fail('MISDIRECTED_REQUEST'));
    allowed = host;
    done();
  });
}
