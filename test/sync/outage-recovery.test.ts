import { expect, it } from 'vitest';
import { updatePackage } from '../../electron/station/domain/packages.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';
import { HOUR, MINUTE, Sim, SimStation, seedUpstream, startSimFake } from '../bench/sync-sim.ts';
import { seededFake, startedStation, useSimRig } from './sim-rig.ts';

/*
 * The end of an outage ("convergence after the upstream recovers is still within
 * the fleet target"). While the spec-only fake answers 503 with Retry-After, the gate sends one probe
 * at a time and the probed change backs off on its own; when the upstream answers again, every change
 * that waited only for it goes at once, not at the end of its own backoff (minutes later), and a
 * change the upstream refused for itself keeps its wait. Simulated time, real stores, the real engine.
 */

const OUTAGE_MS = 20 * MINUTE;
const RECEIPTS = 15;

let sim: Sim;
const rig = useSimRig();

async function receive(station: SimStation, trackingNumber: string): Promise<void> {
  const pkg = await station.packageByTracking(trackingNumber);
  if (!pkg) throw new Error(`${trackingNumber} was not pulled`);
  await station.store.write((t) => updatePackage(t, sim.clock.now(), 1, pkg.id, { status: 'received' }));
}

const tracking = (i: number) => `RECOVER${String(i).padStart(7, '0')}`;

it('sends every receipt made during a 20-minute outage within seconds of the first answer after it, and the other station has them within 10 minutes', async () => {
  sim = new Sim();
  const upstream = await startSimFake(sim, { rateLimit: { limit: 1_000, windowMs: HOUR, scope: 'account' } });
  rig.fake = upstream;
  seedUpstream(upstream, sim, 60, { open: 60, prefix: 'RECOVER' });
  const [dock, other] = [await SimStation.open('recover-dock', sim, upstream, { seed: 3 }), await SimStation.open('recover-other', sim, upstream, { seed: 4 })];
  rig.stations.push(dock, other);
  dock.start();
  other.start();
  await sim.runUntil(sim.now + 30 * MINUTE);
  expect(await dock.hasTracking(tracking(59))).toBe(true);

  const outageFrom = sim.now;
  const outageUntil = outageFrom + OUTAGE_MS;
  upstream.modes.outage = { status: 503, retryAfterSeconds: 60, until: outageUntil };
  void sim.spawn(async () => {
    for (let i = 0; i < RECEIPTS; i += 1) {
      await receive(dock, tracking(i));
      await sim.sleep(Math.floor((OUTAGE_MS - MINUTE) / RECEIPTS));
    }
  });
  await sim.runUntil(outageUntil);
  const during = upstream.requests.filter((r) => r.at >= outageFrom && r.at < outageUntil);
  // One probe at a time, each after Retry-After: about one a minute a station, not one per change.
  expect(during.length).toBeLessThanOrEqual(2 * (OUTAGE_MS / MINUTE) + 2);

  let seenEverywhere = 0;
  const check = async () => {
    for (let i = 0; i < RECEIPTS; i += 1) if ((await other.packageByTracking(tracking(i)))?.status !== 'received') return false;
    return true;
  };
  for (let at = outageUntil; at < outageUntil + HOUR; at += 30_000) {
    await sim.runUntil(at);
    if (await check()) {
      seenEverywhere = at;
      break;
    }
  }

  const patches = upstream.requests.filter((r) => r.method === 'PATCH' && r.at >= outageUntil && r.status === 200);
  expect(patches.length).toBe(RECEIPTS);
  // The first is the dock's probe; before, each change probed during the outage then waited out its own backoff (up to 5 minutes).
  const times = patches.map((r) => r.at);
  expect(Math.max(...times) - Math.min(...times)).toBeLessThan(30_000);
  expect(upstream.packages(1).filter((p) => p.status === 'received').length).toBe(RECEIPTS);
  expect(seenEverywhere, 'the other station saw every receipt').toBeGreaterThan(0);
  expect(seenEverywhere - outageUntil).toBeLessThanOrEqual(10 * MINUTE);
}, 120_000);

it('a station restarted as the outage ends sends what waited for the upstream in its first rounds, not at the end of each backoff', async () => {
  sim = new Sim();
  const upstream = await seededFake(rig, sim, 1_000, { count: 20, open: 20, prefix: 'RECOVER' });
  let dock = await startedStation(rig, 'restart-dock', sim, upstream, 5);
  await sim.runUntil(sim.now + 30 * MINUTE);
  expect(await dock.hasTracking(tracking(19))).toBe(true);

  const outageUntil = sim.now + OUTAGE_MS;
  upstream.modes.outage = { status: 503, retryAfterSeconds: 60, until: outageUntil };
  void sim.spawn(async () => {
    for (let i = 0; i < 8; i += 1) {
      await receive(dock, tracking(i));
      await sim.sleep(Math.floor((OUTAGE_MS - 2 * MINUTE) / 8));
    }
  });
  await sim.runUntil(outageUntil);
  // The station stops and starts as the upstream comes back: its gate is new and saw no outage.
  const waiting = (await insidesOf(dock.store).db.outbox.toArray()).filter((entry) => entry.next_attempt_at !== null);
  expect(waiting.length).toBeGreaterThan(1);
  dock = await dock.restart(6);
  rig.stations.splice(0, rig.stations.length, dock);
  dock.start();
  await sim.runUntil(outageUntil + 10 * MINUTE);

  const patches = upstream.requests.filter((r) => r.method === 'PATCH' && r.at >= outageUntil && r.status === 200);
  expect(patches.length).toBe(8);
  expect(Math.max(...patches.map((r) => r.at)) - outageUntil).toBeLessThan(30_000);
  expect(upstream.packages(1).filter((p) => p.status === 'received').length).toBe(8);
}, 120_000);
