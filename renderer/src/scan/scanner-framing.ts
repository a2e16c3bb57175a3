/*
 * A scanner configured to send a prefix key before every code and a suffix key after it (most
 * keyboard-wedge scanners can): what lies between them is a scan, everything else was typed by hand.
 * Certain where timing is a guess, so a station that wants certainty sets one up.
 *
 * The station keeps the keys (shared/api/station-settings.ts checks their names). A key is written as the browser names it (`KeyboardEvent.key`), optionally with `Ctrl+`: `F12`,
 * `§`, `~`, `Ctrl+B` (the ASCII control character STX, which scanners send as Ctrl+B), `Enter`, `Tab`.
 */

export type { ScannerFraming } from '#shared/api/station-settings.ts';

/** Whether `event` is the key named `name`. */
export function isKey(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'altKey' | 'metaKey'>, name: string): boolean {
  const ctrl = /^Ctrl\+/i.test(name);
  const key = ctrl ? name.slice(5) : name;
  if (event.ctrlKey !== ctrl || event.altKey || event.metaKey) return false;
  return key.length === 1 ? event.key.toLowerCase() === key.toLowerCase() && (ctrl || event.key === key) : event.key === key;
}
