import { createShareEstimator } from './budget-share.ts';
import { createUpstreamGate, type GateState, upstreamFailing } from './upstream-gate.ts';

/*
 * One request budget per upstream, fed by every answer's X-RateLimit-* headers (docs/decisions/sync.md):
 * never spend the last 5 % of a window, pace the rest once half of it is used, honour 429 and
 * Retry-After, and keep a further 20 % for pushes so background pulls give way to dock work.
 * Between them, `dock`: a read for the package the dock just opened (fresh-reads.ts) stops 10 % earlier
 * than pushes and 10 % later than pulls, and never waits more than a second (the screen is shown).
 * It also holds the upstream's gate (upstream-gate.ts: a failing upstream is not hammered) and
 * estimates how many consumers share the budget (budget-share.ts); pulls pace that many times slower.
 */

export type RequestPriority = 'push' | 'dock' | 'pull';

const RESERVE = 0.05;
const PULL_RESERVE = 0.2;
const DOCK_RESERVE = 0.1;
/** How long a request of each priority may wait for the budget before it gives way (pushes always wait). */
const GIVE_WAY_MS: Record<RequestPriority, number> = { push: Number.POSITIVE_INFINITY, dock: 1_000, pull: 5_000 };
/** A request waiting for the gate's probe looks again this often. */
const PROBE_POLL_MS = 1_000;

export interface RateBudgetOptions {
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** For the gate's jitter. */
  random?: () => number;
}

export interface RateBudget {
  /**
   * Waits until a request of this priority may go; resolves false when it should not wait (a pull or
   * a dock read over budget). Throws UpstreamBackingOffError while the upstream's gate is closed;
   * after a backoff the first caller is the probe and the others wait for its answer.
   */
  acquire(priority: RequestPriority): Promise<boolean>;
  /** Reads the limit headers of an answer (and Retry-After of a 429 or a 5xx). Every acquired request ends in this or `unreachable`. */
  observe(status: number, headers: Headers): void;
  /** An acquired request got no answer (network error, timeout, reset): the upstream backs off. */
  unreachable(reason: string): void;
  /** An acquired request ended without telling anything of the upstream (called off by the station itself). */
  released(): void;
  /** The upstream's gate: when it opens (`opensAt`; null: open), whether its probe is out, the failures in a row. */
  gate(): GateState;
  /** How many consumers share this budget, this station included (≥ 1; 1 when Remaining falls only by its own requests). */
  share(): number;
  /** For diagnostics and tests. */
  snapshot(): { limit: number | null; remaining: number | null; resetAt: number | null; blockedUntil: number };
}

export function createRateBudget(options: RateBudgetOptions = {}): RateBudget {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let limit: number | null = null;
  let remaining: number | null = null;
  let resetAt: number | null = null;
  let blockedUntil = 0;
  /** Requests sent since the last answer we read headers from (in flight or lost). */
  let unaccounted = 0;
  /** Requests sent and not yet answered (or lost). */
  let inFlight = 0;
  /** When the last request was let go (pacing spaces requests from it). */
  let lastSentAt = Number.NEGATIVE_INFINITY;
  const gate = createUpstreamGate({ now, sleep, ...(options.random ? { random: options.random } : {}) });
  const shares = createShareEstimator({ now });

  function waitMs(priority: RequestPriority): number {
    const at = now();
    if (blockedUntil > at) return blockedUntil - at;
    if (limit === null || remaining === null || resetAt === null) return 0;
    if (resetAt <= at) {
      // The window has reset: assume a full one until an answer says otherwise.
      remaining = limit;
      resetAt = null;
      return 0;
    }
    const reserve = Math.ceil(limit * (priority === 'push' ? RESERVE : priority === 'dock' ? RESERVE + DOCK_RESERVE : RESERVE + PULL_RESERVE));
    const spendable = remaining - unaccounted - reserve;
    if (spendable <= 0) return resetAt - at + 50;
    // Past half the window's requests: spread what is left evenly over the time that is left, one
    // request every `spacing` after the last one. Pulls give way first: when others share the
    // budget, they space theirs that many times wider.
    if (remaining - unaccounted < limit / 2) {
      const spacing = ((resetAt - at) / spendable) * (priority === 'pull' ? shares.share() : 1);
      return Math.max(0, Math.ceil(lastSentAt + spacing - at));
    }
    return 0;
  }

  return {
    async acquire(priority) {
      for (;;) {
        const wait = waitMs(priority);
        if (wait > 0) {
          // A pull (or a dock read) that would have to wait long gives way: the next round tries again.
          if (wait > GIVE_WAY_MS[priority]) return false;
          await sleep(Math.min(wait, 60_000));
          continue;
        }
        // Then the gate: throws while closed; while its probe is out, wait for the probe's answer.
        if (gate.admit() !== 'wait') break;
        await gate.settled(PROBE_POLL_MS);
      }
      unaccounted += 1;
      inFlight += 1;
      lastSentAt = now();
      return true;
    },
    observe(status, headers) {
      // Requests go one at a time: this answer's figures include every request before it.
      unaccounted = 0;
      inFlight = Math.max(0, inFlight - 1);
      const l = Number(headers.get('x-ratelimit-limit'));
      const r = Number(headers.get('x-ratelimit-remaining'));
      const reset = Number(headers.get('x-ratelimit-reset'));
      if (headers.has('x-ratelimit-limit') && Number.isFinite(l) && l > 0) limit = l;
      if (headers.has('x-ratelimit-remaining') && Number.isFinite(r) && r >= 0) remaining = r;
      if (headers.has('x-ratelimit-reset') && Number.isFinite(reset) && reset >= 0) {
        // Seconds until the window resets (the contract's reading); an epoch value is taken as such.
        resetAt = reset > 1e9 ? reset * 1000 : now() + reset * 1000;
      }
      if (headers.has('x-ratelimit-remaining') && Number.isFinite(r) && r >= 0) shares.answered(r, resetAt, inFlight);
      else shares.uncounted();
      if (status === 429) {
        const retryAfter = retryAfterMs(headers.get('retry-after'), now());
        blockedUntil = Math.max(blockedUntil, now() + (retryAfter ?? (resetAt !== null ? resetAt - now() : 60_000)));
      }
      if (upstreamFailing(status)) gate.failed(`HTTP ${status}`, retryAfterMs(headers.get('retry-after'), now()));
      else gate.succeeded();
    },
    unreachable(reason) {
      inFlight = Math.max(0, inFlight - 1);
      shares.uncounted();
      gate.failed(reason, null);
    },
    released() {
      inFlight = Math.max(0, inFlight - 1);
    },
    gate: () => gate.state(),
    share: () => shares.share(),
    snapshot() {
      return { limit, remaining, resetAt, blockedUntil };
    },
  };
}

/** `Retry-After` as seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, nowMs: number): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}
