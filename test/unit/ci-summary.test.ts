import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countRuns, summaryLine } from '../../scripts/ci-summary.ts';

/*
 * .ci/run's closing line, from logs shaped like `npm test`'s: the unit run, the cold run and
 * Playwright, as vitest 5 and Playwright print them (colours included), taken from real CI logs.
 */
const esc = '\x1b[';
const unitRun = [
  ` ${esc}2m Test Files ${esc}22m ${esc}1m${esc}32m165 passed${esc}39m${esc}22m${esc}90m (165)${esc}39m`,
  `${esc}2m      Tests ${esc}22m ${esc}1m${esc}31m2 failed${esc}39m${esc}22m${esc}2m | ${esc}22m${esc}1m${esc}32m1526 passed${esc}39m${esc}22m${esc}2m | ${esc}22m${esc}33m3 skipped${esc}39m${esc}90m (1531)${esc}39m`,
  `${esc}2m   Start at ${esc}22m 08:32:17`,
].join('\n');
const coldRun = [' Test Files  33 passed (33)', '      Tests  82 passed (82)', '   Duration  95.2s'].join('\n');
const playwrightRun = [
  '    ────────────────────────────────────────────────────────────────────────────────',
  '',
  '  1 failed',
  '    [chromium] › test/e2e/pending-work.spec.ts:27:1 › scans and a photo made while the station is unreachable survive a reload',
  '  1 flaky',
  '    [chromium] › test/e2e/sync.spec.ts:12:1 › the sync screen',
  '  9 skipped',
  '  1 did not run',
  '  67 passed (4.3m)',
].join('\n');
const log = [
  '> returns-station@0.1.0 test:unit',
  unitRun,
  '> returns-station@0.1.0 test:cold',
  coldRun,
  'Running 79 tests using 1 worker',
  playwrightRun,
  '',
].join('\n');

const dir = mkdtempSync(join(tmpdir(), 'ci-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the CI's closing line", () => {
  it('counts every run: both vitest stages and Playwright, each summary once', () => {
    expect(countRuns(log)).toEqual([
      { runner: 'vitest', passed: 1526, failed: 2, skipped: 3 },
      { runner: 'vitest', passed: 82, failed: 0, skipped: 0 },
      { runner: 'playwright', passed: 67, failed: 2, skipped: 10 },
    ]);
    expect(summaryLine(log, 1)).toBe(
      'summary: 1675 passed, 4 failed, 13 skipped (3 runs: vitest 1526/2/3, vitest 82/0/0, playwright 67/2/10; passed/failed/skipped)',
    );
  });

  it('says a green run whole, not only its last vitest summary', () => {
    const green = [
      ` Test Files  165 passed (165)\n${esc}2m      Tests ${esc}22m ${esc}1m${esc}32m1528 passed${esc}39m${esc}22m${esc}90m (1528)${esc}39m`,
      coldRun,
      '  79 passed (7.5m)',
    ].join('\n');
    expect(summaryLine(green, 0)).toBe(
      'summary: 1689 passed, 0 failed, 0 skipped (3 runs: vitest 1528/0/0, vitest 82/0/0, playwright 79/0/0; passed/failed/skipped)',
    );
  });

  it('never says 0 failed for a failing command that ran no test (lint, typecheck, a crash)', () => {
    expect(summaryLine('> eslint .\n  12:3  error  x is never used\n', 1)).toBe('summary: 0 passed, 1 failed, 0 skipped (0 runs; passed/failed/skipped)');
    expect(summaryLine(coldRun, 1)).toBe('summary: 82 passed, 1 failed, 0 skipped (1 runs: vitest 82/0/0; passed/failed/skipped)');
  });

  it('is what the script prints for a log file, as .ci/run calls it', () => {
    const file = join(dir, 'ci.log');
    writeFileSync(file, log);
    const run = spawnSync(process.execPath, ['scripts/ci-summary.ts', file, '1'], { encoding: 'utf8', cwd: new URL('../..', import.meta.url).pathname });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`${summaryLine(log, 1)}\n`);
    expect(spawnSync(process.execPath, ['scripts/ci-summary.ts'], { encoding: 'utf8' }).status).toBe(2);
  });
});
