import { test as base } from '@playwright/test';
import { type RunningStation, startStation } from '../support/station-process.ts';

/** Each worker drives its own real `returns-station serve` with a temporary data directory. */
export const test = base.extend<object, { station: RunningStation }>({
  station: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: it must be `{}`.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const station = await startStation();
      await use(station);
      await station.stop();
    },
    { scope: 'worker' },
  ],
});
export { expect } from '@playwright/test';
