import fc from 'fast-check';
import { afterAll, beforeEach } from 'vitest';
import { killStrayStations } from './station-process.ts';
import { TEST_PATH_ENV, TEST_SEED, TEST_SEED_ENV, testPathFrom } from './test-seed.ts';

// Runs after each test file: stations a failed test did not stop are killed, not left running.
afterAll(killStrayStations);

// Every property test draws from the run's seed (fast-check prints it, and the failing case's path,
// in its failure); a test that fixes its own seed keeps it.
const path = testPathFrom(process.env);
fc.configureGlobal({ seed: TEST_SEED, ...(path === undefined ? {} : { path }) });

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    console.error(
      `Randomised with ${TEST_SEED_ENV}=${TEST_SEED}: run again with it to replay (fast-check's path of the failing case, if it printed one, goes in ${TEST_PATH_ENV}, with -t naming this test).`,
    );
  });
});
