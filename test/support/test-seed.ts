/*
 * One seed for every randomised test of a run, so a failure can be replayed: vitest.config.ts sets
 * RETURNS_STATION_TEST_SEED for the run (the one given, or a new one), vitest-setup.ts hands it to
 * fast-check and prints it with every failing test, and the tests' other random choices (when to
 * kill a station) come from seededRandom(). docs/testing.md, "Randomised tests".
 */

export const TEST_SEED_ENV = 'RETURNS_STATION_TEST_SEED';
/** fast-check's `path` of a failing case, to replay just that case (with `-t` naming its test). */
export const TEST_PATH_ENV = 'RETURNS_STATION_TEST_PATH';

/** The run's seed: the variable's, or a new one when it is unset. A value that is not a 32-bit integer is refused. */
export function testSeedFrom(env: Record<string, string | undefined>): number {
  const given = env[TEST_SEED_ENV];
  if (given === undefined || given === '') return (Date.now() ^ Math.floor(Math.random() * 2 ** 31)) | 0;
  const seed = Number(given);
  if (!/^-?\d{1,10}$/.test(given) || seed !== (seed | 0))
    throw new Error(`${TEST_SEED_ENV} must be a 32-bit integer (as a failing test printed it), got "${given}".`);
  return seed;
}

/** fast-check's replay path from the environment, when given. */
export function testPathFrom(env: Record<string, string | undefined>): string | undefined {
  const given = env[TEST_PATH_ENV];
  if (given === undefined || given === '') return undefined;
  if (!/^\d+(:\d+)*$/.test(given)) throw new Error(`${TEST_PATH_ENV} must be fast-check's path (digits and colons, e.g. 12:0:3), got "${given}".`);
  return given;
}

/** The seed of this run (vitest.config.ts put it in the environment of every test worker). */
export const TEST_SEED = testSeedFrom(process.env);

/**
 * Numbers in [0, 1) like Math.random(), the same sequence for the same seed and label (mulberry32 on
 * the seed mixed with the label), so each use draws its own sequence whatever the others draw.
 */
export function seededRandom(label: string, seed = TEST_SEED): () => number {
  let state = seed;
  for (const char of label) state = Math.imul(state ^ char.charCodeAt(0), 0x01000193);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
