import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { stationV8Flags } from '../../electron/station/heap/start-flags.ts';
import { DEFAULT_SEMI_SPACE_MB, missingSemiSpaceFlag, semiSpaceGivenToNode, semiSpaceMbFromEnv } from '../../electron/station/heap/young-generation.ts';
import { STATION_BIN, startStation } from '../support/station-process.ts';

const PROBE = fileURLToPath(new URL('../support/young-generation-probe.ts', import.meta.url));

describe('the young generation the station asks node for (docs/decisions/memory-over-a-year.md)', () => {
  it('adds an 8 MiB semi-space when node has none, and RETURNS_STATION_SEMI_SPACE_MB sets it', () => {
    expect(DEFAULT_SEMI_SPACE_MB).toBe(8);
    expect(missingSemiSpaceFlag({}, [])).toBe('--max-semi-space-size=8');
    expect(missingSemiSpaceFlag({}, ['--disable-warning=ExperimentalWarning', '--expose-gc'])).toBe('--max-semi-space-size=8');
    expect(missingSemiSpaceFlag({ RETURNS_STATION_SEMI_SPACE_MB: '16' }, [])).toBe('--max-semi-space-size=16');
    expect(missingSemiSpaceFlag({ RETURNS_STATION_SEMI_SPACE_MB: '' }, [])).toBe('--max-semi-space-size=8');
  });

  it('leaves a semi-space given to node alone — on its command line or in NODE_OPTIONS — and V8’s own sizing when asked to', () => {
    expect(missingSemiSpaceFlag({}, ['--max-semi-space-size=64'])).toBeNull();
    expect(missingSemiSpaceFlag({ NODE_OPTIONS: '--trace-warnings --max_semi_space_size=32' }, [])).toBeNull();
    expect(missingSemiSpaceFlag({ RETURNS_STATION_SEMI_SPACE_MB: '0' }, [])).toBeNull();
    // A flag that only starts like it is not it.
    expect(missingSemiSpaceFlag({}, ['--max-semi-space-sizes=4'])).toBe('--max-semi-space-size=8');
  });

  it('reads the semi-space node got as node applies it: its command line wins over NODE_OPTIONS', () => {
    expect(semiSpaceGivenToNode({}, [])).toBeNull();
    expect(semiSpaceGivenToNode({ NODE_OPTIONS: '--max-semi-space-size=32' }, [])).toBe(32);
    expect(semiSpaceGivenToNode({ NODE_OPTIONS: '--max-semi-space-size=32' }, ['--max-semi-space-size=8'])).toBe(8);
  });

  it('reads Electron’s --js-flags in the desktop app (its main process takes V8 flags there), and only there', () => {
    const desktop = ['/opt/Returns Station/returns-station', '--js-flags=--expose-gc --max-semi-space-size=8', '--kiosk'];
    expect(semiSpaceGivenToNode({}, [], desktop, true)).toBe(8);
    expect(semiSpaceGivenToNode({}, [], desktop, false)).toBeNull();
  });

  it('gives the desktop’s core process its flags at start, and reads them back from its --js-flags there', () => {
    expect(stationV8Flags({})).toEqual(['--heap-growing-percent=50', '--max-semi-space-size=8']);
    expect(stationV8Flags({ RETURNS_STATION_SEMI_SPACE_MB: '16' })).toEqual(['--heap-growing-percent=50', '--max-semi-space-size=16']);
    expect(stationV8Flags({ RETURNS_STATION_SEMI_SPACE_MB: '0' })).toEqual(['--heap-growing-percent=50']);
    expect(() => stationV8Flags({ RETURNS_STATION_SEMI_SPACE_MB: 'lots' })).toThrow(RangeError);
    // The heap growth setting as `serve` reads it: a percentage, 0 for V8's own rule.
    expect(stationV8Flags({ RETURNS_STATION_HEAP_GROWTH_PERCENT: '100' })).toEqual(['--heap-growing-percent=100', '--max-semi-space-size=8']);
    expect(stationV8Flags({ RETURNS_STATION_HEAP_GROWTH_PERCENT: '0', RETURNS_STATION_SEMI_SPACE_MB: '0' })).toEqual([]);
    expect(() => stationV8Flags({ RETURNS_STATION_HEAP_GROWTH_PERCENT: 'half' })).toThrow(/RETURNS_STATION_HEAP_GROWTH_PERCENT must be a whole number from 0/);
    // utilityProcess.fork's execArgv, as the core process has it (docs/decisions/core-process.md).
    const core = ['--js-flags=--heap-growing-percent=50 --max-semi-space-size=8'];
    expect(semiSpaceGivenToNode({}, core, ['/opt/Returns Station/returns-station'], true)).toBe(8);
    expect(missingSemiSpaceFlag({}, core)).toBeNull();
  });

  it('refuses a RETURNS_STATION_SEMI_SPACE_MB that is not a whole number of MiB up to 1024', () => {
    for (const bad of ['16MB', '-1', '1.5', '2048', ' 16']) {
      expect(() => semiSpaceMbFromEnv({ RETURNS_STATION_SEMI_SPACE_MB: bad }), bad).toThrow(
        /RETURNS_STATION_SEMI_SPACE_MB must be a whole number of MiB from 0/,
      );
    }
    expect(semiSpaceMbFromEnv({ RETURNS_STATION_SEMI_SPACE_MB: '1024' })).toBe(1024);
  });
});

