import { describe, expect, it } from 'vitest';
import { type Draft, emptyDraft } from '../../renderer/src/inspect/drafts.ts';
import { missingParts, type ReceiveFacts, receiveGaps, receiveQuestion } from '../../renderer/src/receiving/receive-check.ts';
import { threeLineReturn } from './fixtures.ts';
import type { ReturnRecord } from '#shared/api/returns.ts';

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
    expect(ask([unit('a', a?.id ?? 0, done), unit('b1', b?.id ?? 0, done)])).toEqual([
      `2 of ${expected} units scanned (${b?.name} 1 of ${b?.quantity}, ${c?.name} 0 of ${c?.quantity})`,
    ]);
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

describe('a return sent in two parcels', () => {
  // One line of 2 units; the first parcel brought 1, so 1 is still unreceived.
  const line = { ...(a ?? ret.return_line_items[0]), id: 1, quantity: 2, unreceived_quantity: 2 } as ReturnRecord['return_line_items'][number];
  const twoUnits = { return_line_items: [line] };
  const oneLeft = { return_line_items: [{ ...line, unreceived_quantity: 1 }] };

  it('the first parcel, with the second still to come: nothing is short', () => {
    expect(missingParts(receiveGaps(twoUnits, [unit('u1', 1, done)], true), false)).toEqual([]);
    // Without another parcel to come, it is short.
    expect(missingParts(receiveGaps(twoUnits, [unit('u1', 1, done)], false), false)).toEqual([`1 of 2 units scanned (${line.name} 1 of 2)`]);
  });

  it('the second parcel expects what is still unreceived: its one unit is all of it', () => {
    expect(missingParts(receiveGaps(oneLeft, [unit('u2', 1, done)]), false)).toEqual([]);
    expect(missingParts(receiveGaps(oneLeft, []), false)).toEqual(['nothing scanned']);
  });
});

describe('the one question F2 meets', () => {
  const facts = (over: Partial<ReceiveFacts> = {}): ReceiveFacts => ({
    packageRef: '1:7',
    trackingNumber: '1ZTEST',
    exception: false,
    correcting: false,
    allowUnsetConditions: false,
    moreParcels: false,
    ...over,
  });
  const complete = () => ret.return_line_items.flatMap((l) => Array.from({ length: l.quantity }, (_, i) => unit(`${l.id}-${i}`, l.id, done)));

  it('a complete package, inspected and put: no question', () => {
    expect(receiveQuestion(ret, complete(), facts())).toBeNull();
  });

  it('something missing: one question listing it all; a second F2 asks nothing new', () => {
    const drafts = [unit('a', a?.id ?? 0, { ...done, put_confirmed: false }), unit('b', b?.id ?? 0, { condition: null })];
    const q = receiveQuestion(ret, drafts, facts());
    expect(q?.kind).toBe('ask');
    expect(q?.kind === 'ask' && q.message).toMatch(
      /^Receive 1ZTEST — 2 of \d+ units scanned .*; 1 unit with no condition; 1 unit not put in its bin\? Press F2/,
    );
    expect(receiveQuestion(ret, drafts, facts())).toEqual(q);
  });

  it('a unit scanned or a condition set between the two F2s makes it a new question', () => {
    const drafts = [unit('a', a?.id ?? 0, done)];
    const first = receiveQuestion(ret, drafts, facts());
    const scannedMore = receiveQuestion(ret, [...drafts, unit('b', b?.id ?? 0, done)], facts());
    const conditionChanged = receiveQuestion(ret, [unit('a', a?.id ?? 0, { ...done, condition: 'fair' })], facts());
    for (const later of [scannedMore, conditionChanged]) expect(later?.kind === 'ask' && first?.kind === 'ask' && later.key !== first.key).toBe(true);
  });

  it('an exception: refused empty or with conditions unset; else always asked, with what is short and not put', () => {
    expect(receiveQuestion(ret, [], facts({ exception: true }))).toMatchObject({
      kind: 'refuse',
      message: expect.stringContaining('scan what the parcel holds'),
    });
    expect(receiveQuestion(ret, [unit('a', a?.id ?? 0)], facts({ exception: true, allowUnsetConditions: true }))).toMatchObject({
      kind: 'refuse',
      message: expect.stringContaining('set the condition of every item first (1 not set)'),
    });
    expect(receiveQuestion(ret, complete(), facts({ exception: true }))).toMatchObject({
      kind: 'ask',
      message: '1ZTEST is an exception. Press F2 again (or scan or tap Receive) to receive it as inspected.',
    });
    const short = receiveQuestion(ret, [unit('a', a?.id ?? 0, { ...done, put_confirmed: false })], facts({ exception: true }));
    expect(short?.kind === 'ask' && short.message).toMatch(/^1ZTEST is an exception — \d+ of \d+ units scanned .*; 1 unit not put in its bin\. Press F2/);
  });

  it('nothing scanned is asked even where unset conditions are allowed; a unit with no disposition is refused', () => {
    expect(receiveQuestion(ret, [], facts({ allowUnsetConditions: true }))).toMatchObject({ kind: 'ask', message: expect.stringContaining('nothing scanned') });
    expect(receiveQuestion(ret, [unit('a', a?.id ?? 0, { condition: 'good' })], facts())).toMatchObject({
      kind: 'refuse',
      message: expect.stringContaining('no disposition'),
    });
  });

  it('a correction of a receipt asks nothing', () => {
    expect(receiveQuestion(ret, [], facts({ correcting: true }))).toBeNull();
  });
});
