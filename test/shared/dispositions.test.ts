import { describe, expect, it } from 'vitest';
import { DispositionRuleListSchema, DispositionRulesUpdateSchema } from '#shared/api/disposition-rules.ts';
import { fieldErrorsFromIssues } from '#shared/api/errors.ts';
import { PackageLineItemUpdateSchema } from '#shared/api/line-items.ts';
import {
  DEFAULT_DISPOSITION_RULES,
  firstMatchingRule,
  sameBin,
  unreachableRules,
  withStationTags,
  type DispositionRuleLike,
  type ItemFacts,
} from '#shared/dispositions.ts';
import { lineItemIdOfUnit, stationShortId, unitIdPrefix } from '../../electron/station/domain/station-instance.ts';

/*
 * The disposition rules as pure functions: first match wins, what each condition matches,
 * which rule sets cannot be saved and why, and the station's tags.
 */

const any = { condition: null, defective: null, reason_contains: null, sku_prefix: null, package_status: null } as const;
const r = (when: Partial<DispositionRuleLike>, disposition: DispositionRuleLike['disposition'] = 'restock', bin = 'B'): DispositionRuleLike => ({
  ...any,
  disposition,
  bin,
  ...when,
});
const facts = (over: Partial<ItemFacts> = {}): ItemFacts => ({
  condition: 'new',
  defective: false,
  reason_of_return: 'Too small',
  merchant_sku: 'TS-RED-M',
  package_status: 'delivered',
  ...over,
});
const decide = (rules: DispositionRuleLike[], f: Partial<ItemFacts>) => firstMatchingRule(rules, facts(f))?.rule.disposition ?? null;

describe('evaluation', () => {
  it('the defaults give every inspected item a disposition, first match wins', () => {
    const rules = [...DEFAULT_DISPOSITION_RULES];
    expect(decide(rules, { condition: 'new' })).toBe('restock');
    expect(decide(rules, { condition: 'like_new' })).toBe('restock');
    expect(decide(rules, { condition: 'new', defective: true })).toBe('return_to_vendor');
    expect(decide(rules, { condition: 'unsellable', defective: true })).toBe('return_to_vendor');
    expect(decide(rules, { condition: 'unsellable' })).toBe('dispose');
    expect(decide(rules, { condition: 'damaged' })).toBe('liquidate');
    expect(decide(rules, { condition: 'good' })).toBe('refurbish');
    expect(decide(rules, { condition: 'fair' })).toBe('refurbish');
    expect(decide(rules, { condition: null, defective: true })).toBe('return_to_vendor');
  });

  it('an item not inspected yet (no condition, not defective) matches nothing, not even a rule without conditions', () => {
    expect(decide([r({})], { condition: null })).toBeNull();
  });

  it('reason contains and SKU prefix ignore case; a missing SKU matches only a rule without a prefix', () => {
    const rules = [r({ reason_contains: 'RECALL' }, 'quarantine'), r({ sku_prefix: 'ts-' }, 'refurbish'), r({}, 'dispose')];
    expect(decide(rules, { reason_of_return: 'Product recall notice' })).toBe('quarantine');
    expect(decide(rules, { merchant_sku: 'TS-BLUE' })).toBe('refurbish');
    expect(decide(rules, { merchant_sku: null })).toBe('dispose');
    expect(decide(rules, { merchant_sku: 'XTS-1' })).toBe('dispose');
  });

  it('package status and condition sets', () => {
    const rules = [r({ package_status: ['exception'] }, 'quarantine'), r({ condition: ['good', 'fair'] }, 'refurbish'), r({}, 'restock')];
    expect(decide(rules, { package_status: 'exception', condition: 'new' })).toBe('quarantine');
    expect(decide(rules, { condition: 'fair' })).toBe('refurbish');
    expect(decide(rules, { condition: 'new' })).toBe('restock');
  });
});

describe('rules that can never apply', () => {
  const unreachable = (rules: DispositionRuleLike[]) => unreachableRules(rules).map((u) => u.index);

  it('the defaults are all reachable; a catch-all after them is not', () => {
    expect(unreachable([...DEFAULT_DISPOSITION_RULES])).toEqual([]);
    expect(unreachable([...DEFAULT_DISPOSITION_RULES, r({}, 'quarantine')])).toEqual([5]);
  });

  it('a duplicate (conditions equal up to order and case) is named as one', () => {
    const found = unreachableRules([r({ condition: ['new', 'good'], sku_prefix: 'AB' }), r({ condition: ['good', 'new'], sku_prefix: 'ab' }, 'dispose')]);
    expect(found).toEqual([{ index: 1, message: expect.stringContaining('Duplicate: rules[0]') as string }]);
  });

  it('is hidden by one earlier rule, or by several together', () => {
    expect(unreachable([r({}), r({ condition: ['damaged'] })])).toEqual([1]);
    expect(unreachable([r({ defective: false }), r({ defective: true }), r({ reason_contains: 'x' })])).toEqual([2]);
    expect(unreachable([r({ condition: ['new', 'like_new'] }), r({ condition: ['good', 'fair', 'damaged', 'unsellable'] }), r({ defective: false })])).toEqual([
      2,
    ]);
    const message = unreachableRules([r({ defective: false }), r({ defective: true }), r({})])[0]?.message;
    expect(message).toContain('rules[0], rules[1]');
  });

  it('text: a longer reason or prefix is hidden by a shorter one before it, never the other way round', () => {
    expect(unreachable([r({ reason_contains: 'call' }), r({ reason_contains: 'Recall notice' })])).toEqual([1]);
    expect(unreachable([r({ reason_contains: 'Recall notice' }), r({ reason_contains: 'call' })])).toEqual([]);
    expect(unreachable([r({ sku_prefix: 'AB' }), r({ sku_prefix: 'abc' })])).toEqual([1]);
    expect(unreachable([r({ sku_prefix: 'abc' }), r({ sku_prefix: 'AB' })])).toEqual([]);
    expect(unreachable([r({ sku_prefix: 'AB' }), r({})])).toEqual([]);
  });

  it('a partial overlap is allowed (first match wins)', () => {
    expect(unreachable([r({ condition: ['new'] }), r({ condition: ['new', 'good'] })])).toEqual([]);
    expect(unreachable([r({ package_status: ['delivered'] }), r({})])).toEqual([]);
    expect(unreachable([r({ defective: true, condition: ['damaged'] }), r({ condition: ['damaged'] })])).toEqual([]);
  });
});

