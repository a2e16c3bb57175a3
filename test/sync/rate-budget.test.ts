import { describe, expect, it } from 'vitest';
import { createShareEstimator } from '../../electron/station/sync/upstream/budget-share.ts';
import { createRateBudget } from '../../electron/station/sync/upstream/rate-budget.ts';
import { idleIntervalMs, IDLE_PULL_MAX_MS } from '../../electron/station/sync/pull/pull.ts';
import { GATE_CAP_MS, GATE_FLOOR_MS, gateBackoffMs, UpstreamBackingOffError } from '../../electron/station/sync/upstream/upstream-gate.ts';

/*
 * The rate budget's gate (a failing upstream is not hammered) and its estimate of how many consumers
 * share the upstream's budget, on an injected clock: `sleep` moves the clock, nothing waits for real.
 */

function fakeTime(start = 1_700_000_000_000) {
  const time = { now: start };
  // A sleep moves the clock at once and resolves on a later turn of the event loop.
  const sleep = (ms: number) => {
    time.now += ms;
    return new Promise<void>((resolve) => setImmediate(resolve));
  };
  return { time, now: () => time.now, sleep };
}

const headers = (values: Record<string, string | number> = {}) => new Headers(Object.entries(values).map(([k, v]) => [k, String(v)]));

describe('gate backoff', () => {
  it('is exponential with full jitter, from about 2 s, capped at 5 minutes, never nothing', () => {
    expect(gateBackoffMs(1, null, () => 0)).toBe(GATE_FLOOR_MS);
    expect(gateBackoffMs(1, null, () => 0.999)).toBe(1_998);
    expect(gateBackoffMs(2, null, () => 0.999)).toBe(3_996);
    expect(gateBackoffMs(4, null, () => 0.5)).toBe(8_000);
    expect(gateBackoffMs(30, null, () => 0.999)).toBe(Math.floor(0.999 * GATE_CAP_MS));
  });

  it('never reopens before Retry-After, adds a random extra, a little longer with each failure in a row', () => {
    for (const r of [0, 0.3, 0.999]) {
      const ms = gateBackoffMs(1, 5_000, () => r);
      expect(ms).toBeGreaterThanOrEqual(5_000);
      expect(ms).toBeLessThanOrEqual(6_000);
    }
    expect(gateBackoffMs(1, 60_000, () => 0.999)).toBe(60_000 + Math.floor(0.999 * 12_000));
    expect(gateBackoffMs(3, 5_000, () => 0.5)).toBe(5_000 + 1_500);
    // At most twice the Retry-After (the upstream said when: recovery is seen soon).
    expect(gateBackoffMs(30, 2_000, () => 0.999)).toBe(2_000 + Math.floor(0.999 * 2_000));
    expect(gateBackoffMs(30, 0, () => 0.5)).toBe(500);
  });
});

