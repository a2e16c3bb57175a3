import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// Playwright cannot download its own browser here: use Debian's Chromium where it is installed.
const debianChromium = '/usr/bin/chromium';
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync(debianChromium) ? debianChromium : undefined);

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
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-sync',
            '--use-fake-device-for-media-stream',
            '--use-fake-ui-for-media-stream',
          ],
        },
      },
    },
    { name: 'electron', testDir: 'test/electron' },
  ],
});
