import { describe, expect, it } from 'vitest';
import { type KeyContext, keyContextOf, keyNameOf, keyRowFor, legendOf, readKeys, REFUSED_AS_LOCKED } from '../../renderer/src/workflow/key-table.ts';

/*
 * The one keyboard table: the key handling acts on a key of a screen exactly when the screen's legend
 * shows it. The legend is read back from the words it shows (`1–6`, `Alt+S P R D L W`, `F8/Ctrl+Z`)
 * and held against what the handler looks up for every key a keyboard can send.
 */

const CONTEXTS: KeyContext[] = [
  'signin',
  'first-supervisor',
  'scan',
  'package',
  'package-received',
  'package-cancelled',
  'register',
  'packages',
  'returns',
  'print-queue',
  'settings',
  'rules',
  'rules-managed',
  'commands',
  'sync',
  'workers',
  'workers-managed',
  'supervisor',
];

/** Every key a keyboard sends that the station could take: F-keys, Esc, Ctrl+Enter, Ctrl+Z, Alt and a letter or digit, the arrows, typed digits, + and −. */
const EVERY_KEY = [
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
  'Esc',
  'Ctrl+Enter',
  'Ctrl+Z',
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split('').map((c) => `Alt+${c}`),
  '↑',
  '↓',
  ...'0123456789+-'.split(''),
];

/** What the legend shows as keys; `Scan`, `Tab` and `Enter` are the scan field's and the browser's own. */
const shown = (context: KeyContext) => legendOf(context).flatMap((entry) => readKeys(entry.keys));
const OWN_OF_FIELD_OR_BROWSER = ['Scan', 'Tab', 'Enter'];

describe('the keyboard table', () => {
  it.each(CONTEXTS)('%s: the handler acts on a key exactly when the legend shows it', (context) => {
    const acted = EVERY_KEY.filter((key) => keyRowFor(context, key, false) !== null);
    const legend = shown(context).filter((key) => !OWN_OF_FIELD_OR_BROWSER.includes(key));
    expect(new Set(legend)).toEqual(new Set(acted));
    expect(legend.length).toBe(new Set(legend).size);
  });

  it('the package screen shows every key it acts on, F9, F10, Ctrl+Enter, Alt+D and Alt+L among them', () => {
    const legend = legendOf('package').map((e) => `${e.keys} ${e.does}`);
    expect(legend).toEqual(
      expect.arrayContaining(['F2/Ctrl+Enter receive', 'F9 camera', 'F10 override', 'F8/Ctrl+Z undo', '1–6 condition', 'Alt+S P R D L W screens']),
    );
    expect(shown('package')).toEqual(expect.arrayContaining(['Alt+D', 'Alt+L', 'F5', 'F3', 'F4', 'F6', '↑', '↓', '+', '-']));
  });

  it('a received package shows correction, label and the way on, and no receive; its other package keys are refused, not done', () => {
    expect(shown('package-received')).toEqual(expect.arrayContaining(['F7', 'F5', 'Scan', 'Esc']));
    for (const key of ['F2', 'Ctrl+Enter', 'F3', 'F4', 'F6', 'F8', 'F10', '1', '+']) {
      expect(keyRowFor('package-received', key, false), key).toBeNull();
      expect(keyRowFor(REFUSED_AS_LOCKED['package-received'] ?? 'package', key, false), key).not.toBeNull();
    }
    expect(shown('package-cancelled').filter((k) => k.startsWith('F') && k !== 'F9')).toEqual([]);
  });

  it('arrows and Ctrl+Z act on the screen only outside a text field (there they move the caret and undo typing)', () => {
    for (const key of ['↑', '↓', 'Ctrl+Z']) {
      expect(keyRowFor('package', key, false), key).not.toBeNull();
      expect(keyRowFor('package', key, true), key).toBeNull();
    }
    expect(keyRowFor('package', 'F2', true)?.run).toBe('receive');
  });

  it('a handheld shows what it can press: a scan, never an F-key', () => {
    for (const context of CONTEXTS) {
      const touch = legendOf(context).filter((e) => e.touch);
      for (const entry of touch)
        expect(
          readKeys(entry.keys).every((k) => OWN_OF_FIELD_OR_BROWSER.includes(k)),
          `${context}: ${entry.keys}`,
        ).toBe(true);
    }
    expect(legendOf('package').filter((e) => e.touch)).toEqual([{ keys: 'Scan', does: 'add a unit', touch: true }]);
  });

  it('names keys as the table does, by their place for Alt (any layout)', () => {
    const k = (key: string, more: Partial<{ code: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) =>
      keyNameOf({ key, code: '', ctrlKey: false, metaKey: false, altKey: false, ...more });
    expect(k('F10')).toBe('F10');
    expect(k('Escape')).toBe('Esc');
    expect(k('Enter', { ctrlKey: true })).toBe('Ctrl+Enter');
    expect(k('Enter', { metaKey: true })).toBe('Ctrl+Enter');
    expect(k('Z', { ctrlKey: true })).toBe('Ctrl+Z');
    expect(k('ß', { altKey: true, code: 'KeyS' })).toBe('Alt+S');
    expect(k('¡', { altKey: true, code: 'Digit1' })).toBe('Alt+1');
    expect(k('ArrowDown')).toBe('↓');
    expect(k('Enter')).toBeNull();
    expect(k('a')).toBeNull();
  });

  it('the key context follows the sign-in, the screen, the package lock and the site', () => {
    const base = { signedIn: true, nobody: false, screen: 'package', locked: null, managed: false } as const;
    expect(keyContextOf(base)).toBe('package');
    expect(keyContextOf({ ...base, locked: 'received' })).toBe('package-received');
    expect(keyContextOf({ ...base, signedIn: false })).toBe('signin');
    expect(keyContextOf({ ...base, signedIn: false, nobody: true })).toBe('first-supervisor');
    expect(keyContextOf({ ...base, screen: 'rules', managed: true })).toBe('rules-managed');
  });
});
