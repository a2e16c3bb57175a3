#!/usr/bin/env node
// Makes sure the tests have what they need from the system:
// - a Chromium for the end-to-end tests. Playwright cannot download its own browser on machines
//   that reach only the npm registry and Debian's packages, so on Debian we install Debian's
//   Chromium (/usr/bin/chromium); elsewhere Playwright's own download is the right tool.
// - poppler's `pdftoppm` and `pdftotext` (Debian's poppler-utils), which render the PDF labels to
//   images so the label tests can scan their barcodes (test/support/label-barcode.ts), and read the
//   evidence pack's pages and text (test/support/evidence-reader.ts).
// - Info-ZIP's `unzip` (Debian's unzip), which unpacks the evidence pack's zip in its tests.
// - Debian's `socat`, which makes the pseudo-terminal a simulated serial scale sits behind
//   (test/support/scale-simulator.ts).
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

const needChromium = !(process.env.CHROMIUM_PATH || existsSync(DEBIAN_CHROMIUM));
const needPoppler = !has('pdftoppm') || !has('pdftotext');
const needSocat = !has('socat');
const needUnzip = !has('unzip');
const debianPackages = [
  ...(needChromium ? ['chromium'] : []),
  ...(needPoppler ? ['poppler-utils'] : []),
  ...(needSocat ? ['socat'] : []),
  ...(needUnzip ? ['unzip'] : []),
];
if (debianPackages.length === 0) process.exit(0);

if (has('apt-get') && process.getuid?.() === 0) {
  console.error(`Installing Debian ${debianPackages.join(' and ')} for the tests…`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', ...debianPackages]);
} else if (has('apt-get') && has('sudo')) {
  console.error(`Installing Debian ${debianPackages.join(' and ')} for the tests (sudo)…`);
  run('sudo', ['apt-get', 'update', '-qq']);
  run('sudo', ['apt-get', 'install', '-y', '-qq', ...debianPackages]);
} else {
  if (needChromium) {
    console.error('Installing Playwright Chromium for the end-to-end tests…');
    run('npx', ['playwright', 'install', 'chromium']);
  }
  if (needPoppler) console.error('pdftoppm (poppler) is missing: install poppler-utils (or poppler), or the label tests fail.');
  if (needSocat) console.error('socat is missing: install it, or the serial scale tests fail.');
  if (needUnzip) console.error('unzip is missing: install it, or the evidence pack tests fail.');
}