interface ProbeLine {
  pid: number;
  execArgv: string[];
  newSpaceMiB: number;
}

describe.runIf(process.platform !== 'win32')('returns-station serve runs with the young generation capped', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  /**
   * Starts the real serve with the probe loaded into each node process it runs in (test/support/
   * young-generation-probe.ts: it drives the young generation to its ceiling and says how large V8
   * let it grow), stops it with SIGTERM, and returns the probe's lines and the exit code.
   */
  async function serveWithProbe(
    env: Record<string, string>,
    nodeOptions = '',
  ): Promise<{ lines: ProbeLine[]; pid: number | undefined; code: number | null; output: string }> {
    dir = mkdtempSync(join(tmpdir(), 'young-generation-'));
    const file = join(dir, 'probe.jsonl');
    const station = await startStation({
      env: { ...env, RETURNS_STATION_LOG_LEVEL: 'debug', YOUNG_GENERATION_PROBE_FILE: file, NODE_OPTIONS: `--import=${PROBE} ${nodeOptions}`.trim() },
      timeoutMs: 40_000,
    });
    const pid = station.process.pid;
    const code = await station.stop();
    const { stdout, stderr } = station.output();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ProbeLine);
    return { lines, pid, code, output: stdout + stderr };
  }

  it(
    'restarts itself in place with an 8 MiB semi-space: one pid, V8’s young generation at most 16 MiB, SIGTERM still stops it cleanly',
    { timeout: 90_000 },
    async () => {
      const { lines, pid, code, output } = await serveWithProbe({});
      expect(code).toBe(0);
      // The command's first node (V8's own sizing: up to 2 × 64 MiB) and the one it became.
      expect(lines).toHaveLength(2);
      expect(lines.map((line) => line.pid)).toEqual([pid, pid]);
      expect(lines[0]?.newSpaceMiB).toBeGreaterThan(64);
      expect(lines[1]?.execArgv).toContain('--max-semi-space-size=8');
      expect(lines[1]?.newSpaceMiB).toBeLessThanOrEqual(2 * 8 + 1);
      expect(output).toMatch(/"young_generation":\{"semi_space_mb":8\}/);
    },
  );

  it('leaves the operator’s NODE_OPTIONS semi-space in effect, and V8’s own with RETURNS_STATION_SEMI_SPACE_MB=0', { timeout: 90_000 }, async () => {
    const operator = await serveWithProbe({}, '--max-semi-space-size=32');
    expect(operator.lines).toHaveLength(1);
    expect(operator.lines[0]?.newSpaceMiB).toBeGreaterThan(2 * 8 + 1);
    expect(operator.lines[0]?.newSpaceMiB).toBeLessThanOrEqual(2 * 32);
    expect(operator.output).toMatch(/"young_generation":\{"semi_space_mb":32\}/);
    rmSync(dir ?? '', { recursive: true, force: true });

    const own = await serveWithProbe({ RETURNS_STATION_SEMI_SPACE_MB: '0' });
    expect(own.lines).toHaveLength(1);
    expect(own.lines[0]?.newSpaceMiB).toBeGreaterThan(64);
    expect(own.output).toMatch(/"young_generation":\{"semi_space_mb":null\}/);
  });

  it('refuses a bad RETURNS_STATION_SEMI_SPACE_MB with usage and exit code 2', () => {
    const bad = spawnSync(process.execPath, [STATION_BIN, 'serve', '--port', '0'], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, RETURNS_STATION_SEMI_SPACE_MB: '16MB' },
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('RETURNS_STATION_SEMI_SPACE_MB must be a whole number of MiB from 0');
  });
});
