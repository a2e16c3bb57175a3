import { afterEach } from 'vitest';
import type { SimStation } from '../bench/sync-sim.ts';
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
