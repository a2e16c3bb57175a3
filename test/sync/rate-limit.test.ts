import { expect, it } from 'vitest';
import { HOUR, MINUTE, Sim, SimStation, seedUpstream, startSimFake } from '../bench/sync-sim.ts';
import { seededFake, startedStation, useSimRig } from './sim-rig.ts';

/*
 * The spec's rate limit, driven to its end ("rate-limit headers and 429"). The spec-only
 * fake counts every request of an account in fixed windows and answers 429 with Retry-After past the
 * limit. Two stations share an account whose window is far too small for their first pulls: they
 * must spread the pulls over the windows the limit allows (the budget reads X-RateLimit-*), never
 * send again before a 429's Retry-After, and end with every package once. Simulated time.
 */

const rig = useSimRig();

async function packageCount(station: SimStation): Promise<number> {
  return station.store.tables.return_packages.count();
}

it.each(['account', 'token'] as const)(
  'two stations pull 1,500 packages through a limit of 40 requests an hour (scope %s) without hammering it, and end with every package once',
  async (scope) => {
    const sim = new Sim();
    const upstream = await startSimFake(sim, { rateLimit: { limit: 40, windowMs: HOUR, scope } });
    rig.fake = upstream;
    seedUpstream(upstream, sim, 1_500, { open: 100, prefix: 'LIMIT' });
    const pair = [await SimStation.open('limit-a', sim, upstream, { seed: 5 }), await SimStation.open('limit-b', sim, upstream, { seed: 6 })];
    rig.stations.push(...pair);
    for (const station of pair) station.start();
    const start = sim.now;
    let done = false;
    for (let at = start; at < start + 12 * HOUR && !done; at += 10 * MINUTE) {
      await sim.runUntil(at);
      done = (await Promise.all(pair.map(packageCount))).every((n) => n === 1_500);
    }
    expect(done, 'both stations have all 1,500 packages within 12 hours').toBe(true);

    const requests = upstream.requests;
    // 2 × (15 + 15 pages): the pulls need about 60 requests, more than a window allows; the limit spread them over windows.
    const limited = requests.filter((r) => r.status === 429);
    expect(limited.length, 'answered 429').toBeLessThanOrEqual(4);
    // The fake's windows, as it keeps them: each begins at the first request of its scope after the last one ended.
    const windowMs = HOUR;
    const windowEnd = new Map<number, number>();
    const current = new Map<string, number>();
    for (const r of requests) {
      const key = scope === 'token' ? String(r.token) : 'account';
      const began = current.get(key);
      const from = began === undefined || r.at - began >= windowMs ? r.at : began;
      current.set(key, from);
      windowEnd.set(requests.indexOf(r), from + windowMs);
    }
    // After a 429, that station sends nothing until the Retry-After (the window's end) is over.
    for (const refused of limited) {
      const until = windowEnd.get(requests.indexOf(refused)) ?? 0;
      const next = requests.find((r) => r.token === refused.token && r.at > refused.at);
      expect(next === undefined || next.at >= until, `a request ${next ? Math.round((until - next.at) / 1000) : 0} s before Retry-After`).toBe(true);
    }
    // Every package once on each station, none duplicated upstream (a pull creates nothing).
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    for (const station of pair) expect(await packageCount(station)).toBe(1_500);
  },
  180_000,
);

it("stops at the first 429 when another client spent the account's window, and sends nothing more until its Retry-After", async () => {
  const sim = new Sim();
  const upstream = await seededFake(rig, sim, 40, { count: 1_500, open: 100, prefix: 'SPENT' });
  const station = await startedStation(rig, 'limit-spent', sim, upstream, 7);
  await sim.runUntil(sim.now + 5 * MINUTE);
  // Someone else on the account (another tool, not a station) spends what is left of the window.
  const other = upstream.token([1]);
  let spentAt = 0;
  for (let i = 0; i < 100; i += 1) {
    const answer = await fetch(`${upstream.baseUrl}/v1/accounts/1/return_packages?page=1&per_page=1`, { headers: { authorization: `Bearer ${other}` } });
    await answer.arrayBuffer();
    if (answer.status === 429) {
      spentAt = sim.now;
      break;
    }
  }
  expect(spentAt, 'the window is spent').toBeGreaterThan(0);
  let done = false;
  for (let at = sim.now; at < spentAt + 6 * HOUR && !done; at += 10 * MINUTE) {
    await sim.runUntil(at);
    done = (await packageCount(station)) === 1_500;
  }
  expect(done, 'all 1,500 packages within 6 hours').toBe(true);
  const mine = upstream.requests.filter((r) => r.token !== other);
  const refused = mine.filter((r) => r.status === 429);
  // The station's budget believed there was room: one 429 tells it otherwise, then it waits the window out.
  expect(refused.length).toBeGreaterThanOrEqual(1);
  expect(refused.length).toBeLessThanOrEqual(2);
  const firstRefused = refused[0]?.at ?? 0;
  const windowEnd = (upstream.requests[0]?.at ?? 0) + HOUR;
  const sentBeforeEnd = mine.filter((r) => r.at > firstRefused && r.at < windowEnd);
  expect(sentBeforeEnd, 'requests after the 429 and before its Retry-After').toHaveLength(0);
}, 180_000);
