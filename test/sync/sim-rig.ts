import { afterEach } from 'vitest';
import { HOUR, type Sim, SimStation, seedUpstream, startSimFake } from '../bench/sync-sim.ts';
import type { FakeReturnsService } from './fake-returns-service.ts';

/** What a simulated-time sync test started (the fake, its stations), closed after each test. */
export function useSimRig(): { fake: FakeReturnsService | undefined; stations: SimStation[] } {
  const rig: { fake: FakeReturnsService | undefined; stations: SimStation[] } = { fake: undefined, stations: [] };
  afterEach(async () => {
    for (const station of rig.stations.splice(0)) await station.close();
    await rig.fake?.close();
    rig.fake = undefined;
  });
  return rig;
}

/** The spec-only fake on `sim`'s clock, rate-limited per account, seeded with `count` packages (`open` of them open); closed after the test. */
export async function seededFake(
  rig: { fake: FakeReturnsService | undefined },
  sim: Sim,
  limitPerHour: number,
  seed: { count: number; open: number; prefix: string },
): Promise<FakeReturnsService> {
  const upstream = await startSimFake(sim, { rateLimit: { limit: limitPerHour, windowMs: HOUR, scope: 'account' } });
  rig.fake = upstream;
  seedUpstream(upstream, sim, seed.count, { open: seed.open, prefix: seed.prefix });
  return upstream;
}

/** A station syncing with `upstream`, started; closed after the test. */
export async function startedStation(rig: { stations: SimStation[] }, name: string, sim: Sim, upstream: FakeReturnsService, seed: number): Promise<SimStation> {
  const station = await SimStation.open(name, sim, upstream, { seed });
  rig.stations.push(station);
  station.start();
  return station;
}
