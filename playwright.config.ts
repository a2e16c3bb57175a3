import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from './test/support/chromium.ts';

// Playwright cannot download its own browser here: use Debian's Chromium where it is installed.
const executablePath = chromiumExecutable();

export default defineConfig({
  testDir: 'test',
  timeout: 30_000,
  // Two cores: in CI one worker keeps Chromium, the station and the runner from starving each other.
  workers: process.env.CI ? 1 : 2,
  reporter: process.env.CI ? 'list' : [['list']],
  use: { trace: 'retain-on-failure' },
  projects: [
    {
      name: 'chromium',
      testDir: 'test/e2e',
      use: {
        browserName: 'chromium',
        launchOptions: {
          ...(executablePath ? { executablePath } : {}),
          args: CHROMIUM_ARGS,
        },
      },
    },
    { name: 'electron', testDir: 'test/electron' },
  ],
});
