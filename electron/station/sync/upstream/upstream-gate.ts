import type { UpstreamAnswer } from './answers.ts';

/*
 * The gate in front of one upstream (docs/decisions/sync.md, "Errors by kind"): a 5xx answer or a
 * request without an answer closes it for every request of every account and priority through the
 * upstream's rate budget, for Retry-After plus a random extra when the answer says one, else for an
 * exponential backoff with full jitter. Once that time is over the first request is a probe, alone:
 * the others wait for its answer. A success (any answer below 500) opens the gate and forgets the
 * failures; a failure closes it again, longer. During a 30-second outage eight stations had sent
 * 1,252 requests: every change backed off on its own and the round went on to the next one.
 */

/** The first backoff's ceiling; it doubles with every failure in a row, up to the cap. */
export const GATE_BASE_MS = 2_000;
export const GATE_CAP_MS = 5 * 60_000;
/** Never less (full jitter can draw zero: that would be a loop, not a backoff). */
export const GATE_FLOOR_MS = 250;
/** A Retry-After is honoured up to this (an hour: the returns endpoints' window). */
export const RETRY_AFTER_MAX_MS = 60 * 60_000;
/** The random extra on top of a Retry-After: up to 20 % of it, at least up to a second. */
const RETRY_AFTER_JITTER = 0.2;
const RETRY_AFTER_JITTER_MIN_MS = 1_000;
/** A probe without an answer after this long is taken for lost (only a bug leaves one so: the client always reports). */
export const PROBE_STALE_MS = 10 * 60_000;

/**
 * Whether an answer means the upstream itself is failing: 500–599 except 501, which an upstream
 * answers for a route it does not have (media, line items: package-link-maps.ts), not for its health.
 */
export function upstreamFailing(status: number): boolean {
  return status >= 500 && status <= 599 && status !== 501;
}

/**
 * Thrown instead of sending while the gate is closed, and by a push that got a failing answer (the
 * round stops there: the gate is closed for the requests after it). `answer` is that answer.
 */
export class UpstreamBackingOffError extends Error {
  readonly answer: UpstreamAnswer | null;
  constructor(message: string, answer: UpstreamAnswer | null = null) {
    super(message);
    this.name = 'UpstreamBackingOffError';
    this.answer = answer;
  }
}

export interface GateState {
  /** Until when (ms) nothing is sent; null when the gate is open. Past: the next request is the probe. */
  opensAt: number | null;
  /** A probe is out: the other requests wait for its answer. */
  probing: boolean;
  /** Failures in a row. */
  failures: number;
  /** What closed it: `HTTP 503`, or the network error. */
  reason: string | null;
  /** Outages it saw end: successes after at least `OUTAGE_FAILURES` failures in a row, and when the last one ended. */
  recoveries: number;
  recoveredAt: number | null;
}

/** Failures in a row that make an outage (a single 5xx may be one record's trouble, not the upstream's). */
export const OUTAGE_FAILURES = 2;

export type Admission = 'go' | 'probe' | 'wait';

export interface UpstreamGate {
  /** Throws UpstreamBackingOffError while closed; 'probe': this request is the probe; 'wait': a probe is out (await `settled`). */
  admit(): Admission;
  /** Resolves at the next answer or failure (or after `pollMs`, to look again). */
  settled(pollMs: number): Promise<void>;
  /** An answer below 500 (or 501): the upstream works. */
  succeeded(): void;
  /** A failing answer (`retryAfterMs` from its header, null when none) or no answer at all. */
  failed(reason: string, retryAfterMs: number | null): void;
  state(): GateState;
}

export interface UpstreamGateOptions {
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * How long the gate stays closed after the `failures`-th failure in a row. With a Retry-After: never
 * earlier than it, plus a random extra of up to 20 % of it (at least up to a second) for each
 * failure in a row, at most as much again as the Retry-After (or a second): the upstream said when
 * to come back, a probe that fails again comes a little later, and recovery is seen within about
 * twice the Retry-After. Without: full jitter, uniform in [0, min(cap, base × 2^(failures − 1))], at
 * least GATE_FLOOR_MS.
 */
export function gateBackoffMs(failures: number, retryAfterMs: number | null, random: () => number = Math.random): number {
  const inARow = Math.min(Math.max(failures, 1), 30);
  if (retryAfterMs === null) return Math.max(GATE_FLOOR_MS, Math.floor(random() * Math.min(GATE_CAP_MS, GATE_BASE_MS * 2 ** (inARow - 1))));
  const after = Math.min(Math.max(0, retryAfterMs), RETRY_AFTER_MAX_MS);
  const spread = Math.min(Math.max(RETRY_AFTER_JITTER_MIN_MS, after * RETRY_AFTER_JITTER) * inARow, Math.max(RETRY_AFTER_JITTER_MIN_MS, after));
  return after + Math.floor(random() * spread);
}

export function createUpstreamGate(options: UpstreamGateOptions = {}): UpstreamGate {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let until: number | null = null;
  let failures = 0;
  let reason: string | null = null;
  let recoveries = 0;
  let recoveredAt: number | null = null;
  /** When the probe went out; null: none is out. */
  let probeSince: number | null = null;
  let waiters: Array<() => void> = [];

  const wake = () => {
    const woken = waiters;
    waiters = [];
    for (const resolve of woken) resolve();
  };

  return {
    admit() {
      if (until === null) return 'go';
      const at = now();
      if (probeSince !== null && at - probeSince < PROBE_STALE_MS) return 'wait';
      if (until > at)
        throw new UpstreamBackingOffError(`The upstream is failing (${reason ?? 'no answer'}): every request waits until ${new Date(until).toISOString()}.`);
      probeSince = at;
      return 'probe';
    },
    settled(pollMs) {
      return Promise.race([new Promise<void>((resolve) => waiters.push(resolve)), sleep(pollMs)]);
    },
    succeeded() {
      if (failures >= OUTAGE_FAILURES) {
        recoveries += 1;
        recoveredAt = now();
      }
      until = null;
      failures = 0;
      reason = null;
      probeSince = null;
      wake();
    },
    failed(why, retryAfterMs) {
      // A late failure of a request sent before the gate closed does not make the backoff longer.
      const at = now();
      if (until === null || probeSince !== null || until <= at) failures += 1;
      reason = why;
      const next = at + gateBackoffMs(failures, retryAfterMs, random);
      // Answers may come out of order: a failure never brings the reopening closer.
      until = Math.max(until ?? 0, next);
      probeSince = null;
      wake();
    },
    state() {
      return { opensAt: until, probing: probeSince !== null, failures, reason, recoveries, recoveredAt };
    },
  };
}
