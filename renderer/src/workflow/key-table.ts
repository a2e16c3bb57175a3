import { SETTINGS_SECTIONS } from '../settings/sections.ts';
import type { Screen } from '../state/nav-store.ts';

/*
 * The station's keyboard, in one table: for each screen (and state of a screen the keys differ in),
 * every key, what it does, and when it applies. The key handling (keyboard.ts) acts on a key only
 * through its row here, and the legend at the bottom of the screen (ShortcutHints) is made from the
 * same rows, so every key a screen acts on is shown on it, and nothing is shown that does not act.
 *
 * A key is named as the legend writes it: `F2`, `Esc`, `Ctrl+Enter`, `Ctrl+Z`, `Alt+S`, `Alt+1`,
 * `↑`, `↓`, a typed character (`1`, `+`, `-`), or what no key handler sees: `Scan` (a scanner's code,
 * the scan field's), `Enter` and `Tab` (the scan field's and the browser's own).
 */

/** What a row's key does, run by the key handling (keyboard.ts); the row's words say it on screen. */
export type KeyAction =
  | 'receive'
  | 'defective'
  | 'photo'
  | 'label'
  | 'evidence'
  | 'split'
  | 'correct'
  | 'undo'
  | 'override'
  | 'camera'
  | 'item-up'
  | 'item-down'
  | 'condition'
  | 'more'
  | 'fewer'
  | 'sign-in'
  | 'pick-return'
  | 'pick-package'
  | 'settings-section'
  | 'supervisor'
  | 'back'
  | 'clear'
  | 'leave-settings'
  | 'leave-form'
  | `go:${NavTarget}`;

/** The screens a key opens from anywhere (Alt and a letter). */
export type NavTarget = 'scan' | 'packages' | 'returns' | 'supervisor' | 'print-queue' | 'workers';

export interface KeyRow {
  /** The keys, each as the handler matches it; the legend writes them together (`1–6`, `Alt+S P R`). */
  readonly keys: readonly string[];
  /** What it does, in the legend's words. */
  readonly does: string;
  /** The action the key handling runs; null: the scan field's or the browser's own (Scan, Enter, Tab). */
  readonly run: KeyAction | null;
  /** Only outside a text field (there the arrows move the caret and Ctrl+Z undoes typing). */
  readonly notInText?: true;
  /** A handheld without a keyboard can press it too (its scanner's trigger): shown there. */
  readonly touch?: true;
}

/** The screens and the states the keys differ in; what the legend and the key handling look up. */
export type KeyContext =
  | 'signin'
  | 'first-supervisor'
  | 'scan'
  | 'package'
  | 'package-received'
  | 'package-cancelled'
  | 'register'
  | 'packages'
  | 'returns'
  | 'print-queue'
  | 'settings'
  | 'rules'
  | 'rules-managed'
  | 'commands'
  | 'sync'
  | 'workers'
  | 'workers-managed'
  | 'supervisor'
  | 'reviews';

/** What decides the key context: who is signed in, the screen, the open package's state, a site's hub. */
export interface KeyState {
  signedIn: boolean;
  /** The station has no worker at all: its first supervisor's form. */
  nobody: boolean;
  screen: Screen;
  /** The open package takes no changes: received (not being corrected) or cancelled. */
  locked: 'received' | 'cancelled' | null;
  /** The workers and rules are a site hub's. */
  managed: boolean;
}

export function keyContextOf(state: KeyState): KeyContext {
  if (!state.signedIn) return state.nobody ? 'first-supervisor' : 'signin';
  if (state.screen === 'package' && state.locked !== null) return `package-${state.locked}`;
  if (state.managed && (state.screen === 'workers' || state.screen === 'rules')) return `${state.screen}-managed`;
  return state.screen;
}

/** Alt and a letter: the screen it opens (the header's buttons show theirs), from every screen. */
export const NAV_KEYS: Readonly<Record<NavTarget, string>> = {
  scan: 'Alt+S',
  packages: 'Alt+P',
  returns: 'Alt+R',
  supervisor: 'Alt+D',
  'print-queue': 'Alt+L',
  workers: 'Alt+W',
};

