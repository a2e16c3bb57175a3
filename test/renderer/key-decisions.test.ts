import { describe, expect, it } from 'vitest';
import { BurstDetector } from '../../renderer/src/scan/burst-detector.ts';
import {
  framedDelivery,
  framedStep,
  heldKeyStep,
  type KeyPlace,
  MAX_PLUS_RUN,
  printableStep,
  scanFieldEntry,
  scanInTextField,
  typedEntry,
} from '../../renderer/src/scan/key-decisions.ts';

/*
 * The key capture's decisions, key by key, as a dock worker meets them: what reaches the scan field,
 * what a scan does where focus happens to be, that a code typed by hand is read whole at any pace, and
 * that a key pressed by hand is never glued to a scan.
 * (The same capture runs end to end in test/e2e/scanner-timing.spec.ts and scan-destination.spec.ts.)
 */

const SCAN_FIELD: KeyPlace = { kind: 'scan-field' };
const BUTTON: KeyPlace = { kind: 'elsewhere' };
const FORM_FIELD: KeyPlace = { kind: 'text-field', passthrough: false, search: false };
const SEARCH_BOX: KeyPlace = { kind: 'text-field', passthrough: false, search: true };
const ITEM_NOTES: KeyPlace = { kind: 'text-field', passthrough: true, search: false };
const CONDITION_KEYS = (char: string) => /^[0-9+-]$/.test(char);
/** A package screen: conditions 1–6, + and −; one worker's badge is the short `77`. */
const PACKAGE_SCREEN = { isShortcut: (char: string) => /^[1-6+-]$/.test(char), claims: (code: string) => code === '77' };

const key = (place: KeyPlace, over: Partial<Parameters<typeof printableStep>[0]> = {}) =>
  printableStep({ place, hasScanField: true, holding: false, scanFieldEmpty: true, isShortcut: false, prompting: false, ...over });

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

  it('a condition digit alone in the empty scan field is held: previewed, not done', () => {
    expect(key(SCAN_FIELD, { isShortcut: true })).toEqual({ step: 'hold' });
    expect(key(BUTTON, { isShortcut: true })).toEqual({ step: 'hold' });
  });

  it('a digit after text in the scan field is part of what is being typed, never a shortcut', () => {
    expect(key(SCAN_FIELD, { isShortcut: true, scanFieldEmpty: false })).toEqual({ step: 'type', joinHeld: false });
  });

  it('any printable key after a held digit, however late, makes the digit the first character of a code', () => {
    expect(key(SCAN_FIELD, { holding: true, isShortcut: true, scanFieldEmpty: true })).toEqual({ step: 'type', joinHeld: true });
    expect(key(SCAN_FIELD, { holding: true, isShortcut: false, scanFieldEmpty: true })).toEqual({ step: 'type', joinHeld: true });
  });

  it('a digit answers at once only a prompt that asked for one (F10, then the disposition)', () => {
    expect(key(SCAN_FIELD, { isShortcut: true, prompting: true })).toEqual({ step: 'shortcut' });
    expect(key(SCAN_FIELD, { isShortcut: false, prompting: true })).toEqual({ step: 'type', joinHeld: false });
  });
});

describe('the key after a held digit', () => {
  const after = (k: string, mods: Partial<{ ctrlKey: boolean; altKey: boolean; metaKey: boolean }> = {}) =>
    heldKeyStep({ key: k, ctrlKey: false, altKey: false, metaKey: false, ...mods });

  it('Enter does what the digit previewed, and nothing else', () => {
    expect(after('Enter')).toBe('commit');
  });

  it('a command key (F-key, arrow, Tab, Alt+letter, Ctrl+Enter) does it, then its own action', () => {
    for (const k of ['F2', 'F3', 'F10', 'ArrowDown', 'ArrowUp', 'Tab']) expect(after(k)).toBe('commit-then');
    expect(after('s', { altKey: true })).toBe('commit-then');
    expect(after('Enter', { ctrlKey: true })).toBe('commit-then');
  });

  it('Esc or Backspace takes it back: nothing is done', () => {
    expect(after('Escape')).toBe('withdraw');
    expect(after('Backspace')).toBe('withdraw');
  });

  it('Shift alone (before a capital) decides nothing yet', () => {
    expect(after('Shift')).toBe('keep');
    expect(after('CapsLock')).toBe('keep');
  });
});

