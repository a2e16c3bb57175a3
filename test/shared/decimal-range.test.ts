import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalRangePattern, INT32_MAX } from '#shared/api/common.ts';

/** The pattern the document shows for an integer carried as text matches exactly the range's spellings. */
describe('decimalRangePattern', () => {
  const ranges: Array<[number, number]> = [
    [1, INT32_MAX],
    [1, 250],
    [0, 9],
    [1, 10080],
    [7, 7],
    [0, 1],
    [95, 105],
    [1, 3650],
  ];

  it.each(ranges)('%i … %i: every integer near the bounds and at random', (min, max) => {
    const re = new RegExp(decimalRangePattern(min, max), 'u');
    const probes = [min - 1, min, min + 1, max - 1, max, max + 1, 0, 9, 10, 99, 100, 2 ** 31, 10 ** 10];
    for (const n of probes) if (n >= 0) expect(re.test(String(n)), `${n}`).toBe(n >= min && n <= max);
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 33 }), (n) => re.test(String(n)) === (n >= min && n <= max)));
  });

  it('no other spelling: leading zeros, signs, fractions, exponents, spaces', () => {
    const re = new RegExp(decimalRangePattern(1, INT32_MAX), 'u');
    for (const text of ['', '0', '07', '+7', '-7', '7.0', '1e1', ' 7', '7 ', '0x7', '٧']) expect(re.test(text), text).toBe(false);
  });
});
