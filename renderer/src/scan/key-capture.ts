import { BurstDetector } from './burst-detector.ts';
import {
  type FramedDelivery,
  framedDelivery,
  framedStep,
  heldKeyStep,
  type KeyPlace,
  printableStep,
  type ScanFieldEntry,
  scanFieldEntry,
  scanInTextField,
  typedEntry,
} from './key-decisions.ts';
import { isKey, type ScannerFraming } from './scanner-framing.ts';

/*
 * Global keyboard capture: the scan field owns the keyboard wherever focus is.
 *
 * - Typing while focus is on a button or the page lands in the scan field (focus moves there).
 * - A scan goes where the worker is: a scanner burst into a form or search field stays in that field
 *   (a SKU scanned into the manual-return form's SKU field fills it; a scan into a list's search box
 *   searches). Its Enter submits only a search; it never sends a half-filled form.
 * - Fields of the open package's item (notes, tags) are marked `data-scan-passthrough`: a burst there is
 *   an item scan, taken back out of the field, so a scan while the notes box has focus is never notes.
 * - A code that `claims` (an operator's badge) is a scan wherever it lands: badges switch the worker.
 * - A lone shortcut character (a digit for a condition or a pick, + or −) in the empty scan field is
 *   held: what it would do is previewed, nothing is done. A printable key after it makes it the first
 *   character of what is being typed (it goes into the field). Enter, a command key (F-key, arrow,
 *   Tab, Alt+letter), a click, or the next scan runs it; Esc or Backspace drops it. No timer decides:
 *   a code typed at any speed is read whole. The one judgement left is at the Enter of a scanner
 *   burst right behind the held key (a person pressed it, then scanned): the key runs, then the scan.
 * - With a scanner framing set (a prefix and suffix key the scanner sends around each code), what is
 *   between them is a scan and nothing else is: the prefix runs a held key, no timing judged at all.
 * - Command keys (F-keys, Esc, Ctrl+Z, Alt+letter) go to `command`.
 */

export interface KeyCaptureHandlers {
  field(): HTMLInputElement | null;
  submit(code: string): void;
  /** Codes that are scans wherever they are typed (badges), even into a form field. */
  claims(code: string): boolean;
  /** Whether `char` typed alone in the empty scan field is a shortcut on the current screen. */
  isShortcut(char: string): boolean;
  shortcut(char: string): void;
  /** The scan field's text was no code and no shortcut (`12`, `3+`): nothing is done; the worker is told why. */
  refuse(message: string): void;
  /** A prompt on screen asks for a number: a shortcut key answers it at once, nothing is held. */
  prompting(): boolean;
  /**
   * A shortcut character is held, waiting for the key that says what it was (null: decided, either
   * way): the screen shows at once what the key would do, and nothing more.
   */
  pending(char: string | null): void;
  /** A command key; true when it was handled (the browser's default is then prevented). */
  command(event: KeyboardEvent, inTextField: boolean): boolean;
  /** The scanner's prefix and suffix when the station set them; null: scans are told by their speed. */
  framing(): ScannerFraming | null;
}

/** Whether a burst typed into `el` is taken out and handled as a scan rather than left in the field. */
function passesScansThrough(el: HTMLInputElement | HTMLTextAreaElement): boolean {
  return el.closest('[data-scan-passthrough]') !== null;
}

function isTextField(el: EventTarget | null): el is HTMLInputElement | HTMLTextAreaElement {
  if (el instanceof HTMLTextAreaElement) return true;
  if (!(el instanceof HTMLInputElement)) return false;
  return ['text', 'search', 'email', 'number', 'tel', 'url', 'password', 'date', ''].includes(el.type);
}

/** Sets a field's value the way typing does, so React's onChange sees it. */
export function setFieldValue(el: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
}

/** How long a framed scan may go without a key before it is taken as typing (a lost suffix). */
export const FRAME_TIMEOUT_MS = 1000;

