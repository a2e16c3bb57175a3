import { test as base } from '@playwright/test';
import { type RunningStation, startStation } from '../support/station-process.ts';

/** Each worker drives its own real `returns-station serve` with a temporary data directory. */
export const test = base.extend<object, { station: RunningStation }>({
  station: [
    async ({}, use) => {
      const station = await startStation();
      await use(station);
      await station.stop();
    },
    { scope: 'worker' },
  ],
});
export { expect } from '@playwright/test';
