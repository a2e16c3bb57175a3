/*
 * How many consumers share the upstream's rate budget (docs/decisions/sync.md, "Rate budget"). The
 * upstream's limit may be per token or per account (its spec does not say), and several stations
 * may sync one account: then `X-RateLimit-Remaining` falls faster than this station's own requests
 * explain. Every answer that shows Remaining lower than the lowest figure seen in the window is a
 * sample: the fall, and this station's own requests since that lowest figure (answered or lost);
 * what the own ones do not explain is the others'. Both are summed with an exponential decay
 * (half-life 10 minutes), and the share is 1 + others / own: N stations alike read about N, and it
 * decays back to 1 once the others go quiet.
 *
 * Not samples: the first answer (nothing to compare), an answer from a new window (Remaining jumps
 * up, or the window's reset time passed), and an answer whose Remaining is above the lowest by no
 * more than the own requests that were in flight when the lowest was read (answers that crossed on
 * the way: its request was counted before the lowest one's). Its own request still counts for the
 * next sample, which makes up for the fall it was left out of.
 */

export const SHARE_HALF_LIFE_MS = 10 * 60_000;
/** The estimate never reads more than this (a budget read with few own requests can look huge). */
export const SHARE_MAX = 64;

export interface ShareEstimator {
  /** An answer that carried X-RateLimit-Remaining; `inFlight`: own requests still unanswered besides it; `resetAt` when its window ends (ms), if known. */
  answered(remaining: number, resetAt: number | null, inFlight: number): void;
  /** An answer without Remaining, or none at all (lost): the upstream may still have counted the request. */
  uncounted(): void;
  /** Consumers sharing the budget, this station included: ≥ 1. */
  share(): number;
}

export function createShareEstimator(options: { now?: () => number; halfLifeMs?: number } = {}): ShareEstimator {
  const now = options.now ?? Date.now;
  const halfLife = options.halfLifeMs ?? SHARE_HALF_LIFE_MS;
  /** Lowest Remaining seen in the current window; null before the first answer. */
  let lowest: number | null = null;
  let windowEndsAt: number | null = null;
  /** Own requests since `lowest` was read. */
  let ownSince = 0;
  /** Own requests that were in flight when `lowest` was read: their answers may still show more. */
  let crossing = 0;
  let own = 0;
  let others = 0;
  let decayedAt = now();

  const decay = () => {
    const at = now();
    if (at <= decayedAt) return;
    const factor = 0.5 ** ((at - decayedAt) / halfLife);
    own *= factor;
    others *= factor;
    decayedAt = at;
  };

  return {
    answered(remaining, resetAt, inFlight) {
      decay();
      ownSince += 1;
      const at = now();
      const late = lowest !== null && remaining > lowest && remaining - lowest <= Math.max(crossing, inFlight);
      const newWindow = lowest === null || (windowEndsAt !== null && at >= windowEndsAt) || (remaining > lowest && !late);
      if (newWindow) {
        lowest = remaining;
        windowEndsAt = resetAt;
        ownSince = 0;
        crossing = inFlight;
        return;
      }
      if (late) crossing = Math.max(0, crossing - 1);
      if (resetAt !== null) windowEndsAt = windowEndsAt === null ? resetAt : Math.min(windowEndsAt, resetAt);
      if (lowest === null || remaining >= lowest) return; // crossed on the way, or not counted: no sample yet
      const fall = lowest - remaining;
      own += ownSince;
      others += Math.max(0, fall - ownSince);
      lowest = remaining;
      ownSince = 0;
      crossing = inFlight;
    },
    uncounted() {
      ownSince += 1;
    },
    share() {
      decay();
      return Math.min(SHARE_MAX, 1 + others / Math.max(own, 1));
    },
  };
}
