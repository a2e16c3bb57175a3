// The closing line of a CI log: every vitest run's "Tests" summary (the unit and the cold stages)
// and Playwright's summary added up. `node scripts/ci-summary.ts LOG` prints
// "summary: N passed, N failed, N skipped (…per run…)"; .ci/run calls it on the log of `npm test`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface RunCount {
  runner: 'vitest' | 'playwright';
  passed: number;
  failed: number;
  skipped: number;
}

// Colours of the runners' output (ESC [ … m), read as the text without them.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
/** vitest: "      Tests  2 failed | 1526 passed | 3 skipped (1531)" (also "todo"). */
const VITEST_TESTS = /^\s*Tests\s+(.+?)\s+\(\d+\)\s*$/;
/** Playwright: "  12 passed (3.4m)", "  2 failed", "  1 flaky", "  3 skipped", "  1 did not run", "  1 interrupted". */
const PLAYWRIGHT_LINE = /^ {2}(\d+) (passed|failed|flaky|skipped|did not run|interrupted)(?: \([^)]*\))?\s*$/;

function vitestCount(parts: string): RunCount {
  const count: RunCount = { runner: 'vitest', passed: 0, failed: 0, skipped: 0 };
  for (const part of parts.split('|')) {
    const match = /^\s*(\d+) (passed|failed|skipped|todo)\s*$/.exec(part);
    if (!match) continue;
    const n = Number(match[1]);
    if (match[2] === 'passed') count.passed += n;
    else if (match[2] === 'failed') count.failed += n;
    else count.skipped += n;
  }
  return count;
}

/** Each test run of the log, in order: one per vitest summary, one per Playwright summary block. */
export function countRuns(log: string): RunCount[] {
  const runs: RunCount[] = [];
  let playwright: RunCount | null = null;
  for (const raw of log.replace(ANSI, '').split(/\r?\n/)) {
    const vitest = VITEST_TESTS.exec(raw);
    if (vitest) {
      runs.push(vitestCount(vitest[1] ?? ''));
      playwright = null;
      continue;
    }
    const line = PLAYWRIGHT_LINE.exec(raw);
    if (!line) {
      // Playwright lists the failed or flaky tests under their count line: those end nothing.
      if (playwright && !/^ {4}\S/.test(raw) && raw.trim() !== '') playwright = null;
      continue;
    }
    // A summary block begins with its first count line after anything else.
    if (!playwright) {
      playwright = { runner: 'playwright', passed: 0, failed: 0, skipped: 0 };
      runs.push(playwright);
    }
    const n = Number(line[1]);
    const kind = line[2];
    // A flaky test failed before it passed: not a pass (the team fixes flakes, it does not retry them).
    if (kind === 'passed') playwright.passed += n;
    else if (kind === 'failed' || kind === 'flaky' || kind === 'interrupted') playwright.failed += n;
    else playwright.skipped += n;
  }
  return runs;
}

/**
 * The closing line. `exitStatus` is the test command's: a failing run that printed no failed test
 * (a crash, a lint error before the tests) still counts one failure, so the line never says 0 failed.
 */
export function summaryLine(log: string, exitStatus: number): string {
  const runs = countRuns(log);
  const total = (key: 'passed' | 'failed' | 'skipped') => runs.reduce((sum, run) => sum + run[key], 0);
  const failed = exitStatus !== 0 && total('failed') === 0 ? 1 : total('failed');
  const each = runs.map((run) => `${run.runner} ${run.passed}/${run.failed}/${run.skipped}`).join(', ');
  return `summary: ${total('passed')} passed, ${failed} failed, ${total('skipped')} skipped (${runs.length} runs${each ? `: ${each}` : ''}; passed/failed/skipped)`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, status = '0'] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node scripts/ci-summary.ts LOG [EXIT_STATUS]');
    process.exit(2);
  }
  console.log(summaryLine(readFileSync(file, 'utf8'), Number(status)));
}