/** Where `target` is, for the decisions in key-decisions.ts. */
function placeOf(target: EventTarget | null, field: HTMLInputElement | null): KeyPlace {
  if (field !== null && target === field) return { kind: 'scan-field' };
  if (!isTextField(target)) return { kind: 'elsewhere' };
  return { kind: 'text-field', passthrough: passesScansThrough(target), search: target instanceof HTMLInputElement && target.type === 'search' };
}

const isPrintable = (event: KeyboardEvent) => event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;

/** What the capture remembers between keys. */
interface Capture {
  handlers: KeyCaptureHandlers;
  burst: BurstDetector;
  /** A lone shortcut character, previewed, waiting for the key that says what it was. */
  held: string | null;
  /**
   * The held shortcut character that went into the scan field because more keys followed it: when
   * those keys prove to be a scanner burst, it was pressed by hand after all and runs as a shortcut.
   */
  released: string | null;
  /** A framed scan under way: the characters since the prefix, and where focus was. */
  frame: { chars: string; target: EventTarget | null; timer: ReturnType<typeof setTimeout> } | null;
}

export function installKeyCapture(handlers: KeyCaptureHandlers, target: Window = window): () => void {
  const c: Capture = { handlers, burst: new BurstDetector(), held: null, released: null, frame: null };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.isComposing) return;
    const framing = handlers.framing();
    if (framing && onFramedKey(c, event, framing)) return;
    const field = handlers.field();
    const place = placeOf(event.target, field);
    if (isPrintable(event)) return onPrintable(c, event, field, place, framing !== null);
    if (c.held !== null) {
      const step = heldKeyStep(event);
      if (step === 'keep') return;
      if (step !== 'commit-then') {
        event.preventDefault();
        return step === 'commit' ? runHeld(c) : dropHeld(c);
      }
      runHeld(c);
    }
    if (event.key === 'Enter' && !event.ctrlKey && !event.altKey && !event.metaKey) return onEnter(c, event, field, place, framing !== null);
    if (handlers.command(event, place.kind === 'text-field')) event.preventDefault();
  };
  // A click acts on the screen: a held key runs first, on what it was pressed for.
  const onPointerDown = () => runHeld(c);
  target.addEventListener('keydown', onKeyDown, true);
  target.addEventListener('pointerdown', onPointerDown, true);
  return () => {
    target.removeEventListener('keydown', onKeyDown, true);
    target.removeEventListener('pointerdown', onPointerDown, true);
    if (c.frame) clearTimeout(c.frame.timer);
  };
}

/** A printable key outside a framed scan (see printableStep). */
function onPrintable(c: Capture, event: KeyboardEvent, field: HTMLInputElement | null, place: KeyPlace, framed: boolean): void {
  if (!framed) c.burst.key(event.key, event.timeStamp);
  const step = printableStep({
    place,
    hasScanField: field !== null,
    holding: c.held !== null,
    scanFieldEmpty: field?.value === '',
    isShortcut: c.handlers.isShortcut(event.key),
    prompting: c.handlers.prompting(),
  });
  if (step.step === 'leave' || !field) return;
  const inScan = place.kind === 'scan-field';
  if (step.step === 'type') {
    if (step.joinHeld) releaseHeld(c, field);
    if (!inScan) {
      event.preventDefault();
      field.focus();
      field.value += event.key;
    }
    return;
  }
  event.preventDefault();
  if (!inScan) field.focus();
  if (step.step === 'shortcut') return c.handlers.shortcut(event.key);
  c.held = event.key;
  c.handlers.pending(event.key);
}

/** The held character joins the keys that followed it in the scan field. */
function releaseHeld(c: Capture, field: HTMLInputElement): void {
  if (c.held === null) return;
  field.value = c.held + field.value;
  c.released = c.held;
  c.held = null;
  c.handlers.pending(null);
}

/** Enter, a command key, a click or a scan after the held character: it was the shortcut. */
function runHeld(c: Capture): void {
  if (c.held === null) return;
  const char = c.held;
  c.held = null;
  c.handlers.pending(null);
  c.handlers.shortcut(char);
}

/** Esc or Backspace after the held character: nothing is done. */
function dropHeld(c: Capture): void {
  c.held = null;
  c.handlers.pending(null);
}

