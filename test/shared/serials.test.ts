import { describe, expect, it } from 'vitest';
import { SerialRulesSchema } from '#shared/api/serial-rules.ts';
import { luhnValid, serialOfTags, serialProblem, serialRuleFor, skuMatches, withSerialTag } from '#shared/serials.ts';

/*
 * The serial rules' evaluation (shared/serials.ts), which the station and the dock both run: what a
 * SKU pattern matches, the IMEI's Luhn check, a text serial's bounds, and the serial tag beside the
 * worker's tags.
 */

describe('a SKU pattern', () => {
  it('is a glob over the whole SKU, without regard to case: * any run (none too), ? one character', () => {
    expect(skuMatches('PHONE-*', 'PHONE-X1')).toBe(true);
    expect(skuMatches('PHONE-*', 'phone-')).toBe(true);
    expect(skuMatches('PHONE-*', 'XPHONE-1')).toBe(false);
    expect(skuMatches('PHONE-*', 'PHONE')).toBe(false);
    expect(skuMatches('TAB-??', 'TAB-10')).toBe(true);
    expect(skuMatches('TAB-??', 'TAB-100')).toBe(false);
    expect(skuMatches('*-PRO', 'LAPTOP-PRO')).toBe(true);
    expect(skuMatches('*', 'ANYTHING')).toBe(true);
  });

  it('takes the characters a regular expression gives meaning to as themselves', () => {
    expect(skuMatches('A.B+(1)', 'A.B+(1)')).toBe(true);
    expect(skuMatches('A.B', 'AXB')).toBe(false);
    expect(skuMatches('[AB]-1', 'A-1')).toBe(false);
    expect(skuMatches('[AB]-1', '[AB]-1')).toBe(true);
    expect(skuMatches('X$^|\\', 'X$^|\\')).toBe(true);
  });

  it('the first rule that matches decides; no rule, no serial needed', () => {
    const rules = SerialRulesSchema.parse([
      { sku_pattern: 'PHONE-TEST-*', kind: 'text' },
      { sku_pattern: 'PHONE-*', kind: 'imei' },
    ]);
    expect(serialRuleFor(rules, 'PHONE-TEST-1')).toEqual({ sku_pattern: 'PHONE-TEST-*', kind: 'text', min_length: 1, max_length: 33 });
    expect(serialRuleFor(rules, 'PHONE-1')?.kind).toBe('imei');
    expect(serialRuleFor(rules, 'CASE-1')).toBeNull();
    expect(serialRuleFor(rules, null)).toBeNull();
  });
});

describe('an IMEI', () => {
  it('passes the Luhn check only with its right check digit', () => {
    expect(luhnValid('490154203237518')).toBe(true);
    expect(luhnValid('356938035643809')).toBe(true);
    for (let d = 0; d < 10; d += 1) if (d !== 8) expect(luhnValid(`49015420323751${d}`)).toBe(false);
    // Two neighbouring digits swapped: caught.
    expect(luhnValid('490154203273518')).toBe(false);
  });

  it('is 15 digits with a good check digit, else the reason in words', () => {
    const imei = { sku_pattern: 'P-*', kind: 'imei' } as const;
    expect(serialProblem(imei, ' 490154203237518 ')).toBeNull();
    expect(serialProblem(imei, '49015420323751')).toBe('An IMEI is 15 digits: 49015420323751 has 14.');
    expect(serialProblem(imei, '4901542032375180')).toBe('An IMEI is 15 digits: 4901542032375180 has 16.');
    expect(serialProblem(imei, '49015420323751X')).toBe('An IMEI is 15 digits: 49015420323751X has other characters.');
    expect(serialProblem(imei, '490154203237519')).toMatch(/^490154203237519 is not a valid IMEI: its check digit is wrong/);
    expect(serialProblem(imei, '')).toBe('Scan or type the serial.');
  });
});

describe('a text serial', () => {
  it("is within its rule's bounds, visible ASCII without spaces", () => {
    const text = { sku_pattern: 'L-*', kind: 'text', min_length: 4, max_length: 6 } as const;
    expect(serialProblem(text, 'AB12')).toBeNull();
    expect(serialProblem(text, 'AB1')).toBe('This serial must have 4–6 characters: AB1 has 3.');
    expect(serialProblem(text, 'AB1234X')).toBe('This serial must have 4–6 characters: AB1234X has 7.');
    expect(serialProblem(text, 'AB 12')).toMatch(/without spaces/);
    expect(serialProblem(text, 'ÄB12')).toMatch(/without spaces/);
  });
});

describe('the serial tag', () => {
  it("replaces any serial tag, keeps the worker's other tags in order, and reads back", () => {
    const tags = withSerialTag(['scratched', 'serial:OLD', 'boxed'], 'NEW-1');
    expect(tags).toEqual(['scratched', 'boxed', 'serial:NEW-1']);
    expect(serialOfTags(tags)).toBe('NEW-1');
    expect(withSerialTag(tags, null)).toEqual(['scratched', 'boxed']);
    expect(serialOfTags(['serial:'])).toBeNull();
  });
});
