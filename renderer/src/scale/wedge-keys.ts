import { isKey } from '../scan/scanner-framing.ts';
import { keyboardScaleWeighed } from '../weighing/dock-weighing.ts';
import { useScale } from './scale-store.ts';

/*
 * A keyboard-wedge scale types its weight like a scanner types a code. The key capture hands every
 * burst it would submit as a scan here first: the scale's setting says how to tell its keys (a
 * prefix it sends first, else a weight with its unit, `1.25 kg`), and what is the scale's is never
 * a scan. A prefix that is a named key (F11) is seen here as the command key it is.
 */

/** How soon after the scale's named prefix key its weight must follow. */
const PREFIX_WINDOW_MS = 2000;
let prefixAt = Number.NEGATIVE_INFINITY;

/** A command key: true when it is the wedge scale's named prefix key (taken, the weight follows). */
export function takeScalePrefixKey(event: KeyboardEvent): boolean {
  const scale = useScale.getState().settings?.scale;
  if (scale?.kind !== 'wedge' || scale.prefix === null || scale.prefix.length === 1 || !isKey(event, scale.prefix)) return false;
  prefixAt = event.timeStamp;
  return true;
}

/** A burst about to be submitted as a scan: true when it is the wedge scale's weight instead. */
export function takeScaleKeys(code: string): boolean {
  const prefixed = performance.now() - prefixAt < PREFIX_WINDOW_MS;
  prefixAt = Number.NEGATIVE_INFINITY;
  const taken = useScale.getState().offerKeys(code, prefixed);
  // On the package screen the weight is the open parcel's.
  if (taken) keyboardScaleWeighed();
  return taken;
}
