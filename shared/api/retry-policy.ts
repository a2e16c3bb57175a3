import { ApiError } from './api-error.ts';

/*
 * The one rule for work sent to the station until it lands: the dock's line, package and upload
 * queues and the event stream's reconnects all follow it. It says which failures are worth another
 * try and which are refusals to show, how long to wait before the next try, and what ends a wait at
 * once: the station answering again. A queue says only what it sends and what it does with an answer.
 */

/**
 * Whether another try may land: no answer came (the station unreachable), or the station was busy
 * (408, 429) or failing (5xx). Any other answer is a refusal the same request would get again, so it
 * is shown to the worker, not retried: a bad request (4xx), a token no longer valid, or an answer
 * the client could not read (a 2xx of another shape: resending it brings the same answer back).
 */
export function worthRetrying(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 408 || error.status === 429 || error.status >= 500;
}

/**
 * Calls every wait for the station short when it answers again (the page's link tells it), so work
 * held while it was away goes at once, not after the rest of a backoff.
 */
export class StationBack {
  readonly #waiting = new Set<() => void>();

  /** The station answers again after it was away (or for the first time): every wait for it ends now. */
  arrived(): void {
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const wake of waiting) wake();
  }

  /** Calls `wake` when the station is next back; returns what forgets it. */
  onArrival(wake: () => void): () => void {
    this.#waiting.add(wake);
    return () => this.#waiting.delete(wake);
  }
}

export interface RetryPolicy {
  /** The wait before the first retry; each further one doubles it, up to `maxMs`. */
  firstMs: number;
  maxMs: number;
  /** Ends a wait at once when the station is back (none: waits run their full time). */
  stationBack?: StationBack | undefined;
}

/**
 * The dock's queues: a first retry after half a second (a blip costs the worker nothing), then
 * doubling to 8 s; a station that comes back is tried at once whatever the wait.
 */
export const DOCK_RETRY: RetryPolicy = { firstMs: 500, maxMs: 8000 };

/**
 * How long to wait after try number `attempt` (0: the first) failed with `error`: the policy's
 * doubling backoff, never sooner than the station asked (`retry_after_seconds` of a 429 or 503).
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, error: unknown): number {
  const backoff = Math.min(policy.maxMs, policy.firstMs * 2 ** Math.min(attempt, 30));
  return Math.max(backoff, askedWaitMs(error));
}

/** The wait the station asked for in its answer, in ms (0: none). */
function askedWaitMs(error: unknown): number {
  const seconds = error instanceof ApiError ? error.details.retry_after_seconds : undefined;
  return typeof seconds === 'number' && seconds > 0 ? seconds * 1000 : 0;
}

/**
 * Waits before the next try after `attempt` failed with `error`: the delay of `retryDelayMs`, ended
 * early when `signal` aborts, or when the station is back — unless the station itself asked for the
 * wait (it answered, so it is not "back"; it said when).
 */
export function waitToRetry(policy: RetryPolicy, attempt: number, error: unknown, signal?: AbortSignal): Promise<void> {
  const ms = retryDelayMs(policy, attempt, error);
  const wakeable = askedWaitMs(error) === 0;
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      forget();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const forget = wakeable && policy.stationBack ? policy.stationBack.onArrival(done) : () => undefined;
    signal?.addEventListener('abort', done, { once: true });
  });
}

export interface RetryHooks {
  /** Try number `attempt` failed with `error`, which is worth another try: the queue shows it waiting. */
  onRetry?(error: unknown, attempt: number): void;
  /** Aborted: the work was withdrawn (an undo); no further try, and the call rejects with the abort's reason. */
  signal?: AbortSignal;
}

/**
 * Sends with `send` until an answer lands (its value) or the station refuses (rejects with the
 * refusal, see `worthRetrying`). Each try calls `send` anew, so it sends what is wanted by then.
 */
export async function untilLanded<T>(send: () => Promise<T>, policy: RetryPolicy, hooks: RetryHooks = {}): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    hooks.signal?.throwIfAborted();
    try {
      return await send();
    } catch (error) {
      hooks.signal?.throwIfAborted();
      if (!worthRetrying(error)) throw error;
      hooks.onRetry?.(error, attempt);
      await waitToRetry(policy, attempt, error, hooks.signal);
    }
  }
}