/** Enter (no modifiers) outside a framed scan. */
function onEnter(c: Capture, event: KeyboardEvent, field: HTMLInputElement | null, place: KeyPlace, framed: boolean): void {
  if (place.kind === 'scan-field' && field) {
    event.preventDefault();
    if (framed) {
      // Typed by hand (a framed scan never reaches here): the field's text as it stands.
      const entry = typedEntry(field.value, c.handlers);
      field.value = '';
      c.released = null;
      runEntry(c, entry);
    } else submitScanField(c, field, event.timeStamp);
    return;
  }
  if (framed) return;
  const scanned = c.burst.enter(event.timeStamp);
  const el = event.target;
  if (scanned === null || place.kind !== 'text-field' || !isTextField(el)) return;
  const { code } = scanned;
  const decision = scanInTextField(place, c.handlers.claims(code));
  if (decision === 'search') return;
  // The field keeps the scan ('keep'): a scanner's Enter must not send a half-filled form.
  event.preventDefault();
  if (decision === 'scan') {
    // Take the scanned characters back out of the field they fell into.
    if (el.value.endsWith(code)) setFieldValue(el, el.value.slice(0, -code.length));
    c.handlers.submit(code);
    field?.focus();
  }
}

/** The scan field's Enter in timing mode (see scanFieldEntry). */
function submitScanField(c: Capture, field: HTMLInputElement, at: number): void {
  releaseHeld(c, field);
  const entry = scanFieldEntry(field.value, c.burst.enter(at), c.released, c.handlers);
  field.value = '';
  c.released = null;
  runEntry(c, entry);
}

function runEntry(c: Capture, entry: ScanFieldEntry): void {
  if (entry.kind === 'refused') return c.handlers.refuse(entry.message);
  if (entry.kind === 'shortcut') {
    for (let i = 0; i < entry.times; i++) c.handlers.shortcut(entry.char);
    return;
  }
  if (entry.shortcut !== null) c.handlers.shortcut(entry.shortcut);
  c.handlers.submit(entry.code);
}

/** Framed mode: true when the key belonged to a scan's frame and is dealt with. */
function onFramedKey(c: Capture, event: KeyboardEvent, framing: ScannerFraming): boolean {
  const step = framedStep({
    inFrame: c.frame !== null,
    isPrefix: isKey(event, framing.prefix),
    isSuffix: isKey(event, framing.suffix),
    printable: isPrintable(event),
    key: event.key,
  });
  if (step === 'outside') return false;
  if (step === 'ignore') return true;
  if (step === 'start') {
    event.preventDefault();
    // A scan after a held key: the key was pressed by hand, for the item selected then.
    runHeld(c);
    c.frame = { chars: '', target: event.target, timer: setTimeout(() => abandonFrame(c), FRAME_TIMEOUT_MS) };
    return true;
  }
  if (!c.frame) return true;
  clearTimeout(c.frame.timer);
  if (step === 'add') {
    event.preventDefault();
    c.frame.chars += event.key;
    c.frame.timer = setTimeout(() => abandonFrame(c), FRAME_TIMEOUT_MS);
    return true;
  }
  const { chars, target: el } = c.frame;
  c.frame = null;
  if (!deliverFramed(c, chars, el, framing.suffix).letEnterThrough) event.preventDefault();
  return true;
}

/** A whole scan (framed mode) that arrived while focus was on `el`. */
function deliverFramed(c: Capture, code: string, el: EventTarget | null, suffix: string): FramedDelivery {
  const field = c.handlers.field();
  const delivery = framedDelivery(placeOf(el, field), c.handlers.claims(code), suffix);
  if (delivery.keep && isTextField(el)) setFieldValue(el, el.value + code);
  else {
    c.handlers.submit(code);
    field?.focus();
  }
  return delivery;
}

/** A prefix without its suffix: what followed was typed, not scanned. */
function abandonFrame(c: Capture): void {
  if (!c.frame) return;
  const { chars, target: el } = c.frame;
  c.frame = null;
  const field = c.handlers.field();
  if (isTextField(el) && el !== field) setFieldValue(el, el.value + chars);
  else if (field) field.value += chars;
}
