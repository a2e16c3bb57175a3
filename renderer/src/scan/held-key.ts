import { create } from 'zustand';

/*
 * The lone shortcut key the key capture holds (scan/key-capture.ts): shown, not yet done. Screens
 * mark what it would pick (the row numbered by it), and the scan field says how to go on.
 */

interface HeldKeyState {
  char: string | null;
  set(char: string | null): void;
}

export const useHeldKey = create<HeldKeyState>()((set) => ({
  char: null,
  set(char) {
    set({ char });
  },
}));

/** Whether the held key is the number of the `index`th choice of a list (keys 1–9). */
export function heldPicks(char: string | null, index: number): boolean {
  return char !== null && index < 9 && char === String(index + 1);
}
