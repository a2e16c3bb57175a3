import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { STATION_BIN, startStation } from '../support/station-process.ts';

const HEAP_GROWTH = fileURLToPath(new URL('../../electron/station/heap/growth.ts', import.meta.url));
const FREED_PAGES = fileURLToPath(new URL('../../electron/station/heap/freed-pages.ts', import.meta.url));
const RESIDENT = fileURLToPath(new URL('../bench/native-memory.ts', import.meta.url));

/**
 * A node process that bounds its heap growth as the station does, then runs a full GC with V8's
 * tracing on: V8 prints the growing factor it computed the next limit with.
 */
function factorAfterGc(percent: number | null, nodeFlags: string[] = []): { growth: unknown; factors: string[] } {
  const script = `
    import { setFlagsFromString } from 'node:v8';
    import { boundHeapGrowth } from ${JSON.stringify(HEAP_GROWTH)};
    console.log(JSON.stringify(boundHeapGrowth(${JSON.stringify(percent)})));
    const kept = Array.from({ length: 200_000 }, (_, i) => ({ i, s: 'record ' + i }));
    setFlagsFromString('--trace-gc-verbose');
    globalThis.gc();
    setFlagsFromString('--no-trace-gc-verbose');
    console.log(kept.length);
  `;
  const run = spawnSync(process.execPath, ['--expose-gc', ...nodeFlags, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  expect(run.status, run.stderr).toBe(0);
  const [first = ''] = run.stdout.split('\n');
  return { growth: JSON.parse(first), factors: [...run.stdout.matchAll(/\[HeapController\] factor (\d+\.\d)/g)].map((match) => match[1] ?? '') };
}

/**
 * A node process whose records are replaced steadily (as a station's hot set is: a day's records
 * die in the old generation), which then asks for the freed pages back and keeps working until
 * they are. Prints the V8 pages resident before and after, in MiB.
 */
interface AroundRelease {
  before: number;
  after: number;
  releasedByForcedGcs: boolean;
}

function pagesAroundRelease(nodeFlags: string[] = []): AroundRelease {
  const script = `
    import { freedPages } from ${JSON.stringify(FREED_PAGES)};
    import { residentByMapping } from ${JSON.stringify(RESIDENT)};
    const live = new Map();
    let next = 0;
    const work = async (rounds) => {
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < 10_000; k++) {
          live.set(next, { id: next, text: 'record ' + next, nested: { at: next } });
          live.delete(next - 100_000);
          next += 1;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await work(150);
    const before = residentByMapping().v8Pages;
    let released = false;
    freedPages.release().then(() => (released = true));
    // Forced GCs (as the year bench's samples run) are never memory-reducing: they must not count.
    globalThis.gc?.();
    globalThis.gc?.();
    await new Promise((resolve) => setImmediate(resolve));
    const releasedByForcedGcs = released;
    for (let rounds = 0; !released && rounds < 2_000; rounds++) await work(1);
    console.log(JSON.stringify({ before, after: released ? residentByMapping().v8Pages : before, releasedByForcedGcs }));
  `;
  const run = spawnSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as AroundRelease;
}

describe.runIf(process.platform === 'linux')('the station gives freed heap pages back (docs/decisions/memory-over-a-year.md)', () => {
  it('after a release, V8 holds a fraction of the pages its GCs had freed and kept; forced GCs do not end it', { timeout: 60_000 }, () => {
    const { before, after, releasedByForcedGcs } = pagesAroundRelease(['--expose-gc']);
    expect(releasedByForcedGcs).toBe(false);
    expect(before).toBeGreaterThan(100);
    expect(after).toBeLessThan(before / 2);
  });

  it('leaves a memory-saver mode given to node alone', { timeout: 60_000 }, () => {
    const { before, after } = pagesAroundRelease(['--no-memory-saver-mode']);
    expect(after).toBeGreaterThan(before / 2);
  });
});

describe('the station bounds V8 heap growth (docs/decisions/memory-over-a-year.md)', () => {
  it('takes effect in a running process: the next full GC grows the heap limit by 1.5× the live heap, not V8’s up to 4×', () => {
    const bounded = factorAfterGc(50);
    expect(bounded.growth).toEqual({ percent: 50, source: 'station' });
    expect(bounded.factors).toContain('1.5');
    expect(bounded.factors).not.toContain('4.0');
  });

  it('leaves a --heap-growing-percent given to node alone, and V8’s own rule when asked to', () => {
    const operator = factorAfterGc(50, ['--heap-growing-percent=20']);
    expect(operator.growth).toEqual({ source: 'command line' });
    expect(operator.factors).toContain('1.2');
    expect(factorAfterGc(null).growth).toEqual({ source: 'v8' });
  });

  it('returns-station serve bounds it by default and takes RETURNS_STATION_HEAP_GROWTH_PERCENT', { timeout: 60_000 }, async () => {
    const debug = { RETURNS_STATION_LOG_LEVEL: 'debug' };
    const byDefault = await startStation({ env: debug });
    await byDefault.stop();
    expect(byDefault.output().stderr + byDefault.output().stdout).toMatch(/"heap_growth":\{"percent":50,"source":"station"\}/);

    const tuned = await startStation({ env: { ...debug, RETURNS_STATION_HEAP_GROWTH_PERCENT: '25' } });
    await tuned.stop();
    expect(tuned.output().stderr + tuned.output().stdout).toMatch(/"heap_growth":\{"percent":25,"source":"station"\}/);
  });

  it('returns-station serve refuses a bad RETURNS_STATION_HEAP_GROWTH_PERCENT with usage and exit code 2', () => {
    const bad = spawnSync(process.execPath, [STATION_BIN, 'serve', '--port', '0'], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, RETURNS_STATION_HEAP_GROWTH_PERCENT: '1.5x' },
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('RETURNS_STATION_HEAP_GROWTH_PERCENT must be a whole number from 0');
  });
});
