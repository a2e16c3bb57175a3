#!/usr/bin/env node
// Electronegativity over electron/ (the shell, its preload and the station core it runs): any finding fails.
// A finding that is answered rather than fixed carries an `eng-disable` comment with its reason at
// the line. Excluded here, with the reasons: CSP_GLOBAL_CHECK looks for a CSP in the app's files, but
// the station sends its UI's Content-Security-Policy as an HTTP header (electron/station/server.ts);
// AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK needs Electron's release list from the network (the scan runs
// offline: electronegativity-offline.cjs); Electron's version is pinned and upgraded on purpose.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const out = join(mkdtempSync(join(tmpdir(), 'electronegativity-')), 'findings.csv');
const electronVersion = JSON.parse(readFileSync(new URL('../node_modules/electron/package.json', import.meta.url), 'utf8')).version;
// Global checks (navigation limits, permission handlers) look across files: scan the folder at once.
const scanner = join('node_modules', '@doyensec', 'electronegativity', 'dist', 'index.js');
execFileSync(
  process.execPath,
  [
    '--require',
    './scripts/electronegativity-offline.cjs',
    scanner,
    '-i',
    'electron',
    '-e',
    electronVersion,
    '-x',
    'cspglobalcheck,availablesecurityfixesglobalcheck',
    '-r',
    '-o',
    out,
  ],
  {
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
const findings = readFileSync(out, 'utf8').trim().split('\n').slice(1).filter(Boolean);
rmSync(join(out, '..'), { recursive: true, force: true });
for (const finding of findings) console.error(`electronegativity: ${finding}`);
if (findings.length > 0) process.exit(1);
console.log('electronegativity: no findings in electron/');
