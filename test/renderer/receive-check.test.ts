import { describe, expect, it } from 'vitest';
import { type Draft, emptyDraft } from '../../renderer/src/inspect/drafts.ts';
import { missingParts, receiveGaps } from '../../renderer/src/receiving/receive-check.ts';
import { threeLineReturn } from './fixtures.ts';

/*
 * What receiving asks about before it receives (workflow/commands.ts asks it once, a second F2
 * receives): nothing scanned, fewer units than the return expects, conditions, bin puts.
 */

const ret = threeLineReturn();
const [a, b, c] = ret.return_line_items;
const unit = (key: string, lineId: number | null, over: Partial<Draft> = {}): Draft => ({ ...emptyDraft(key, lineId), quantity: 1, ...over });
const ask = (drafts: Draft[], allowUnset = false) => missingParts(receiveGaps(ret, drafts), allowUnset);
const done = { condition: 'good', disposition: 'refurbish', bin: 'REFURB', put_confirmed: true } as const;

describe('what receiving asks about', () => {
  it('nothing scanned: always, also where the station allows unset conditions', () => {
    expect(ask([])).toEqual(['nothing scanned']);
    expect(ask([], true)).toEqual(['nothing scanned']);
  });

  it('a package complete, every unit inspected and put: nothing', () => {
    const all = ret.return_line_items.flatMap((l) => Array.from({ length: l.quantity }, (_, i) => unit(`${l.id}-${i}`, l.id, done)));
    expect(ask(all)).toEqual([]);
  });

  it('fewer units than expected: the lines short, counted as the sum of quantities whether a draft holds one unit or several', () => {
    const expected = ret.return_line_items.reduce((sum, l) => sum + l.quantity, 0);
    expect(ask([unit('a', a?.id ?? 0, done), unit('b1', b?.id ?? 0, done)])).toEqual([`2 of ${expected} units scanned (${b?.name} 1 of ${b?.quantity}, ${c?.name} 0 of ${c?.quantity})`]);
    // Line b's two units as one line item of quantity 2, or as two of 1: the same count.
    const asOneLine = [unit('a', a?.id ?? 0, done), unit('b', b?.id ?? 0, { ...done, quantity: 2 })];
    const asUnits = [unit('a', a?.id ?? 0, done), unit('b1', b?.id ?? 0, done), unit('b2', b?.id ?? 0, done)];
    for (const drafts of [asOneLine, asUnits]) expect(ask(drafts)).toEqual([`3 of ${expected} units scanned (${c?.name} 0 of ${c?.quantity})`]);
    // An unexpected item or an over-receipt does not make up for a missing line.
    const gaps = receiveGaps(ret, [unit('a', a?.id ?? 0, { ...done, quantity: 5 }), unit('x', null, done)]);
    expect(gaps.short.map((l) => l.name)).toEqual([b?.name, c?.name]);
    expect(gaps.lineUnits).toBe(a?.quantity);
  });

  it('conditions and puts missing, in units; the station setting drops only the conditions', () => {
    const drafts = ret.return_line_items.map((l) => unit(String(l.id), l.id, { quantity: l.quantity, disposition: 'restock', bin: 'RESTOCK' }));
    const units = ret.return_line_items.reduce((sum, l) => sum + l.quantity, 0);
    expect(ask(drafts)).toEqual([`${units} units with no condition`, `${units} units not put in their bins`]);
    expect(ask(drafts, true)).toEqual([`${units} units not put in their bins`]);
  });
});
