import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, StationUnreachableError, SupervisorSessionEndedError } from '../../shared/api/client.ts';
import { errorBody } from '../../shared/api/errors.ts';
import { DOCK_RETRY, retryDelayMs, StationBack, untilLanded, worthRetrying } from '../../shared/api/retry-policy.ts';

/*
 * The one retry policy of the dock's queues and event streams: which failures are tried again, the
 * waits between tries (on fake timers: the test reads the clock of each try), the station's own
 * Retry-After, and the station coming back, which ends a wait at once.
 */

const refusal = (status: number, code: Parameters<typeof errorBody>[0], extras: Record<string, unknown> = {}) => {
  const body = errorBody(code, undefined, extras);
  return new ApiError(status, body.error_code, body.details);
};
const unreachable = () => new StationUnreachableError('The station cannot be reached.');

/** A send that fails with each of `failures` in turn, then answers 'landed'; `at` holds the fake clock of each try. */
function sender(failures: unknown[]) {
  const at: number[] = [];
  const send = vi.fn(async () => {
    at.push(Date.now());
    const failure = failures.shift();
    if (failure !== undefined) throw failure;
    return 'landed';
  });
  return { send, at, gaps: () => at.slice(1).map((t, i) => t - (at[i] ?? t)) };
}

describe('which failures are worth another try', () => {
  it('tries again when no answer came, or the station was busy or failing', () => {
    expect(worthRetrying(unreachable())).toBe(true);
    expect(worthRetrying(new TypeError('fetch failed'))).toBe(true);
    expect(worthRetrying(refusal(408, 'UNAVAILABLE'))).toBe(true);
    expect(worthRetrying(refusal(429, 'RATE_LIMITED'))).toBe(true);
    expect(worthRetrying(refusal(500, 'INTERNAL_ERROR'))).toBe(true);
    expect(worthRetrying(refusal(503, 'UNAVAILABLE', { reason: 'disk_full' }))).toBe(true);
    // A proxy's 502 without the station's error body.
    expect(worthRetrying(new ApiError(502, 'UNEXPECTED_RESPONSE', { message: 'The station answered 502 without an error body.' }))).toBe(true);
  });

  it('shows every other answer as a refusal: the same request would get it again', () => {
    for (const [status, code] of [
      [400, 'INVALID_QUERY'],
      [401, 'INVALID_TOKEN'],
      [403, 'SUPERVISOR_REQUIRED'],
      [404, 'NOT_FOUND'],
      [409, 'UNIT_LABELLED_OR_PUT'],
      [409, 'IDEMPOTENCY_KEY_REUSED'],
      [413, 'PAYLOAD_TOO_LARGE'],
      [421, 'MISDIRECTED_REQUEST'],
      [422, 'VALIDATION_FAILED'],
    ] as const)
      expect(worthRetrying(refusal(status, code)), `${status} ${code}`).toBe(false);
    expect(worthRetrying(new SupervisorSessionEndedError(refusal(401, 'INVALID_TOKEN')))).toBe(false);
    // A 2xx the client could not read: sent again, it brings the same answer back.
    expect(worthRetrying(new ApiError(200, 'UNEXPECTED_RESPONSE', { message: 'The station answered with an unexpected shape.' }))).toBe(false);
  });
});

describe('untilLanded', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("waits half a second, then twice as long each time up to 8 s (the dock's policy), and returns the answer", async () => {
    const failures = Array.from({ length: 7 }, unreachable);
    const s = sender([...failures]);
    const retried: number[] = [];
    const landed = untilLanded(s.send, DOCK_RETRY, { onRetry: (_error, attempt) => retried.push(attempt) });
    await vi.runAllTimersAsync();
    await expect(landed).resolves.toBe('landed');
    expect(s.gaps()).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(retried).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('rejects with a refusal at once: no second try, nothing reported as retrying', async () => {
    const refused = refusal(422, 'VALIDATION_FAILED');
    const s = sender([unreachable(), refused]);
    const onRetry = vi.fn();
    const landed = untilLanded(s.send, DOCK_RETRY, { onRetry });
    const outcome = landed.catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    expect(await outcome).toBe(refused);
    expect(s.send).toHaveBeenCalledTimes(2);
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('waits as long as the station asked (Retry-After), even when that is longer than the backoff', async () => {
    const s = sender([refusal(429, 'RATE_LIMITED', { retry_after_seconds: 30 })]);
    const landed = untilLanded(s.send, DOCK_RETRY);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(s.send).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(landed).resolves.toBe('landed');
    expect(s.gaps()).toEqual([30_000]);
    expect(retryDelayMs(DOCK_RETRY, 0, refusal(503, 'UNAVAILABLE', { retry_after_seconds: 0 }))).toBe(500);
  });

  it('tries at once when the station is back, whatever is left of the wait', async () => {
    const stationBack = new StationBack();
    const s = sender(Array.from({ length: 6 }, unreachable));
    const landed = untilLanded(s.send, { ...DOCK_RETRY, stationBack });
    // Five failures: the sixth try waits the full 8 s.
    await vi.advanceTimersByTimeAsync(500 + 1000 + 2000 + 4000 + 8000);
    expect(s.send).toHaveBeenCalledTimes(6);
    const before = Date.now();
    await vi.advanceTimersByTimeAsync(3000);
    stationBack.arrived();
    await vi.advanceTimersByTimeAsync(0);
    await expect(landed).resolves.toBe('landed');
    expect(s.at.at(-1)).toBe(before + 3000);
    // Nothing is left waiting on the station once the wait ended.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not cut short a wait the station asked for: it answered, so it is not "back"', async () => {
    const stationBack = new StationBack();
    const s = sender([refusal(429, 'RATE_LIMITED', { retry_after_seconds: 10 })]);
    const landed = untilLanded(s.send, { ...DOCK_RETRY, stationBack });
    await vi.advanceTimersByTimeAsync(1000);
    stationBack.arrived();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.send).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(9000);
    await expect(landed).resolves.toBe('landed');
  });

  it('stops when the work is withdrawn during a wait, with no further try', async () => {
    const withdraw = new AbortController();
    const s = sender(Array.from({ length: 3 }, unreachable));
    const landed = untilLanded(s.send, DOCK_RETRY, { signal: withdraw.signal });
    const outcome = landed.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(600);
    expect(s.send).toHaveBeenCalledTimes(2);
    withdraw.abort();
    await vi.runAllTimersAsync();
    expect(await outcome).toMatchObject({ name: 'AbortError' });
    expect(s.send).toHaveBeenCalledTimes(2);
  });
});
