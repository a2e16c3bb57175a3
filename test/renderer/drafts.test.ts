import { describe, expect, it } from 'vitest';
import {
  addUnit,
  applyItemScan,
  type Draft,
  draftFromLineItem,
  emptyDraft,
  lineRows,
  removeUnit,
  splitDraft,
  unexpectedDrafts,
  unitsOfItem,
  updateDraft,
} from '../../renderer/src/inspect/drafts.ts';
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
  it('adds one unit per scan, each an item of its own, to the line whose SKU matches, whatever the case and spaces', () => {
    const { drafts, outcomes, ret } = scanAll(['SKU-A', 'SKU-B', ' sku-b ', 'sku-c']);
    expect(drafts.map((d) => [d.return_line_item_id, d.quantity])).toEqual([
      [71, 1],
      [72, 1],
      [72, 1],
      [73, 1],
    ]);
    expect(outcomes.every((o) => o.kind === 'line' && !o.over)).toBe(true);
    // Each scan selects the unit it made.
    expect(outcomes.map((o) => (o.kind === 'line' ? o.key : null))).toEqual(drafts.map((d) => d.key));
    expect(lineRows(ret, drafts)[1]).toMatchObject({ here: 2, remaining: 0 });
  });

  it('never copies a condition to a second unit of the same line', () => {
    const first = scanAll(['SKU-B']);
    const inspected = updateDraft(first.drafts, first.drafts[0]?.key ?? '', { condition: 'like_new', condition_by: 4 });
    const { drafts } = applyItemScan(inspected, first.ret, 'SKU-B', () => 'second');
    expect(drafts.map((d) => [d.return_line_item_id, d.condition, d.condition_by ?? null])).toEqual([
      [72, 'like_new', 4],
      [72, null, null],
    ]);
    expect(drafts[0]?.key).not.toBe(drafts[1]?.key);
  });

  it('marks an over-receipt from the first unit beyond what is due', () => {
    const { outcomes, drafts, ret } = scanAll(['SKU-A', 'SKU-A']);
    expect(outcomes[1]).toMatchObject({ kind: 'line', over: true });
    const row = lineRows(ret, drafts).find((r) => r.line.id === 71);
    expect(row).toMatchObject({ expected: 1, here: 2, remaining: -1 });
  });

  it('records an unknown code as an unexpected item, and a repeat of it as a second unit of its own', () => {
    const { outcomes, drafts, ret } = scanAll(['4006381333931', '4006381333931']);
    expect(outcomes[0]).toMatchObject({ kind: 'unexpected', isNew: true });
    expect(outcomes[1]).toMatchObject({ kind: 'unexpected', isNew: false });
    expect(unexpectedDrafts(ret, drafts)).toHaveLength(2);
    expect(drafts.map((d) => [d.return_line_item_id, d.quantity, d.barcode, d.name])).toEqual([
      [null, 1, '4006381333931', 'Unexpected item 4006381333931'],
      [null, 1, '4006381333931', 'Unexpected item 4006381333931'],
    ]);
    expect(unitsOfItem(drafts, drafts[1] as Draft)).toBe(2);
  });

  it('counts exactly twenty units for twenty scans', () => {
    const { drafts, ret } = scanAll(Array(20).fill('SKU-B'));
    expect(drafts).toHaveLength(20);
    expect(new Set(drafts.map((d) => d.key)).size).toBe(20);
    expect(lineRows(ret, drafts)[1]).toMatchObject({ here: 20, remaining: -18 });
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
  it("moves one unit of an item of several (an integrator's line) into a new item of the same line, which then takes its own condition", () => {
    const ret = threeLineReturn();
    const drafts: Draft[] = [{ ...emptyDraft('li-5', 72), quantity: 2 }];
    const source = drafts[0];
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
});

describe('+ and − at the dock', () => {
  it("+ adds another unit of the selected item right after it, condition unset, without the first unit's own tags", () => {
    const { drafts } = scanAll(['SKU-A', 'SKU-B', 'SKU-C']);
    const b = drafts[1] as Draft;
    const inspected = updateDraft(drafts, b.key, {
      condition: 'good',
      notes: 'scuffed',
      unit_id: 'RS-AAAAAAAA-7',
      tags: ['gift', 'unit:RS-AAAAAAAA-7', 'bin:REFURB'],
    });
    const next = addUnit(inspected, b.key, 'unit-new') ?? [];
    expect(next.map((d) => d.key)).toEqual([drafts[0]?.key, b.key, 'unit-new', drafts[2]?.key]);
    expect(next[2]).toMatchObject({ return_line_item_id: 72, quantity: 1, condition: null, notes: null, unit_id: null, tags: ['gift'] });
    expect(addUnit(drafts, 'nothing', 'x')).toBeNull();
  });

  it('− takes a unit off unless it was put or its label printed; an item of several loses one', () => {
    const { drafts } = scanAll(['SKU-B', 'SKU-B']);
    const [a, b] = drafts as [Draft, Draft];
    expect(removeUnit(drafts, b.key, false)).toEqual({ drafts: [a] });
    expect(removeUnit(updateDraft(drafts, b.key, { put_confirmed: true }), b.key, false)).toEqual({ kept: 'put' });
    expect(removeUnit(updateDraft(drafts, b.key, { labelled: true }), b.key, false)).toEqual({ kept: 'labelled' });
    // A received package printed every unit's label.
    expect(removeUnit(updateDraft(drafts, b.key, { unit_id: 'RS-AAAAAAAA-9' }), b.key, true)).toEqual({ kept: 'labelled' });
    // An item of several loses one, until its label or put stands for all of them (the station refuses it too).
    const several = updateDraft(drafts, a.key, { quantity: 3 });
    expect(removeUnit(several, a.key, false)).toEqual({ drafts: [{ ...a, quantity: 2 }, b] });
    expect(removeUnit(updateDraft(several, a.key, { labelled: true }), a.key, false)).toEqual({ kept: 'labelled' });
    expect(removeUnit(updateDraft(several, a.key, { put_confirmed: true }), a.key, false)).toEqual({ kept: 'put' });
  });

  it('− knows a unit labelled on the station (another terminal, or before a reload) from its labelled_at', () => {
    const item = {
      id: 9,
      return_line_item_id: 72,
      quantity: 1,
      merchant_sku: 'SKU-B',
      name: 'B',
      condition: 'good',
      defective: false,
      notes: null,
      barcode: null,
      tags: [],
      disposition: 'refurbish',
      bin: 'REFURB',
      unit_id: 'RS-AAAAAAAA-9',
      disposition_source: 'rule',
      disposition_override: null,
      put_confirmed_at: null,
      put_by: null,
      condition_by: null,
      condition_at: null,
      serial: null,
      serial_check: null,
    } as const;
    const labelled = draftFromLineItem({ ...item, tags: [], labelled_at: '2026-11-27T23:00:00.000Z' });
    const notYet = draftFromLineItem({ ...item, tags: [], labelled_at: null });
    expect(removeUnit([labelled], labelled.key, false)).toEqual({ kept: 'labelled' });
    expect(removeUnit([notYet], notYet.key, false)).toEqual({ drafts: [] });
  });
});
