import { describe, expect, it } from 'vitest';
import { BurstDetector } from '../../renderer/src/scan/burst-detector.ts';
import { framedDelivery, framedStep, type KeyPlace, printableStep, scanFieldEntry, scanInTextField } from '../../renderer/src/scan/key-decisions.ts';

/*
 * The key capture's decisions, key by key, as a dock worker meets them: what reaches the scan field,
 * what a scan does where focus happens to be, and that a key pressed by hand is never glued to a scan.
 * (The same capture runs end to end in test/e2e/scanner-timing.spec.ts and scan-destination.spec.ts.)
 */

const SCAN_FIELD: KeyPlace = { kind: 'scan-field' };
const BUTTON: KeyPlace = { kind: 'elsewhere' };
const FORM_FIELD: KeyPlace = { kind: 'text-field', passthrough: false, search: false };
const SEARCH_BOX: KeyPlace = { kind: 'text-field', passthrough: false, search: true };
const ITEM_NOTES: KeyPlace = { kind: 'text-field', passthrough: true, search: false };
const CONDITION_KEYS = (char: string) => /^[0-9+-]$/.test(char);

const key = (place: KeyPlace, over: Partial<Parameters<typeof printableStep>[0]> = {}) =>
  printableStep({ place, hasScanField: true, holding: false, scanFieldEmpty: true, isShortcut: false, framed: false, ...over });

describe('a character typed by hand', () => {
  it('lands in the scan field wherever focus was, unless a form or search field has it', () => {
    expect(key(BUTTON)).toEqual({ step: 'type', joinHeld: false });
    expect(key(SCAN_FIELD)).toEqual({ step: 'type', joinHeld: false });
    expect(key(FORM_FIELD)).toEqual({ step: 'leave' });
    expect(key(SEARCH_BOX)).toEqual({ step: 'leave' });
  });

  it('types normally on a screen without a scan field', () => {
    expect(key(BUTTON, { hasScanField: false, isShortcut: true })).toEqual({ step: 'leave' });
  });

  it('a condition digit alone in the empty scan field waits a moment to see whether a scanner is typing', () => {
    expect(key(SCAN_FIELD, { isShortcut: true })).toEqual({ step: 'hold' });
    expect(key(BUTTON, { isShortcut: true })).toEqual({ step: 'hold' });
  });

  it('a digit after text in the scan field is part of what is being typed, never a shortcut', () => {
    expect(key(SCAN_FIELD, { isShortcut: true, scanFieldEmpty: false })).toEqual({ step: 'type', joinHeld: false });
  });

  it('a second key right behind a held digit joins it: the start of a code', () => {
    expect(key(SCAN_FIELD, { holding: true, isShortcut: true, scanFieldEmpty: true })).toEqual({ step: 'type', joinHeld: true });
  });

  it('with a framing scanner a condition digit runs at once (no waiting)', () => {
    expect(key(SCAN_FIELD, { isShortcut: true, framed: true })).toEqual({ step: 'shortcut' });
  });
});

/** Keys into the scan field at the given times, then Enter: what the station does with the field's text. */
function enterAfter(keys: Array<[string, number]>, enterAt: number, released: string | null = null) {
  const burst = new BurstDetector();
  for (const [char, at] of keys) burst.key(char, at);
  const value = keys.map(([char]) => char).join('');
  return scanFieldEntry(value, burst.enter(enterAt), released, CONDITION_KEYS);
}

const scanned = (code: string, from: number, gap = 12): Array<[string, number]> => [...code].map((char, i) => [char, from + i * gap]);

