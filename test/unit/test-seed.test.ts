import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom, TEST_PATH_ENV, TEST_SEED, TEST_SEED_ENV, testPathFrom, testSeedFrom } from '../support/test-seed.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The fixture that fails on purpose, run by vitest as a developer would, with the given seed. */
function runFailingFixture(seed: number) {
  // A clean environment for the inner run: none of this worker's vitest variables.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== TEST_SEED_ENV));
  return spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/support/seed-replay/vitest.config.ts'], {
    cwd: root,
    env: { ...env, [TEST_SEED_ENV]: String(seed), NO_COLOR: '1', FORCE_COLOR: '0' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('the seed of randomised tests', () => {
  it('is the one given to the run, the same in every worker', () => {
    expect(process.env[TEST_SEED_ENV]).toBe(String(TEST_SEED));
    expect(fc.readConfigureGlobal().seed).toBe(TEST_SEED);
  });

  it("is named by a failing test, and decides the case fast-check draws and the tests' own random choices", () => {
    const seed = 918_273_645;
    const run = runFailingFixture(seed);
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(1);
    expect(output).toContain(`Randomised with ${TEST_SEED_ENV}=${seed}: run again with it to replay`);
    expect(output).toContain(`seed: ${seed}, path: "0"`);
    // The case it drew is the one this seed gives anywhere: a replay draws it again.
    const [first] = fc.sample(fc.noShrink(fc.integer()), { seed, numRuns: 1 });
    expect(output).toContain(`drew ${first} and ${seededRandom('fixture', seed)()}`);
  });

  it('draws the same numbers for the same seed and label, other ones for another label or seed', () => {
    const draw = (label: string, seed: number) => Array.from({ length: 5 }, seededRandom(label, seed));
    expect(draw('kill', 7)).toEqual(draw('kill', 7));
    expect(draw('kill', 7)).not.toEqual(draw('kill', 8));
    expect(draw('kill', 7)).not.toEqual(draw('other', 7));
    for (const value of draw('kill', 7)) expect(value >= 0 && value < 1).toBe(true);
  });

  it('is refused, with the variable named, when it is not a 32-bit integer; unset, a new one', () => {
    expect(testSeedFrom({ [TEST_SEED_ENV]: '-42' })).toBe(-42);
    for (const bad of ['abc', '1.5', '4294967296', '12 ']) {
      expect(() => testSeedFrom({ [TEST_SEED_ENV]: bad })).toThrow(`${TEST_SEED_ENV} must be a 32-bit integer (as a failing test printed it), got "${bad}".`);
    }
    expect(Number.isInteger(testSeedFrom({}))).toBe(true);
    expect(testPathFrom({ [TEST_PATH_ENV]: '12:0:3' })).toBe('12:0:3');
    expect(() => testPathFrom({ [TEST_PATH_ENV]: 'x' })).toThrow(TEST_PATH_ENV);
  });
});
