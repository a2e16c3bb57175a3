import { defineConfig } from 'vitest/config';

// Unit and integration tests run on the Node 24 that npm puts first on PATH (devDependency `node`).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/vitest-setup.ts'],
    environment: 'node',
    // Coalesced write scripts are rehearsed and checked (electron/station/domain/script-batches.ts);
    // stations the tests start inherit it.
    env: { RETURNS_STATION_CHECK_WRITE_RULES: '1' },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Two cores: keep worker count small so child-process tests are not starved.
    maxWorkers: 2,
  },
});
