import type { Burst } from './burst-detector.ts';

/*
 * The decisions of the station's key capture (scan/key-capture.ts), free of the DOM and of timers so
 * they can be tested key by key: where a typed character goes, what the scan field's Enter submits,
 * whether a scan typed into a form field stays there, and which keys belong to a framed scan.
 */

/** Where a key landed: the scan field, another text field (a form field, a search box), or anywhere else (a button, the page). */
export type KeyPlace = { kind: 'scan-field' } | { kind: 'text-field'; passthrough: boolean; search: boolean } | { kind: 'elsewhere' };

export interface PrintableKey {
  place: KeyPlace;
  /** Whether the screen has a scan field at all. */
  hasScanField: boolean;
  /** A lone shortcut character is held (previewed, not yet done). */
  holding: boolean;
  scanFieldEmpty: boolean;
  /** Whether the character is a shortcut on this screen. */
  isShortcut: boolean;
  /** A prompt on screen asks for a number (F10's dispositions): nothing is being typed, it answers at once. */
  prompting: boolean;
}

/**
 * A printable character (outside a framed scan):
 * - `leave`: it types into the field it landed in (another text field; or no scan field on screen);
 * - `type`: it belongs in the scan field (moved there when typed elsewhere), after the held character
 *   when `joinHeld`: a key after a held one means the held one was the first character of a code;
 * - `hold`: a lone shortcut character in the empty scan field is held: its action is previewed, and
 *   nothing is done until a key says what it was (see heldKeyStep);
 * - `shortcut`: a prompt asked for this key: it runs at once.
 */
export type PrintableStep = { step: 'leave' } | { step: 'type'; joinHeld: boolean } | { step: 'hold' } | { step: 'shortcut' };

export function printableStep(key: PrintableKey): PrintableStep {
  if (key.place.kind === 'text-field' || !key.hasScanField) return { step: 'leave' };
  if (key.holding) return { step: 'type', joinHeld: true };
  if (key.scanFieldEmpty && key.isShortcut) return key.prompting ? { step: 'shortcut' } : { step: 'hold' };
  return { step: 'type', joinHeld: false };
}

/**
 * A key that is not printable while a shortcut character is held:
 * - `commit`: the held character was the shortcut: it runs, and the key is swallowed (Enter);
 * - `commit-then`: it runs, then the key does what it does (an F-key, an arrow, Tab, Alt+letter);
 * - `withdraw`: the held character is dropped, nothing done (Esc, Backspace);
 * - `keep`: a modifier pressed on its own (Shift before a capital): still undecided.
 */
export type HeldKeyStep = 'commit' | 'commit-then' | 'withdraw' | 'keep';

const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'AltGraph', 'Meta', 'CapsLock', 'NumLock', 'Fn', 'Dead', 'Unidentified']);

export function heldKeyStep(key: { key: string; ctrlKey: boolean; altKey: boolean; metaKey: boolean }): HeldKeyStep {
  if (MODIFIERS.has(key.key)) return 'keep';
  const plain = !key.ctrlKey && !key.altKey && !key.metaKey;
  if (plain && key.key === 'Enter') return 'commit';
  if (plain && (key.key === 'Escape' || key.key === 'Backspace' || key.key === 'Delete')) return 'withdraw';
  return 'commit-then';
}

/**
 * What the scan field's Enter does:
 * - `code`: an optional shortcut run first (a key pressed by hand just before a scan), then the code submitted;
 * - `shortcut`: the field held only a shortcut key pressed again and again: it runs `times` times;
 * - `refused`: the field held no code and no shortcut: nothing is done, the worker is told why.
 */
export type ScanFieldEntry =
  | { kind: 'code'; shortcut: string | null; code: string }
  | { kind: 'shortcut'; char: string; times: number }
  | { kind: 'refused'; text: string; message: string };

/** No code the station reads is shorter (tracking numbers, SKUs, EANs, bins, badges typed by hand). */
export const MIN_CODE_LENGTH = 4;
/** The most units one Enter adds with + pressed again and again (a key held down repeats for ever). */
export const MAX_PLUS_RUN = 9;

/** What the scan field's text means besides a code: the same for a scanner's and a person's Enter. */
export interface TypedText {
  /** Whether `char` typed alone is a shortcut on this screen. */
  isShortcut(char: string): boolean;
  /** A code that is a scan wherever it lands (a badge): always a code, however short. */
  claims(code: string): boolean;
}

/**
 * The field's text when nothing was split off it. A text of shortcut keys only is not a code: a key
 * pressed again and again is the key once (a worker repeating a key whose preview they took for not
 * done: `33` sets condition 3 once, `--` removes one unit), except `+`, which adds a unit each time
 * (`+++`: three units, at most MAX_PLUS_RUN). A repeated digit of MIN_CODE_LENGTH or more is a code
 * (`1111`). Other text of digits, + and − shorter than any code (`12`, `3+`), or of + and − alone, is
 * refused: nothing is recorded. A badge the station knows is a code however short.
 */
