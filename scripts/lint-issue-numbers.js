#!/usr/bin/env node
// A reader of the repository has no issue tracker: code and docs say why in words, never an issue's number.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOTS = ['bin', 'electron', 'renderer/src', 'shared', 'test', 'scripts', '.ci', 'docs'];
const CODE = /\.(ts|tsx|js|mjs|cjs|css|html|sh|md)$|^run$/;
const ISSUE = /\bissues? #?\d+\b|\(#\d+\)/i;

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(path);
    return CODE.test(entry.name) ? [path] : [];
  });
}

let found = 0;
// The bench's log of past runs (test/bench/RESULTS.md) keeps its notes as they were written.
const SKIPPED = new Set(['scripts/lint-issue-numbers.js', 'test/bench/RESULTS.md']);
for (const file of [...ROOTS.flatMap(files), 'README.md'].filter((path) => !SKIPPED.has(path))) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (!ISSUE.test(line)) return;
      found += 1;
      console.error(`${file}:${index + 1}: an issue number; say the reason in words: ${line.trim()}`);
    });
}
if (found > 0) process.exit(1);
console.log('no issue numbers in code or docs');
