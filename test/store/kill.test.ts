import { afterEach, beforeEach, expect, it } from 'vitest';
import { tempDataDir } from './fixtures.ts';
import { killRounds } from './kill-harness.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDataDir());
});
afterEach(() => cleanup());

// A few rounds here; `npm run bench` runs many more.
it('loses no acknowledged write when killed with SIGKILL at random moments', async () => {
  const report = await killRounds(dir, 4);
  expect(report.violations).toEqual([]);
  expect(report.acknowledged).toBeGreaterThan(0);
  expect(report.lost).toBe(0);
});
