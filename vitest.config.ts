import { defineConfig } from 'vitest/config';
import { TEST_SEED_ENV, testSeedFrom } from './test/support/test-seed.ts';

// Unit and integration tests run on the Node 24 that npm puts first on PATH (devDependency `node`).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/vitest-setup.ts'],
    environment: 'node',
    // Coalesced write scripts are rehearsed and checked (electron/station/domain/script-batches.ts);
    // stations the tests start inherit it. One seed for the randomised tests of the whole run, given
    // or new (test/support/test-seed.ts): every worker reads the same one, and a failing test prints it.
    env: { RETURNS_STATION_CHECK_WRITE_RULES: '1', [TEST_SEED_ENV]: String(testSeedFrom(process.env)) },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Two cores: keep worker count small so child-process tests are not starved.
    maxWorkers: 2,
  },
});