describe('the schemas say it field by field', () => {
  const paths = (result: { success: boolean; error?: { issues: Parameters<typeof fieldErrorsFromIssues>[0] } }) =>
    result.error ? fieldErrorsFromIssues(result.error.issues).map((f) => f.path) : [];

  it('every problem of a rule set at its own path', () => {
    const result = DispositionRulesUpdateSchema.safeParse({
      rules: [
        { disposition: 'restock', bin: 'A-1', condition: [] },
        { disposition: 'resell', bin: 'A-2' },
        { disposition: 'dispose', bin: 'two words' },
        { disposition: 'dispose', bin: 'X', package_status: ['lost'] },
      ],
      dispositions: { restock: { label: '', color: '#12345' } },
    });
    expect(paths(result)).toEqual(
      expect.arrayContaining([
        'rules[0].condition',
        'rules[1].disposition',
        'rules[2].bin',
        'rules[3].package_status[0]',
        'dispositions.restock.label',
        'dispositions.restock.color',
        'dispositions.refurbish',
      ]),
    );
  });

  it('shadowed rules at rules[i], the defaults accepted', () => {
    expect(
      paths(
        DispositionRuleListSchema.safeParse([
          { disposition: 'restock', bin: 'A' },
          { disposition: 'dispose', bin: 'B', defective: true },
        ]),
      ),
    ).toEqual(['[1]']);
    expect(DispositionRuleListSchema.safeParse(DEFAULT_DISPOSITION_RULES).success).toBe(true);
    expect(paths(DispositionRuleListSchema.safeParse([]))).toEqual(['']);
  });

  it('an override needs its reason; bin, reason and worker come only with one', () => {
    expect(paths(PackageLineItemUpdateSchema.safeParse({ disposition: 'refurbish' }))).toEqual(['disposition_reason']);
    expect(paths(PackageLineItemUpdateSchema.safeParse({ bin: 'A', disposition_reason: 'x' }))).toEqual(['bin', 'disposition_reason']);
    expect(paths(PackageLineItemUpdateSchema.safeParse({ disposition: null, disposition_reason: 'x' }))).toEqual(['disposition_reason']);
    expect(paths(PackageLineItemUpdateSchema.safeParse({ disposition: 'refurbish', disposition_reason: '   ' }))).toEqual(['disposition_reason']);
    expect(PackageLineItemUpdateSchema.safeParse({ disposition: 'refurbish', bin: 'R-1', disposition_reason: 'Scratch', disposition_by: 3 }).success).toBe(
      true,
    );
    expect(PackageLineItemUpdateSchema.safeParse({ disposition: null }).success).toBe(true);
  });
});

describe('tags, bins and unit ids', () => {
  it("the station's tags replace its earlier ones and keep the rest, in order", () => {
    expect(withStationTags(['a', 'disposition:old', 'b', 'bin:X', 'unit:U'], { disposition: 'restock', bin: 'A-12', unit_id: 'RS-1-2' })).toEqual([
      'a',
      'b',
      'disposition:restock',
      'bin:A-12',
      'unit:RS-1-2',
    ]);
    expect(withStationTags(['a', 'bin:X'], { disposition: null, bin: null, unit_id: null })).toEqual(['a']);
  });

  it('bins compare without case', () => {
    expect(sameBin('a-12', 'A-12')).toBe(true);
    expect(sameBin('A-12', 'A-13')).toBe(false);
  });

  it("a unit id is RS-, the station's short id and the line item's id, and names its item back", () => {
    const instance = 'q1Zk3-_pA9bX';
    const short = stationShortId(instance);
    expect(short).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(stationShortId(instance)).toBe(short);
    expect(stationShortId('AAAAAAAAAAAA')).not.toBe(short);
    expect(unitIdPrefix(instance)).toBe(`RS-${short}-`);
    expect(lineItemIdOfUnit(`RS-${short}-42`, instance)).toBe(42);
    expect(lineItemIdOfUnit(`RS-${short}-042`, instance)).toBeNull();
    expect(lineItemIdOfUnit('RS-00000000-42', instance)).toBeNull();
  });
});
