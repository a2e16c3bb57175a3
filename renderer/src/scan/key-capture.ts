import { BurstDetector } from './burst-detector.ts';

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
 * - A lone shortcut character (a digit for a condition, + or −) in the empty scan field is held for
 *   a moment: if more characters follow at scanner speed it was the start of a code and is typed;
 *   otherwise it runs as a shortcut.
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
  /** A command key; true when it was handled (the browser's default is then prevented). */
  command(event: KeyboardEvent, inTextField: boolean): boolean;
}

/** How long a lone shortcut character waits for a scanner's next character. */
export const SHORTCUT_HOLD_MS = 80;

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

export function installKeyCapture(handlers: KeyCaptureHandlers, target: Window = window): () => void {
  const burst = new BurstDetector();
  let held: { char: string; timer: ReturnType<typeof setTimeout> } | null = null;

  const releaseHeld = (field: HTMLInputElement) => {
    if (!held) return;
    clearTimeout(held.timer);
    field.value = held.char + field.value;
    held = null;
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.isComposing) return;
    const field = handlers.field();
    const inScan = field !== null && event.target === field;
    const inOtherText = !inScan && isTextField(event.target);
    const printable = event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;

    if (printable) {
      burst.key(event.key, event.timeStamp);
      if (inOtherText || !field) return;
      if (held) {
        // A second character right behind the first: it was a scan, not a shortcut.
        releaseHeld(field);
      } else if (field.value === '' && handlers.isShortcut(event.key)) {
        event.preventDefault();
        if (!inScan) field.focus();
        const char = event.key;
        held = {
          char,
          timer: setTimeout(() => {
            held = null;
            handlers.shortcut(char);
          }, SHORTCUT_HOLD_MS),
        };
        return;
      }
      if (!inScan) {
        event.preventDefault();
        field.focus();
        field.value += event.key;
      }
      return;
    }

    if (event.key === 'Enter' && !event.ctrlKey && !event.altKey && !event.metaKey) {
      if (inScan && field) {
        event.preventDefault();
        releaseHeld(field);
        const code = field.value;
        field.value = '';
        burst.reset();
        handlers.submit(code);
        return;
      }
      const code = burst.enter(event.timeStamp);
      if (code === null || !inOtherText) return;
      const el = event.target;
      if (passesScansThrough(el) || handlers.claims(code)) {
        // Take the scanned characters back out of the field they fell into.
        event.preventDefault();
        if (el.value.endsWith(code)) setFieldValue(el, el.value.slice(0, -code.length));
        handlers.submit(code);
        field?.focus();
      } else if (!(el instanceof HTMLInputElement && el.type === 'search')) {
        // The field keeps the scan; a scanner's Enter must not send a half-filled form.
        event.preventDefault();
      }
      return;
    }

    // A command key right after a held shortcut character: the character was a shortcut.
    if (held && event.key !== 'Shift') {
      const { char, timer } = held;
      clearTimeout(timer);
      held = null;
      handlers.shortcut(char);
    }
    if (handlers.command(event, inOtherText)) event.preventDefault();
  };

  target.addEventListener('keydown', onKeyDown, true);
  return () => {
    target.removeEventListener('keydown', onKeyDown, true);
    if (held) clearTimeout(held.timer);
  };
}
