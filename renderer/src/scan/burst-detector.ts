/*
 * Recognises hardware-scanner bursts: a scanner "types" a code far faster than a person (a few ms
 * per character) and ends it with Enter. Used where focus is in a field that is not the scan field,
 * so a scan lands as a scan instead of as text in, say, a notes box.
 *
 * USB polling and a busy page make the gaps uneven, so one slow gap must not split a scan: the scan
 * is the longest tail of characters whose gaps average scanner speed and none of which is a pause.
 */

export interface BurstOptions {
  /** Largest average gap between the characters of one burst. People rarely type faster than ~60 ms. */
  maxAverageGapMs: number;
  /** Largest single gap inside a burst (a hiccup, not a pause). */
  maxGapMs: number;
  /** Shortest code that counts as a scan. */
  minLength: number;
}

// Scanners type a character every 1–15 ms, people every 80 ms or more; 45 ms leaves room for a
// busy page or a Bluetooth scanner without mistaking a fast typist for a scan.
export const DEFAULT_BURST: BurstOptions = { maxAverageGapMs: 45, maxGapMs: 120, minLength: 4 };

export class BurstDetector {
  readonly #options: BurstOptions;
  #keys: { char: string; at: number }[] = [];

  constructor(options: BurstOptions = DEFAULT_BURST) {
    this.#options = options;
  }

  /** Records one printable character typed at `at` (ms). */
  key(char: string, at: number): void {
    const last = this.#keys.at(-1);
    if (last && at - last.at > this.#options.maxGapMs) this.#keys = [];
    this.#keys.push({ char, at });
  }

  /** Enter at `at`: the scanned code when the characters before it were a burst, else null. Resets. */
  enter(at: number): string | null {
    const keys = this.#keys;
    this.reset();
    const last = keys.at(-1);
    if (!last || at - last.at > this.#options.maxGapMs) return null;
    // The longest tail that averages scanner speed (all gaps are already below maxGapMs).
    for (let start = 0; start <= keys.length - this.#options.minLength; start++) {
      const first = keys[start];
      if (!first) break;
      const average = (last.at - first.at) / Math.max(1, keys.length - start - 1);
      if (average <= this.#options.maxAverageGapMs) return keys.slice(start).map((k) => k.char).join('');
    }
    return null;
  }

  reset(): void {
    this.#keys = [];
  }
}
