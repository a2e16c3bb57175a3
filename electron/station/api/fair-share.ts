import type { FastifyInstance, FastifyRequest } from 'fastify';

/*
 * Fair share between callers. Each token (each address, without one) has at most `perCaller` requests
 * being worked on at once; its further requests wait their turn in its own queue, in order. The
 * station does its work on one event loop, interleaving every request in progress, so an integration
 * that keeps sixteen requests going would otherwise take sixteen shares of it for each one of the dock
 * screen's; with the gate the screen's request shares the loop with at most `perCaller` of them.
 * Rate limits bound how much a caller may ask per hour; this bounds how much of the station it holds
 * at once. Live event streams stay open for hours and are not counted.
 */

export const DEFAULT_REQUESTS_IN_PROGRESS_PER_CALLER = 4;

interface Gate {
  active: number;
  waiting: Array<() => void>;
}

function callerOf(request: FastifyRequest): string {
  return request.principal ? `token:${request.principal.tokenId}` : `address:${request.ip}`;
}

export function shareFairly(server: FastifyInstance, perCaller = DEFAULT_REQUESTS_IN_PROGRESS_PER_CALLER): void {
  const gates = new Map<string, Gate>();

  server.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url?.endsWith('/events')) return;
    const key = callerOf(request);
    let gate = gates.get(key);
    if (!gate) {
      gate = { active: 0, waiting: [] };
      gates.set(key, gate);
    }
    const own = gate;
    let state = 'waiting' as 'waiting' | 'working' | 'done';
    let wake = () => {
      state = 'working';
    };
    // However the exchange ends (answered, failed, or the caller hung up), its place is given back once.
    reply.raw.once('close', () => {
      if (state === 'working') {
        const next = own.waiting.shift();
        if (next) next();
        else if (--own.active === 0) gates.delete(key);
      } else if (state === 'waiting') {
        own.waiting.splice(own.waiting.indexOf(wake), 1);
        hungUp();
      }
      state = 'done';
    });
    let hungUp: () => void = () => undefined;
    if (own.active < perCaller) {
      own.active += 1;
      wake();
      return;
    }
    await new Promise<void>((resolve) => {
      const turn = wake;
      wake = () => {
        turn();
        resolve();
      };
      hungUp = resolve;
      own.waiting.push(wake);
    });
    // The caller hung up before its turn: nothing to answer, nothing to do.
    if ((state as string) === 'done') reply.hijack();
  });
}
