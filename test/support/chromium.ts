import { existsSync } from 'node:fs';

/** Playwright cannot download its own browser here: Debian's Chromium where installed, or CHROMIUM_PATH. */
export function chromiumExecutable(): string | undefined {
  const debianChromium = '/usr/bin/chromium';
  return process.env.CHROMIUM_PATH ?? (existsSync(debianChromium) ? debianChromium : undefined);
}

/** Chromium's flags for this workplace: as root without a sandbox, no background network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
];
