import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PAIRING_CODE_MINUTES } from '#shared/api/handhelds.ts';
import { JOIN_CODE_MINUTES } from '#shared/api/site.ts';
import { PIN_DIGITS } from '#shared/api/station.ts';
import { EXIT, SYNC_EXIT } from '../../electron/cli/exit-codes.ts';
import { DEFAULT_HOST, DEFAULT_PORT } from '../../electron/cli/serve.ts';
import { DEFAULT_HOT_DAYS, DEFAULT_HOT_RECENT_LIMIT } from '../../electron/station/store/index.ts';
import { DEFAULT_PULL_INTERVAL_MS } from '../../electron/station/sync/scheduler.ts';
import { STATION_BIN } from '../support/station-process.ts';

/*
 * `returns-station help` says the usage, the exit codes and the defaults the code has: read from the
 * real command as an operator runs it, against the constants the code runs on, and against the
 * operator guide.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'station-cli-usage-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const run = (...args: string[]) => spawnSync(process.execPath, [STATION_BIN, ...args], { encoding: 'utf8', timeout: 20_000 });
const guide = readFileSync(new URL('../../docs/operator-guide.md', import.meta.url), 'utf8');

/** The `code  meaning` lines under a heading line of the usage, up to the first line that is not one. */
function codeLines(text: string, heading: string): Array<{ code: number; meaning: string }> {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.includes(heading));
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const found: Array<{ code: number; meaning: string }> = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^ +(\d+) {2}(.+)$/.exec(line);
    if (!match) break;
    found.push({ code: Number(match[1]), meaning: match[2] ?? '' });
  }
  return found;
}

const byCode = (codes: Record<string, { code: number; meaning: string }>) => Object.values(codes).sort((a, b) => a.code - b.code);

describe('returns-station help', () => {
  const help = run('help');

  it('prints the usage on stdout and exits 0', () => {
    expect(help.status).toBe(EXIT.ok.code);
    expect(help.stderr).toBe('');
    expect(help.stdout).toMatch(/^Usage: returns-station <command> \[options\]\n/);
  });

  it("lists sync --once's exit codes as the command sets them, and every command's", () => {
    expect(codeLines(help.stdout, 'summary. Its exit code, the most serious outcome winning:').map(({ code }) => code)).toEqual([0, 1, 3, 4, 5, 6]);
    expect(codeLines(help.stdout, 'summary. Its exit code, the most serious outcome winning:')).toEqual(byCode(SYNC_EXIT));
    expect(codeLines(help.stdout, 'Exit codes of every command:')).toEqual(byCode(EXIT));
  });

  it("says the defaults the code has, and no default that is not one of the code's", () => {
    expect(help.stdout).toContain(`Defaults: --host ${DEFAULT_HOST}, --port ${DEFAULT_PORT},`);
    expect(help.stdout).toContain(`(default ${DEFAULT_HOT_DAYS}; 0: only`);
    expect(help.stdout).toContain(`(default ${DEFAULT_HOT_RECENT_LIMIT}; also RETURNS_STATION_HOT_RECENT_MAX)`);
    expect(help.stdout).toContain(`RETURNS_STATION_SYNC_INTERVAL_MS (pull interval of serve, default ${DEFAULT_PULL_INTERVAL_MS})`);
    const defaults = [...help.stdout.matchAll(/default (\d+)/g)].map((match) => Number(match[1]));
    expect(defaults.sort((a, b) => a - b)).toEqual([DEFAULT_HOT_DAYS, DEFAULT_HOT_RECENT_LIMIT, DEFAULT_PULL_INTERVAL_MS].sort((a, b) => a - b));
    expect(help.stdout).toContain(`(works once, for ${JOIN_CODE_MINUTES} minutes)`);
    expect(help.stdout).toContain(`(works once, for\n      ${PAIRING_CODE_MINUTES} minutes)`);
    expect(help.stdout).toContain(`--pin, ${PIN_DIGITS.min}-${PIN_DIGITS.max} digits`);
  });

  it('answers a wrong call with the usage code and the same usage on stderr', () => {
    const wrong = run('frobnicate');
    expect(wrong.status).toBe(EXIT.usage.code);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toBe(`returns-station: Unknown command "frobnicate".\n\n${help.stdout}`);
  });

  it('ends sync --once without an upstream with the exit code the usage gives for it', () => {
    const once = run('sync', '--once', '--data-dir', dataDir);
    expect(once.stderr).toContain('No upstream is set');
    expect(once.status).toBe(SYNC_EXIT.refused.code);
    expect(SYNC_EXIT.refused.meaning).toContain('no upstream set');
  });
});

describe('the operator guide', () => {
  it("has sync --once's exit codes once, in its table, as the command sets them", () => {
    const table = guide.slice(guide.indexOf('| exit | meaning |'));
    const rows = [...table.slice(0, table.indexOf('\n\n')).matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((row) => ({
      code: Number(row[1]),
      meaning: row[2] ?? '',
    }));
    expect(rows).toEqual(byCode(SYNC_EXIT));
    // The command table points to it rather than listing them again.
    expect(guide).toMatch(/^\| `returns-station sync --once` \| [^\n]*its exit codes: see \[Sync\]\(#sync-with-the-upstream\) \|$/m);
  });

  it("says every command's exit codes as the command sets them", () => {
    const line = guide.slice(guide.indexOf('Exit codes of every command:')).split('\n\n')[0]?.replace(/\s+/g, ' ') ?? '';
    for (const { code, meaning } of byCode(EXIT)) expect(line).toContain(`\`${code}\` ${meaning}`);
  });

  it("gives the hot set's defaults as the code has them", () => {
    expect(guide).toMatch(new RegExp(`^\\| \`RETURNS_STATION_HOT_DAYS\` \\|[^\\n]*\\| ${DEFAULT_HOT_DAYS} \\|$`, 'm'));
    expect(guide).toMatch(new RegExp(`^\\| \`RETURNS_STATION_HOT_RECENT_MAX\` \\|[^\\n]*\\| ${DEFAULT_HOT_RECENT_LIMIT} \\|$`, 'm'));
  });
});
