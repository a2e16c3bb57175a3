import type { FastifyInstance, FastifyRequest } from 'fastify';

/*
 * Fair share between callers (docs/api-decisions.md, Fair share). The station serves every request on
 * one event loop, interleaving all those in progress, so an integration that keeps sixteen requests
 * going would take sixteen shares of the loop for each one of the dock screen's. While more than one
 * caller (a token; an address, without one) is active, each has at most `perCaller` requests in
 * progress and its further ones wait their turn, in order. A caller alone is not held back (a bulk
 * import at night gets the whole station). A caller counts as active while it has a request in
 * progress and for a second after: the screen's next request follows the last one within that.
 * Live event streams and media uploads are not counted (notCounted).
 */

export const DEFAULT_REQUESTS_IN_PROGRESS_PER_CALLER = 4;
/** How long a caller counts as active after its last request ended. */
const ACTIVE_FOR_MS = 1000;

interface Caller {
  inProgress: number;
  waiting: Array<() => void>;
  lastEnded: number;
}

/**
 * Live event streams stay open for hours; media uploads spend their time waiting for bytes from the
 * network, not on the loop, and a screen uploading photos over slow Wi-Fi must not queue its own scans.
 */
function notCounted(request: FastifyRequest): boolean {
  const route = request.routeOptions.url ?? '';
  return route.endsWith('/events') || (request.method === 'POST' && route.endsWith('/media_files'));
}

function callerOf(request: FastifyRequest): string {
  return request.principal ? `token:${request.principal.tokenId}` : `address:${request.ip}`;
}

export function shareFairly(server: FastifyInstance, perCaller = DEFAULT_REQUESTS_IN_PROGRESS_PER_CALLER): void {
  const callers = new Map<string, Caller>();

  /** Whether any caller but `key` is active; callers long idle are forgotten on the way. */
  const othersActive = (key: string, now: number): boolean => {
    let active = false;
    for (const [other, caller] of callers) {
      if (other === key) continue;
      const idle = caller.inProgress === 0 && caller.waiting.length === 0;
      if (idle && now - caller.lastEnded >= ACTIVE_FOR_MS) callers.delete(other);
      else active = true;
    }
    return active;
  };
  const mayStart = (key: string, caller: Caller): boolean => caller.inProgress < perCaller || !othersActive(key, Date.now());

  // A done callback, not async: a request that may start at once (nearly all) costs no promise.
  server.addHook('onRequest', (request, reply, done) => {
    if (notCounted(request)) return done();
    const key = callerOf(request);
    let found = callers.get(key);
    if (!found) {
      found = { inProgress: 0, waiting: [], lastEnded: 0 };
      callers.set(key, found);
    }
    const caller = found;
    let state = 'waiting' as 'waiting' | 'working' | 'done';
    const start = () => {
      state = 'working';
      caller.inProgress += 1;
    };
    const wake = () => {
      start();
      done();
    };
    // However the exchange ends (answered, failed, or the caller hung up), its place is given back once.
    reply.raw.once('close', () => {
      if (state === 'working') {
        caller.inProgress -= 1;
        caller.lastEnded = Date.now();
        while (caller.waiting.length > 0 && mayStart(key, caller)) caller.waiting.shift()?.();
      } else if (state === 'waiting') {
        caller.waiting.splice(caller.waiting.indexOf(wake), 1);
        // The caller hung up before its turn: nothing to answer, nothing to do.
        reply.hijack();
        done();
      }
      state = 'done';
    });
    if (caller.waiting.length === 0 && mayStart(key, caller)) {
      start();
      return done();
    }
    caller.waiting.push(wake);
  });
}