const row = (keys: readonly string[], does: string, run: KeyAction | null, more: Pick<KeyRow, 'notInText' | 'touch'> = {}): KeyRow => ({
  keys,
  does,
  run,
  ...more,
});
const digits = (from: number, to: number, prefix = '') => Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}`);

const SCAN_NEXT = row(['Scan'], 'next parcel', null, { touch: true });
const BACK = row(['Esc'], 'back', 'back');
const CAMERA = row(['F9'], 'camera', 'camera');
const SUPERVISOR = row(['Alt+U'], 'supervisor', 'supervisor');
/** The open package's evidence pack (its zip saved, its PDF shown), whatever its state. */
const EVIDENCE = row(['Alt+E'], 'evidence', 'evidence');
/** What every signed-in screen takes besides its own keys: the camera, the screens (one legend entry: `Alt+S P R D L W screens`), the supervisor. */
const EVERYWHERE: readonly KeyRow[] = [
  CAMERA,
  ...(Object.keys(NAV_KEYS) as NavTarget[]).map((target) => row([NAV_KEYS[target]], 'screens', `go:${target}`)),
  SUPERVISOR,
];

const OWN: Readonly<Record<KeyContext, readonly KeyRow[]>> = {
  signin: [row(['Scan'], 'badge', null, { touch: true }), row(digits(1, 9), 'pick your name', 'sign-in'), row(['Esc'], 'clear', 'clear'), CAMERA, SUPERVISOR],
  // A station with nobody to sign in: its first supervisor's form.
  'first-supervisor': [row(['Tab'], 'next field', null), row(['Enter'], 'set up the supervisor', null, { touch: true })],
  scan: [
    row(['Scan'], 'open parcel', null, { touch: true }),
    row(['Enter'], 'open typed code', null),
    row(digits(1, 9), 'pick a listed one', 'pick-package'),
    row(['Esc'], 'clear', 'clear'),
  ],
  package: [
    row(['Scan'], 'add a unit', null, { touch: true }),
    row(digits(1, 6), 'condition', 'condition'),
    row(['↑'], 'item', 'item-up', { notInText: true }),
    row(['↓'], 'item', 'item-down', { notInText: true }),
    row(['+'], 'unit', 'more'),
    row(['-'], 'unit', 'fewer'),
    row(['F2', 'Ctrl+Enter'], 'receive', 'receive'),
    row(['F3'], 'defective', 'defective'),
    row(['F4'], 'photo', 'photo'),
    row(['F5'], 'label', 'label'),
    row(['F6'], 'split', 'split'),
    row(['F8'], 'undo', 'undo'),
    row(['Ctrl+Z'], 'undo', 'undo', { notInText: true }),
    row(['F10'], 'override', 'override'),
    EVIDENCE,
    BACK,
  ],
  // A received package (until F7 opens it for a correction) and a cancelled one take no changes: a
  // key of the open package's that is not theirs is refused with the reason (REFUSED_AS_LOCKED); a
  // received unit's label prints again.
  'package-received': [
    row(['F7'], 'correct receipt', 'correct'),
    row(['F5'], 'label', 'label'),
    row(['↑'], 'item', 'item-up', { notInText: true }),
    row(['↓'], 'item', 'item-down', { notInText: true }),
    EVIDENCE,
    SCAN_NEXT,
    BACK,
  ],
  'package-cancelled': [EVIDENCE, SCAN_NEXT, BACK],
  register: [
    row(['Scan'], 'find return', null, { touch: true }),
    row(digits(1, 9), 'attach to return', 'pick-return'),
    row(['Tab'], 'manual return form', null),
    BACK,
  ],
  packages: [row(['Tab'], 'filters and search', null), BACK],
  returns: [row(['Tab'], 'filters and search', null), BACK],
  'print-queue': [row(['Tab'], 'cancel a waiting label', null), BACK],
  settings: [
    row(digits(1, SETTINGS_SECTIONS.length, 'Alt+'), 'section', 'settings-section'),
    row(['Tab'], 'next setting', null),
    row(['Esc'], 'back', 'leave-settings'),
  ],
  rules: [row(['Tab'], 'next field', null), row(['Enter'], 'save', null), row(['Esc'], 'back (asks when not saved)', 'leave-form')],
  commands: [BACK],
  sync: [row(['Tab'], 'upstream, waiting changes', null), BACK],
  // On a site's member the workers and the rules are the hub's: nothing to type, only the way back.
  'workers-managed': [row(['Tab'], 'next', null), row(['Esc'], 'back', 'leave-form')],
  'rules-managed': [row(['Tab'], 'next', null), row(['Esc'], 'back', 'leave-form')],
  workers: [row(['Tab'], 'next field', null), row(['Enter'], 'add / save worker', null), row(['Esc'], 'back', 'leave-form')],
  supervisor: [row(['Tab'], 'day, late after, export, held for review, lists', null), BACK],
  reviews: [row(['Tab'], 'release, confirm a finding', null), row(['Enter'], 'release / confirm', null), BACK],
};

/** The open package's keys that a locked one (received, cancelled) refuses with the reason rather than ignores. */
export const REFUSED_AS_LOCKED: Partial<Record<KeyContext, KeyContext>> = { 'package-received': 'package', 'package-cancelled': 'package' };

/** Every key of a context: its own, then (signed in) the camera, the screens and the supervisor. */
export function keyRows(context: KeyContext): readonly KeyRow[] {
  const signedIn = context !== 'signin' && context !== 'first-supervisor';
  return signedIn ? [...OWN[context], ...EVERYWHERE] : OWN[context];
}

/** The row a key acts through in a context, or null: the key does nothing there. */
export function keyRowFor(context: KeyContext, key: string, inTextField: boolean): KeyRow | null {
  const found = keyRows(context).find((r) => r.run !== null && r.keys.includes(key));
  if (!found || (found.notInText === true && inTextField)) return null;
  return found;
}

/**
 * The name of a key as the table writes it, or null for a key the table never names: F-keys, Esc,
 * Ctrl+Enter, Ctrl+Z, Alt and a letter or digit (by its place on the keyboard, whatever the layout
 * types), the arrows.
 */
export function keyNameOf(event: { key: string; code: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }): string | null {
  const ctrl = event.ctrlKey || event.metaKey;
  if (event.altKey && !ctrl) {
    const letter = /^Key([A-Z])$/.exec(event.code)?.[1] ?? /^Digit([0-9])$/.exec(event.code)?.[1];
    return letter === undefined ? null : `Alt+${letter}`;
  }
  if (/^F\d{1,2}$/.test(event.key)) return event.key;
  if (event.key === 'Escape') return 'Esc';
  if (ctrl && event.key === 'Enter') return 'Ctrl+Enter';
  if (ctrl && event.key.toLowerCase() === 'z') return 'Ctrl+Z';
  if (event.key === 'ArrowUp') return '↑';
  if (event.key === 'ArrowDown') return '↓';
  return null;
}

/** The keys the table names anywhere: one pressed where it does nothing does nothing, not the browser's (find, reload, caret browsing). */
const STATION_KEYS: ReadonlySet<string> = new Set((Object.keys(OWN) as KeyContext[]).flatMap((context) => keyRows(context).flatMap((r) => r.keys)));

/** Whether a key that does nothing here is kept from the browser: the table's F-keys, Ctrl+Enter, and Ctrl+Z outside a text field. */
export function keptFromBrowser(key: string, inTextField: boolean): boolean {
  if (!STATION_KEYS.has(key)) return false;
  return /^F\d+$/.test(key) || key === 'Ctrl+Enter' || key === 'Esc' || (key === 'Ctrl+Z' && !inTextField);
}

/** One entry of the legend: keys written together, what they do, and whether a handheld shows it. */
export interface LegendEntry {
  keys: string;
  does: string;
  touch: boolean;
}

/**
 * The legend of a context, made from its rows: rows that say the same share an entry (`↑ ↓ item`,
 * `+ − unit`, `F8/Ctrl+Z undo`, `Alt+S P R D L W screens`); digits in a run are a range (`1–6`).
 */
export function legendOf(context: KeyContext): LegendEntry[] {
  const entries: { keys: string[]; does: string; touch: boolean }[] = [];
  for (const r of keyRows(context)) {
    const same = entries.find((e) => e.does === r.does);
    if (same) {
      same.keys.push(...r.keys);
      same.touch ||= r.touch === true;
    } else entries.push({ keys: [...r.keys], does: r.does, touch: r.touch === true });
  }
  return entries.map((e) => ({ keys: writeKeys(e.keys), does: e.does, touch: e.touch }));
}

/** Keys as the legend writes them: `1–6`, `Alt+1–4`, `Alt+S P R`, `↑ ↓`, `+ −`, `F2/Ctrl+Enter`. */
export function writeKeys(keys: readonly string[]): string {
  const first = /^(.*?)(\d)$/.exec(keys[0] ?? '');
  if (keys.length > 2 && first && keys.every((k, i) => k === `${first[1] ?? ''}${Number(first[2]) + i}`))
    return `${keys[0] ?? ''}–${Number(first[2]) + keys.length - 1}`;
  if (keys.length > 1 && keys.every((k) => /^Alt\+[A-Z]$/.test(k))) return `Alt+${keys.map((k) => k.slice(4)).join(' ')}`;
  const single = keys.every((k) => k.length === 1);
  return keys.map((k) => (k === '-' ? '−' : k)).join(single ? ' ' : '/');
}

/** The keys a legend entry stands for (writeKeys read back): what a test holds against the key handling. */
export function readKeys(written: string): string[] {
  const range = /^(.*?)(\d)–(\d)$/.exec(written);
  if (range) return digits(Number(range[2]), Number(range[3]), range[1]);
  const alt = /^Alt\+([A-Z](?: [A-Z])+)$/.exec(written);
  if (alt) return (alt[1] ?? '').split(' ').map((letter) => `Alt+${letter}`);
  return written.split(written.includes('/') ? '/' : ' ').map((k) => (k === '−' ? '-' : k));
}
