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

/** What the scan field's Enter does (timing mode): an optional shortcut run first, then the code submitted. */
export interface ScanFieldEntry {
  shortcut: string | null;
  code: string;
}

/**
 * The scan field's Enter when scans are told by their speed. `value` is the field's text (a held
 * character included), `scanned` the burst that ended with this Enter, `released` the held shortcut
 * character that went into the field because more keys followed it. The field's text is submitted
 * whole, as typed, with one exception: a scanner burst right behind a single key pressed alone by hand
 * (a digit, + or −) is not glued to it: that key, when it was a held shortcut, runs first (it acts on
 * the item selected when it was pressed) and the burst is the scan; a lone key that was no shortcut
 * is dropped. Typed text of two characters or more is never split.
 */
export function scanFieldEntry(value: string, scanned: Burst | null, released: string | null, isShortcut: (char: string) => boolean): ScanFieldEntry {
  if (scanned && scanned.before.length === 1 && value === scanned.before + scanned.code && /^[0-9+-]$/.test(scanned.before)) {
    const runs = released !== null && scanned.before === released && isShortcut(released);
    return { shortcut: runs ? released : null, code: scanned.code };
  }
  return { shortcut: null, code: value };
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