describe('the upstream gate in the rate budget', () => {
  it('closes for every priority on a 5xx, honouring Retry-After; the first request after is a lone probe', async () => {
    const { time, now, sleep } = fakeTime();
    const budget = createRateBudget({ now, sleep, random: () => 0.5 });
    expect(await budget.acquire('push')).toBe(true);
    budget.observe(503, headers({ 'retry-after': 2 }));
    const opensAt = budget.gate().opensAt ?? 0;
    expect(opensAt - now()).toBe(2_000 + 500); // Retry-After plus half of the up-to-a-second extra
    await expect(budget.acquire('push')).rejects.toBeInstanceOf(UpstreamBackingOffError);
    await expect(budget.acquire('pull')).rejects.toBeInstanceOf(UpstreamBackingOffError);

    time.now = opensAt;
    expect(await budget.acquire('push')).toBe(true); // the probe
    expect(budget.gate().probing).toBe(true);
    let second: boolean | 'pending' = 'pending';
    const waiting = budget.acquire('pull').then((ok) => (second = ok));
    await Promise.resolve();
    expect(second).toBe('pending'); // waits for the probe's answer (it looks again every second)
    budget.observe(200, headers());
    await waiting;
    expect(second).toBe(true);
    expect(budget.gate()).toMatchObject({ opensAt: null, probing: false, failures: 0 });
  });

  it('backs off longer when the probe fails, and the requests waiting for it do not go', async () => {
    const { time, now, sleep } = fakeTime();
    const budget = createRateBudget({ now, sleep, random: () => 0.999 });
    await budget.acquire('push');
    budget.unreachable('connection reset');
    const first = (budget.gate().opensAt ?? 0) - now();
    expect(first).toBe(1_998);
    time.now += first;
    await budget.acquire('push'); // probe
    const waiter = budget.acquire('push');
    budget.observe(500, headers());
    await expect(waiter).rejects.toBeInstanceOf(UpstreamBackingOffError);
    expect(budget.gate()).toMatchObject({ failures: 2, reason: 'HTTP 500' });
    expect((budget.gate().opensAt ?? 0) - now()).toBe(3_996);
    // And on: 8 s, 16 s … capped at 5 minutes.
    for (let i = 0; i < 12; i += 1) {
      time.now = budget.gate().opensAt ?? 0;
      await budget.acquire('push');
      budget.unreachable('timeout');
    }
    expect((budget.gate().opensAt ?? 0) - now()).toBe(Math.floor(0.999 * GATE_CAP_MS));
    // Any success opens it and forgets the failures.
    time.now = budget.gate().opensAt ?? 0;
    await budget.acquire('push');
    budget.observe(201, headers());
    expect(budget.gate()).toMatchObject({ opensAt: null, failures: 0 });
  });

  it('takes 4xx and 501 (a route the upstream lacks) for answers, not for a failing upstream', async () => {
    const { now, sleep } = fakeTime();
    const budget = createRateBudget({ now, sleep });
    for (const status of [400, 404, 409, 422, 501]) {
      await budget.acquire('push');
      budget.observe(status, headers());
      expect(budget.gate().opensAt, String(status)).toBeNull();
    }
    for (const status of [500, 502, 503, 504, 599]) {
      await budget.acquire('push');
      budget.observe(status, headers());
      expect(budget.gate().opensAt, String(status)).not.toBeNull();
      budget.observe(200, headers());
    }
  });

  it('reads an HTTP-date Retry-After, and a late failure does not lengthen a backoff under way', async () => {
    const { now, sleep } = fakeTime(Date.parse('2030-01-01T12:00:00.000Z'));
    const budget = createRateBudget({ now, sleep, random: () => 0 });
    await budget.acquire('push');
    await budget.acquire('push');
    budget.observe(503, headers({ 'retry-after': 'Tue, 01 Jan 2030 12:00:30 GMT' }));
    expect((budget.gate().opensAt ?? 0) - now()).toBe(30_000);
    budget.observe(503, headers()); // the other request's answer, sent before the gate closed
    expect(budget.gate()).toMatchObject({ failures: 1, opensAt: now() + 30_000 });
  });
});

