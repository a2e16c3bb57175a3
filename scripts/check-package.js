#!/usr/bin/env node
// After `electron-builder`: the app.asar of every unpacked build under dist/ holds the built app and
// its production dependencies only — no tests, sources, source maps or development tools.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { listPackage } from '@electron/asar';

const FORBIDDEN = [
  /\.map$/,
  /\.tsx?$/,
  /^\/(test|electron|renderer|shared|scripts|docs)\//,
  /\/node_modules\/(vitest|vite|typescript|eslint|electron|@playwright|react|react-dom)\//,
];
const asars = [];
const walk = (dir, depth) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name === 'app.asar') asars.push(path);
    else if (entry.isDirectory() && depth < 5) walk(path, depth + 1);
  }
};
if (existsSync('dist')) walk('dist', 0);
if (asars.length === 0) {
  console.error('check-package: no app.asar under dist/ (run `npm run package` first)');
  process.exit(1);
}
let bad = 0;
const problem = (message) => {
  bad += 1;
  console.error(`check-package: ${message}`);
};
for (const asar of asars) {
  const files = listPackage(asar, { isPack: false });
  for (const required of ['/out/main/index.js', '/out/main/core.js', '/out/preload/index.cjs', '/out/renderer/index.html', '/package.json']) {
    if (!files.includes(required)) problem(`${asar} lacks ${required}`);
  }
  for (const file of files.filter((f) => FORBIDDEN.some((re) => re.test(f)))) problem(`${asar} should not hold ${file}`);
  console.log(`check-package: ${asar}: ${files.length} entries`);
}
process.exit(bad === 0 ? 0 : 1);