/** Keys into the scan field at the given times, then Enter: what the station does with the field's text. */
function enterAfter(keys: Array<[string, number]>, enterAt: number, released: string | null = null) {
  const burst = new BurstDetector();
  for (const [char, at] of keys) burst.key(char, at);
  const value = keys.map(([char]) => char).join('');
  return scanFieldEntry(value, burst.enter(enterAt), released, { isShortcut: CONDITION_KEYS, claims: () => false });
}

const code = (text: string, shortcut: string | null = null) => ({ kind: 'code', shortcut, code: text });

const scanned = (code: string, from: number, gap = 12): Array<[string, number]> => [...code].map((char, i) => [char, from + i * gap]);

describe("the scan field's Enter (scans told by their speed)", () => {
  it('a scanner burst is submitted as the scanned code', () => {
    expect(enterAfter(scanned('1Z999AA10123456784', 1000), 1000 + 18 * 12)).toEqual(code('1Z999AA10123456784'));
  });

  it('a condition digit pressed by hand just before a scan still sets the condition, then the scan runs', () => {
    const keys: Array<[string, number]> = [['2', 0], ...scanned('SKU-41DF50', 70)];
    expect(enterAfter(keys, 70 + 10 * 12, '2')).toEqual(code('SKU-41DF50', '2'));
  });

  it('another key pressed alone before a scan is dropped, not glued to the code', () => {
    const keys: Array<[string, number]> = [['+', 0], ...scanned('SKU-41DF50', 70)];
    expect(enterAfter(keys, 70 + 10 * 12, null)).toEqual(code('SKU-41DF50'));
  });

  it('a tracking number that starts with a digit is read whole, its first digit not taken for a condition', () => {
    expect(enterAfter(scanned('1Z999AA10123456784', 0), 18 * 12, '1')).toEqual(code('1Z999AA10123456784'));
  });

  it('text typed by hand is submitted as typed', () => {
    const keys: Array<[string, number]> = [...'1Z42'].map((char, i) => [char, i * 150]);
    expect(enterAfter(keys, 700)).toEqual(code('1Z42'));
  });

  const typed = (code: string, gaps: (i: number) => number): Array<[string, number]> => {
    let at = 0;
    return [...code].map((char, i) => [char, (at += i === 0 ? 0 : gaps(i))]);
  };

  for (const [pace, gaps] of [
    ['a steady typist (120 ms)', () => 120],
    ['an uneven typist (120–250 ms)', (i: number) => 120 + ((i * 53) % 131)],
    ['hunt and peck with a 1 s pause after the first digit', (i: number) => (i === 1 ? 1000 : 300)],
  ] as const) {
    it(`a code typed by ${pace} is read whole, its first digit the held key`, () => {
      for (const code of ['1ZDEMO0000000010', '4006381333931']) {
        const keys = typed(code, gaps);
        expect(enterAfter(keys, (keys.at(-1)?.[1] ?? 0) + 200, code.charAt(0))).toEqual({ kind: 'code', shortcut: null, code });
      }
    });
  }

  it('digits typed by hand before a fast tail are never split off it (only a single key is)', () => {
    const keys: Array<[string, number]> = [['4', 0], ['0', 200], ...scanned('0638133', 400, 20)];
    expect(enterAfter(keys, 400 + 7 * 20, '4')).toEqual(code('400638133'));
  });
});

