/*
 * Recognises hardware-scanner bursts: a keyboard-wedge scanner "types" a code far faster than a person
 * (≈ 10–30 ms per character) and ends it with Enter; people type a key every 60–80 ms or slower.
 * Keyboard events carry the time the key was sent, so a busy page does not bunch them up.
 *
 * USB polling makes the gaps uneven, so one slow gap inside a scan must not split it: the scan is the
 * longest tail of characters whose gaps average scanner speed and none of which is a pause. A key a
 * person presses alone just before a scan (a condition digit, + or −) must not be glued to it either:
 * such a leading key is split off when its gap to the next stands out from the burst's own pace, and
 * reported as typed by hand (`before`). Only those keys: a letter is split off nowhere, so a scanner
 * whose first gap is slow still reads its whole code.
 */

export interface BurstOptions {
  /** Largest average gap between the characters of one burst. People rarely type faster than ~60 ms. */
  maxAverageGapMs: number;
  /** Largest single gap inside a burst (a hiccup, not a pause). */
  maxGapMs: number;
  /** Shortest code that counts as a scan. */
  minLength: number;
  /**
   * A leading key pressed alone is typed by hand when its gap to the next exceeds this, `leadFactor` ×
   * the median gap of the burst's second half and every gap there (a 30 ms scanner allows a 75 ms first gap).
   */
  minLeadGapMs: number;
  leadFactor: number;
}

// Scanners type a character every 1–30 ms, people every 60–80 ms or more; 45 ms on average leaves room
// for a Bluetooth scanner without mistaking a fast typist for a scan.
export const DEFAULT_BURST: BurstOptions = { maxAverageGapMs: 45, maxGapMs: 120, minLength: 4, minLeadGapMs: 50, leadFactor: 2.5 };

/** Keys a person presses alone (conditions, quantities, picks): the only ones split off a burst's front. */
const LONE_KEY = /^[0-9+-]$/;

/** Characters kept from before the burst's pause: enough to see a key pressed just before it. */
const MAX_KEPT = 64;

export interface Burst {
  /** The scanned code. */
  code: string;
  /** What was typed by hand since the last Enter, before the burst. */
  before: string;
}

interface Key {
  char: string;
  at: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export class BurstDetector {
  readonly #options: BurstOptions;
  #keys: Key[] = [];

  constructor(options: Partial<BurstOptions> = {}) {
    this.#options = { ...DEFAULT_BURST, ...options };
  }

  /** Records one printable character typed at `at` (ms). */
  key(char: string, at: number): void {
    this.#keys.push({ char, at });
    if (this.#keys.length > MAX_KEPT) this.#keys.shift();
  }

  /** Enter at `at`: the scanned code (and what was typed by hand before it) when the characters before it were a burst, else null. Resets. */
  enter(at: number): Burst | null {
    const keys = this.#keys;
    this.reset();
    const last = keys.at(-1);
    if (!last || at - last.at > this.#options.maxGapMs) return null;
    // A burst has no pause in it: it begins after the last one.
    let from = keys.length - 1;
    while (from > 0 && (keys[from]?.at ?? 0) - (keys[from - 1]?.at ?? 0) <= this.#options.maxGapMs) from--;
    // The longest tail that averages scanner speed.
    let start = -1;
    for (let i = from; i <= keys.length - this.#options.minLength; i++) {
      const first = keys[i];
      if (!first) break;
      if ((last.at - first.at) / Math.max(1, keys.length - i - 1) <= this.#options.maxAverageGapMs) {
        start = i;
        break;
      }
    }
    if (start < 0) return null;
    // Split off leading keys pressed alone by hand: their gap to the next stands out from the burst's pace.
    // The burst's own pace, from its second half (certainly scanned): a lead gap must stand out from it.
    const tail = keys.slice(Math.max(start, keys.length - Math.max(this.#options.minLength, (keys.length - start) >> 1)));
    const pace = tail.slice(1).map((k, i) => k.at - (tail[i]?.at ?? k.at));
    const leadLimit = Math.max(this.#options.minLeadGapMs, this.#options.leadFactor * median(pace), ...pace);
    while (keys.length - start > this.#options.minLength && LONE_KEY.test(keys[start]?.char ?? '')) {
      if ((keys[start + 1]?.at ?? 0) - (keys[start]?.at ?? 0) <= leadLimit) break;
      start++;
    }
    const chars = (a: number, b: number) =>
      keys
        .slice(a, b)
        .map((k) => k.char)
        .join('');
    return { code: chars(start, keys.length), before: chars(0, start) };
  }

  reset(): void {
    this.#keys = [];
  }
}