describe("the scan field's Enter (scans told by their speed)", () => {
  it('a scanner burst is submitted as the scanned code', () => {
    expect(enterAfter(scanned('1Z999AA10123456784', 1000), 1000 + 18 * 12)).toEqual({ shortcut: null, code: '1Z999AA10123456784' });
  });

  it('a condition digit pressed by hand just before a scan still sets the condition, then the scan runs', () => {
    const keys: Array<[string, number]> = [['2', 0], ...scanned('SKU-41DF50', 70)];
    expect(enterAfter(keys, 70 + 10 * 12, '2')).toEqual({ shortcut: '2', code: 'SKU-41DF50' });
  });

  it('another key pressed alone before a scan is dropped, not glued to the code', () => {
    const keys: Array<[string, number]> = [['+', 0], ...scanned('SKU-41DF50', 70)];
    expect(enterAfter(keys, 70 + 10 * 12, null)).toEqual({ shortcut: null, code: 'SKU-41DF50' });
  });

  it('a tracking number that starts with a digit is read whole, its first digit not taken for a condition', () => {
    expect(enterAfter(scanned('1Z999AA10123456784', 0), 18 * 12, '1')).toEqual({ shortcut: null, code: '1Z999AA10123456784' });
  });

  it('text typed by hand is submitted as typed', () => {
    const keys: Array<[string, number]> = [...'1Z42'].map((char, i) => [char, i * 150]);
    expect(enterAfter(keys, 700)).toEqual({ shortcut: null, code: '1Z42' });
  });
});

describe('a scanner burst that ends in a form or search field', () => {
  it('stays in a form field and does not send the half-filled form', () => {
    expect(scanInTextField({ passthrough: false, search: false }, false)).toBe('keep');
  });

  it('searches in a search box', () => {
    expect(scanInTextField({ passthrough: false, search: true }, false)).toBe('search');
  });

  it('in the open item\'s notes is an item scan, taken back out of the notes', () => {
    expect(scanInTextField({ passthrough: true, search: false }, false)).toBe('scan');
  });

  it('is a badge scan wherever it lands (the worker switches)', () => {
    expect(scanInTextField({ passthrough: false, search: false }, true)).toBe('scan');
    expect(scanInTextField({ passthrough: false, search: true }, true)).toBe('scan');
  });
});

describe('a framing scanner (prefix and suffix keys)', () => {
  const step = (over: Partial<Parameters<typeof framedStep>[0]>) => framedStep({ inFrame: false, isPrefix: false, isSuffix: false, printable: true, key: 'a', ...over });

  it('what lies between prefix and suffix is the scan; everything else is typing', () => {
    expect(step({ isPrefix: true, key: 'F12', printable: false })).toBe('start');
    expect(step({ inFrame: true, key: '1' })).toBe('add');
    expect(step({ inFrame: true, isSuffix: true, key: 'Enter', printable: false })).toBe('end');
    expect(step({ key: '1' })).toBe('outside');
  });

  it('Shift inside a scan is ignored; a command key inside one still works', () => {
    expect(step({ inFrame: true, key: 'Shift', printable: false })).toBe('ignore');
    expect(step({ inFrame: true, key: 'F9', printable: false })).toBe('outside');
  });

  it('a scan typed into a form field stays there; into the scan field, a button or the item notes it is a scan', () => {
    expect(framedDelivery(FORM_FIELD, false, 'Enter')).toEqual({ keep: true, letEnterThrough: false });
    expect(framedDelivery(SCAN_FIELD, false, 'Enter').keep).toBe(false);
    expect(framedDelivery(BUTTON, false, 'Enter').keep).toBe(false);
    expect(framedDelivery(ITEM_NOTES, false, 'Enter').keep).toBe(false);
  });

  it('a badge is a scan even in a form field', () => {
    expect(framedDelivery(FORM_FIELD, true, 'Enter').keep).toBe(false);
  });

  it('a search box searches with the scan when the suffix is Enter', () => {
    expect(framedDelivery(SEARCH_BOX, false, 'Enter')).toEqual({ keep: true, letEnterThrough: true });
    expect(framedDelivery(SEARCH_BOX, false, 'Tab')).toEqual({ keep: true, letEnterThrough: false });
  });
});
