#!/usr/bin/env node
// `npm start`: builds and opens the desktop app where Electron's binary is installed, and says
// clearly what to do where it is not (Electron's binary is not on the npm registry).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const electronDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
const pathFile = join(electronDir, 'path.txt');
const binary = existsSync(pathFile) ? join(electronDir, 'dist', readFileSync(pathFile, 'utf8')) : null;

if (binary === null || !existsSync(binary)) {
  console.error(`The Electron binary is not installed, so the desktop app cannot start on this machine.

  - To install it where its download host is reachable: npx install-electron
  - To run the same station without Electron:          npm run serve   (then open the printed link)
`);
  process.exit(1);
}
execFileSync('npx', ['electron-vite', 'preview'], { stdio: 'inherit' });