describe('the share of the rate budget', () => {
  /** Feeds `rounds` own requests, the upstream's Remaining falling by `perRequest` for each (others' requests in between). */
  function feed(budget: ReturnType<typeof createRateBudget>, time: { now: number }, rounds: number, perRequest: number, start = 1_000) {
    let remaining = start;
    for (let i = 0; i < rounds; i += 1) {
      remaining -= perRequest;
      budget.observe(200, headers({ 'x-ratelimit-limit': 1_000, 'x-ratelimit-remaining': remaining, 'x-ratelimit-reset': 3_000 }));
      time.now += 10_000;
    }
    return remaining;
  }

  it('is 1 alone, about N when N stations alike spend it, and not fooled by window resets', () => {
    const { time, now, sleep } = fakeTime();
    const alone = createRateBudget({ now, sleep });
    feed(alone, time, 50, 1);
    expect(alone.share()).toBe(1);
    // Hourly windows reset: Remaining jumps back up, which is not "others gave some back" nor a fall.
    for (let window = 0; window < 3; window += 1) feed(alone, time, 20, 1, 1_000 - window);
    expect(alone.share()).toBe(1);

    const fleet = createRateBudget({ now, sleep });
    feed(fleet, time, 60, 4);
    expect(fleet.share()).toBeCloseTo(4, 1);
  });

  it('learns nothing from the first answer, and decays back to 1 when the others go quiet', () => {
    const { time, now } = fakeTime();
    const share = createShareEstimator({ now });
    share.answered(500, null, 0);
    expect(share.share()).toBe(1);
    let remaining = 500;
    for (let i = 0; i < 30; i += 1) share.answered((remaining -= 3), null, 0);
    expect(share.share()).toBeCloseTo(3, 5);
    // The others stop: Remaining falls by this station's requests only, for an hour.
    for (let i = 0; i < 120; i += 1) {
      time.now += 30_000;
      share.answered((remaining -= 1), null, 0);
    }
    expect(share.share()).toBeLessThan(1.1);
    // Or nobody sends at all: the estimate decays too (half-life 10 minutes), once this station's
    // own weight is spent as well (serve's idle pulls keep that from happening).
    for (let i = 0; i < 30; i += 1) share.answered((remaining -= 3), null, 0);
    const busy = share.share();
    expect(busy).toBeGreaterThan(1.9);
    time.now += 60 * 60_000;
    expect(share.share()).toBeLessThan(busy);
    time.now += 2 * 60 * 60_000;
    expect(share.share()).toBeLessThan(1.1);
  });

  it('does not read answers that crossed on the way, or lost ones, as others', () => {
    const { now } = fakeTime();
    const share = createShareEstimator({ now });
    // Two requests in flight at a time; the upstream counted them in order, their answers swap.
    let remaining = 900;
    share.answered(remaining, null, 0);
    for (let i = 0; i < 40; i += 2) {
      share.answered(remaining - 2, null, 1); // the later request's answer first
      share.answered(remaining - 1, null, 0); // then the earlier one: above the lowest, by less than what was in flight
      remaining -= 2;
    }
    // The first pair's later answer came before the earlier one was counted as its own: 1 of 40 at most.
    expect(share.share()).toBeLessThan(1.03);
    // A lost answer the upstream counted is this station's own request, not another's.
    const before = share.share();
    share.uncounted();
    share.answered(remaining - 2, null, 0);
    expect(share.share()).toBeLessThanOrEqual(before);
  });

  it('a new window by its reset time, even when Remaining does not jump', () => {
    const { time, now } = fakeTime();
    const share = createShareEstimator({ now });
    share.answered(10, now() + 5_000, 0);
    time.now += 6_000;
    // The new window began with others' requests: Remaining is below the old one's lowest.
    share.answered(5, now() + 60_000, 0);
    expect(share.share()).toBe(1);
  });

  it('makes pulls give way first: paced that many times slower past half the window', async () => {
    const { time, now, sleep } = fakeTime();
    const budget = createRateBudget({ now, sleep });
    let remaining = 1_000;
    for (let i = 0; i < 100; i += 1) {
      await budget.acquire('push');
      budget.observe(200, headers({ 'x-ratelimit-limit': 1_000, 'x-ratelimit-remaining': (remaining -= 5), 'x-ratelimit-reset': 3_600 }));
    }
    expect(budget.share()).toBeCloseTo(5, 1);
    // Half the window spent: from here requests are spaced to last the hour.
    await budget.acquire('push');
    budget.observe(200, headers({ 'x-ratelimit-limit': 1_000, 'x-ratelimit-remaining': (remaining -= 1), 'x-ratelimit-reset': 3_600 }));
    const before = time.now;
    await budget.acquire('push');
    expect(time.now - before).toBe(Math.ceil(3_600_000 / (499 - 50))); // a push: spaced as if alone (50 kept back)
    budget.observe(200, headers({ 'x-ratelimit-limit': 1_000, 'x-ratelimit-remaining': remaining - 1, 'x-ratelimit-reset': 3_600 }));
    // A pull keeps 250 back and is spaced about 5 times wider: ≈ 72 s > 5 s, it gives way.
    expect(await budget.acquire('pull')).toBe(false);
  });
});

describe('idleIntervalMs', () => {
  it('stretches the idle pull by the share, never beyond maxMs nor below the base', () => {
    expect(idleIntervalMs(150_000, 1, { maxMs: IDLE_PULL_MAX_MS })).toBe(150_000);
    expect(idleIntervalMs(150_000, 2.5, { maxMs: IDLE_PULL_MAX_MS })).toBe(375_000);
    expect(idleIntervalMs(150_000, 8, { maxMs: IDLE_PULL_MAX_MS })).toBe(IDLE_PULL_MAX_MS);
    expect(idleIntervalMs(150_000, Number.NaN, { maxMs: IDLE_PULL_MAX_MS })).toBe(150_000);
    expect(idleIntervalMs(150_000, 0.4, { maxMs: IDLE_PULL_MAX_MS })).toBe(150_000);
    expect(idleIntervalMs(900_000, 3, { maxMs: IDLE_PULL_MAX_MS })).toBe(900_000);
    expect(IDLE_PULL_MAX_MS).toBeLessThan(10 * 60_000);
  });
});
