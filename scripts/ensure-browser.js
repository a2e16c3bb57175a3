#!/usr/bin/env node
// Makes sure the end-to-end tests have a Chromium. Playwright cannot download its own browser on
// machines that reach only the npm registry and Debian's packages, so on Debian we install Debian's
// Chromium (/usr/bin/chromium); elsewhere Playwright's own download is the right tool.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const run = (command, args) => execFileSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
const has = (command) => {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

if (process.env.CHROMIUM_PATH || existsSync(DEBIAN_CHROMIUM)) process.exit(0);

if (has('apt-get') && process.getuid?.() === 0) {
  console.error('Installing Debian Chromium for the end-to-end tests…');
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', 'chromium']);
} else if (has('apt-get') && has('sudo')) {
  console.error('Installing Debian Chromium for the end-to-end tests (sudo)…');
  run('sudo', ['apt-get', 'update', '-qq']);
  run('sudo', ['apt-get', 'install', '-y', '-qq', 'chromium']);
} else {
  console.error('Installing Playwright Chromium for the end-to-end tests…');
  run('npx', ['playwright', 'install', 'chromium']);
}
