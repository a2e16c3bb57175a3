import { describe, expect, it } from 'vitest';
import { applyItemScan, type Draft, emptyDraft, lineRows, splitDraft, unexpectedDrafts, updateDraft } from '../../renderer/src/inspect/drafts.ts';
import { conditionForKey } from '../../renderer/src/inspect/conditions.ts';
import { keys, threeLineReturn } from './fixtures.ts';

function scanAll(codes: string[], start: Draft[] = []) {
  const ret = threeLineReturn();
  const key = keys();
  let drafts = start;
  const outcomes = [];
  for (const code of codes) {
    const r = applyItemScan(drafts, ret, code, key);
    drafts = r.drafts;
    outcomes.push(r.outcome);
  }
  return { drafts, outcomes, ret };
}

describe('item scans', () => {
  it('adds one unit per scan to the line whose SKU matches, whatever the case and spaces', () => {
    const { drafts, outcomes } = scanAll(['SKU-A', 'SKU-B', ' sku-b ', 'sku-c']);
    expect(drafts.map((d) => [d.return_line_item_id, d.quantity])).toEqual([
      [71, 1],
      [72, 2],
      [73, 1],
    ]);
    expect(outcomes.every((o) => o.kind === 'line' && !o.over)).toBe(true);
  });

  it('marks an over-receipt from the first unit beyond what is due', () => {
    const { outcomes, drafts, ret } = scanAll(['SKU-A', 'SKU-A']);
    expect(outcomes[1]).toMatchObject({ kind: 'line', over: true });
    const row = lineRows(ret, drafts).find((r) => r.line.id === 71);
    expect(row).toMatchObject({ expected: 1, here: 2, remaining: -1 });
  });

  it('records an unknown code as an unexpected item, and a repeat of it as a second unit', () => {
    const { outcomes, drafts, ret } = scanAll(['4006381333931', '4006381333931']);
    expect(outcomes[0]).toMatchObject({ kind: 'unexpected', isNew: true });
    expect(outcomes[1]).toMatchObject({ kind: 'unexpected', isNew: false });
    expect(unexpectedDrafts(ret, drafts)).toHaveLength(1);
    expect(drafts[0]).toMatchObject({ return_line_item_id: null, quantity: 2, barcode: '4006381333931' });
  });

  it('counts exactly twenty for twenty scans', () => {
    const { drafts } = scanAll(Array(20).fill('SKU-B'));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]?.quantity).toBe(20);
  });

  it('shows received-before from the return and still-due after this package', () => {
    const ret = threeLineReturn();
    const line = ret.return_line_items[1];
    if (line) line.unreceived_quantity = 1; // one of two came in an earlier package
    const { drafts } = applyItemScan([], ret, 'SKU-B', keys());
    expect(lineRows(ret, drafts)[1]).toMatchObject({ expected: 2, receivedBefore: 1, here: 1, remaining: 0 });
  });

  it('for a package already received, does not count its own units twice', () => {
    const ret = threeLineReturn();
    const line = ret.return_line_items[0];
    if (line) line.unreceived_quantity = 0;
    const drafts: Draft[] = [{ ...emptyDraft('li-1', 71), condition: 'good' }];
    expect(lineRows(ret, drafts, true)[0]).toMatchObject({ receivedBefore: 0, here: 1, remaining: 0 });
  });
});

describe('editing drafts', () => {
  it('removes a draft whose quantity drops below one', () => {
    const { drafts } = scanAll(['SKU-A']);
    const key = drafts[0]?.key ?? '';
    expect(updateDraft(drafts, key, { quantity: 0 })).toEqual([]);
    expect(updateDraft(drafts, key, { condition: 'damaged' })[0]?.condition).toBe('damaged');
  });

  it('maps number keys to conditions', () => {
    expect(['1', '2', '3', '4', '5', '6', '7'].map(conditionForKey)).toEqual(['new', 'like_new', 'good', 'fair', 'damaged', 'unsellable', null]);
  });
});

describe('splitting a unit off into its own condition', () => {
  it('moves one unit into a new item of the same line, which then takes its own condition', () => {
    const { drafts, ret } = scanAll(['SKU-B', 'SKU-B']);
    const source = drafts.find((d) => d.return_line_item_id === 72);
    const withGood = updateDraft(drafts, source?.key ?? '', { condition: 'good' });
    const split = splitDraft(withGood, source?.key ?? '', 'unit-2');
    expect(split).not.toBeNull();
    const damaged = updateDraft(split ?? [], 'unit-2', { condition: 'damaged' });
    const ofLine = damaged.filter((d) => d.return_line_item_id === 72);
    expect(ofLine.map((d) => [d.quantity, d.condition])).toEqual([
      [1, 'good'],
      [1, 'damaged'],
    ]);
    // The line still counts both units, and shows the split unit as a row of its own.
    const row = lineRows(ret, damaged).find((r) => r.line.id === 72);
    expect(row).toMatchObject({ here: 2, remaining: 0 });
    expect(row?.others.map((d) => d.key)).toEqual(['unit-2']);
  });

  it('refuses to split an item of one unit', () => {
    const { drafts } = scanAll(['SKU-A']);
    expect(splitDraft(drafts, drafts[0]?.key ?? '', 'x')).toBeNull();
  });

  it('counts a further scan of the line on the selected item, not always the first', () => {
    const ret = threeLineReturn();
    const key = keys();
    const two = applyItemScan(applyItemScan([], ret, 'SKU-B', key).drafts, ret, 'SKU-B', key).drafts;
    const split = splitDraft(two, two[0]?.key ?? '', 'unit-2') ?? [];
    const onSelected = applyItemScan(split, ret, 'SKU-B', key, false, 'unit-2').drafts;
    expect(onSelected.map((d) => [d.key, d.quantity])).toEqual([
      [two[0]?.key, 1],
      ['unit-2', 2],
    ]);
    const noSelection = applyItemScan(split, ret, 'SKU-B', key).drafts;
    expect(noSelection.map((d) => d.quantity)).toEqual([2, 1]);
  });
});