export function typedEntry(text: string, how: TypedText): ScanFieldEntry {
  const first = text.charAt(0);
  // Once too: a touch keyboard's keys reach the page as text, not as keys that could be held.
  const repeated = text.length >= 1 && [...text].every((char) => char === first) && how.isShortcut(first);
  if (repeated && first === '+') {
    return text.length <= MAX_PLUS_RUN
      ? { kind: 'shortcut', char: '+', times: text.length }
      : { kind: 'refused', text, message: `+ pressed ${text.length} times: at most ${MAX_PLUS_RUN} units are added at one Enter. Nothing was added.` };
  }
  if (repeated && (first === '-' || text.length < MIN_CODE_LENGTH)) return { kind: 'shortcut', char: first, times: 1 };
  const notACode = /^[+-]+$/.test(text) || (/^[0-9+-]+$/.test(text) && text.length < MIN_CODE_LENGTH);
  if (notACode && !how.claims(text)) {
    return {
      kind: 'refused',
      text,
      message: `${text} is not a code (codes have ${MIN_CODE_LENGTH} characters or more): nothing was recorded. A key's action takes the key once, then Enter.`,
    };
  }
  return { kind: 'code', shortcut: null, code: text };
}

/**
 * The scan field's Enter when scans are told by their speed. `value` is the field's text (a held
 * character included), `scanned` the burst that ended with this Enter, `released` the held shortcut
 * character that went into the field because more keys followed it. The field's text is submitted
 * whole, as typed (see typedEntry for text that is no code), with one exception: a scanner burst right
 * behind a single key pressed alone by hand (a digit, + or −) is not glued to it: that key, when it was
 * a held shortcut, runs first (it acts on the item selected when it was pressed) and the burst is the
 * scan; a lone key that was no shortcut is dropped. Typed text of two characters or more is never split.
 */
export function scanFieldEntry(value: string, scanned: Burst | null, released: string | null, how: TypedText): ScanFieldEntry {
  const whole = typedEntry(value, how);
  // Shortcut keys only (a key held down repeats at a scanner's pace): never a scan.
  if (whole.kind !== 'code') return whole;
  if (scanned && scanned.before.length === 1 && value === scanned.before + scanned.code && /^[0-9+-]$/.test(scanned.before)) {
    const runs = released !== null && scanned.before === released && how.isShortcut(released);
    return { kind: 'code', shortcut: runs ? released : null, code: scanned.code };
  }
  return whole;
}

/**
 * A scanner burst that ended with Enter inside a text field other than the scan field:
 * - `scan`: taken back out of the field and handled as a scan (a field of the open package's item, or
 *   a code that is a scan anywhere, such as a badge);
 * - `search`: kept, and the Enter goes through so the search box searches;
 * - `keep`: kept, and the scanner's Enter is swallowed: it must not send a half-filled form.
 */
export type TextFieldScan = 'scan' | 'search' | 'keep';

export function scanInTextField(place: { passthrough: boolean; search: boolean }, claimed: boolean): TextFieldScan {
  if (place.passthrough || claimed) return 'scan';
  return place.search ? 'search' : 'keep';
}

/** A framed scan's code: kept by the field it was typed into, or handled as a scan (focus back to the scan field). */
export interface FramedDelivery {
  keep: boolean;
  /** The suffix Enter goes through: a search box searches with a scan it keeps, as on Enter typed by hand. */
  letEnterThrough: boolean;
}

export function framedDelivery(place: KeyPlace, claimed: boolean, suffix: string): FramedDelivery {
  const keep = place.kind === 'text-field' && !place.passthrough && !claimed;
  return { keep, letEnterThrough: keep && place.kind === 'text-field' && place.search && suffix === 'Enter' };
}

/**
 * A key while a scanner framing is set:
 * - `start`: the prefix: a scan begins (the key itself is swallowed);
 * - `add`: a character of the scan under way;
 * - `end`: the suffix: the scan is complete;
 * - `ignore`: Shift inside a scan (the scanner holds it for capitals);
 * - `outside`: not part of a frame (other keys inside a frame, such as F-keys, still work as commands).
 */
export type FramedStep = 'start' | 'add' | 'end' | 'ignore' | 'outside';

export function framedStep(key: { inFrame: boolean; isPrefix: boolean; isSuffix: boolean; printable: boolean; key: string }): FramedStep {
  if (!key.inFrame) return key.isPrefix ? 'start' : 'outside';
  if (key.isSuffix) return 'end';
  if (!key.printable) return key.key === 'Shift' ? 'ignore' : 'outside';
  return 'add';
}
