import fc from 'fast-check';
import { it } from 'vitest';
import { seededRandom } from '../test-seed.ts';

// Fails on purpose: test/unit/test-seed.test.ts runs it alone (vitest.config.ts beside it) to see that
// a failure names the run's seed and that the seed decides what the test drew.
it('fails with the first case it draws', () => {
  const drawn = seededRandom('fixture')();
  fc.assert(
    fc.property(fc.noShrink(fc.integer()), (n) => {
      throw new Error(`drew ${n} and ${drawn}`);
    }),
  );
});