describe('a scan field holding shortcut keys only (no code)', () => {
  /** `text` typed at a person's pace (200 ms a key), its first key held, then Enter. */
  const typedOnPackage = (text: string) => {
    const burst = new BurstDetector();
    [...text].forEach((char, i) => burst.key(char, i * 200));
    return scanFieldEntry(text, burst.enter(text.length * 200), text.charAt(0), PACKAGE_SCREEN);
  };

  it('+ pressed again and again adds that many units, never an item called "+++"', () => {
    expect(typedOnPackage('++')).toEqual({ kind: 'shortcut', char: '+', times: 2 });
    expect(typedOnPackage('++++')).toEqual({ kind: 'shortcut', char: '+', times: 4 });
    expect(typedOnPackage('+'.repeat(MAX_PLUS_RUN))).toEqual({ kind: 'shortcut', char: '+', times: MAX_PLUS_RUN });
  });

  it('+ held down until it repeats past the limit adds nothing, and says so', () => {
    // A key held down repeats at a scanner's pace: the limit holds for a burst too.
    const held = '+'.repeat(30);
    const burst = new BurstDetector();
    [...held].forEach((char, i) => burst.key(char, i === 0 ? 0 : 500 + i * 30));
    const entry = scanFieldEntry(held, burst.enter(500 + 31 * 30), '+', PACKAGE_SCREEN);
    expect(entry).toMatchObject({ kind: 'refused', text: held });
    expect(entry.kind === 'refused' && entry.message).toContain(`at most ${MAX_PLUS_RUN} units`);
  });

  it('a shortcut key alone in the field at Enter (a touch keyboard types it as text, never held) is its action once', () => {
    expect(typedOnPackage('3')).toEqual({ kind: 'shortcut', char: '3', times: 1 });
    expect(typedOnPackage('+')).toEqual({ kind: 'shortcut', char: '+', times: 1 });
    expect(typedOnPackage('-')).toEqual({ kind: 'shortcut', char: '-', times: 1 });
  });

  it('a condition key pressed again is that condition once; − pressed again removes one unit', () => {
    expect(typedOnPackage('33')).toEqual({ kind: 'shortcut', char: '3', times: 1 });
    expect(typedOnPackage('333')).toEqual({ kind: 'shortcut', char: '3', times: 1 });
    expect(typedOnPackage('--')).toEqual({ kind: 'shortcut', char: '-', times: 1 });
    expect(typedOnPackage('----')).toEqual({ kind: 'shortcut', char: '-', times: 1 });
  });

  it('other digits, + and − shorter than any code are refused: nothing is recorded', () => {
    for (const text of ['12', '305', '3+', '+3', '-+', '77', '9', '88']) {
      const entry = typedOnPackage(text);
      expect(entry, text).toMatchObject(text === '77' ? { kind: 'code', code: '77' } : { kind: 'refused', text });
    }
    // + and − alone are no code at any length.
    expect(typedOnPackage('+-+-+')).toMatchObject({ kind: 'refused' });
  });

  it('+ and digits where they are no shortcut (no package open) are refused, not looked up', () => {
    const scanScreen = { isShortcut: () => false, claims: () => false };
    for (const text of ['+++', '33', '1']) expect(typedEntry(text, scanScreen), text).toMatchObject({ kind: 'refused', text });
  });

  it('real codes typed by hand are read whole, also those that start with or repeat a shortcut key', () => {
    for (const text of ['1ZDEMO0000000010', '4006381333931', '1111', '3333', '1234', 'AC-WBN-01', '+49-BIN'])
      expect(typedOnPackage(text), text).toEqual({ kind: 'code', shortcut: null, code: text });
  });
});

describe('a scanner burst that ends in a form or search field', () => {
  it('stays in a form field and does not send the half-filled form', () => {
    expect(scanInTextField({ passthrough: false, search: false }, false)).toBe('keep');
  });

  it('searches in a search box', () => {
    expect(scanInTextField({ passthrough: false, search: true }, false)).toBe('search');
  });

  it("in the open item's notes is an item scan, taken back out of the notes", () => {
    expect(scanInTextField({ passthrough: true, search: false }, false)).toBe('scan');
  });

  it('is a badge scan wherever it lands (the worker switches)', () => {
    expect(scanInTextField({ passthrough: false, search: false }, true)).toBe('scan');
    expect(scanInTextField({ passthrough: false, search: true }, true)).toBe('scan');
  });
});

describe('a framing scanner (prefix and suffix keys)', () => {
  const step = (over: Partial<Parameters<typeof framedStep>[0]>) =>
    framedStep({ inFrame: false, isPrefix: false, isSuffix: false, printable: true, key: 'a', ...over });

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
