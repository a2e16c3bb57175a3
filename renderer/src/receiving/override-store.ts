import { create } from 'zustand';
import { DISPOSITIONS, type Disposition } from '#shared/dispositions.ts';

/*
 * Overriding the selected unit's disposition from the keyboard: F10, then its number (1–6), then
 * why (typed, Enter). Esc leaves it at any step. The override is recorded with who and why.
 */

export type OverrideStep = { step: 'closed' } | { step: 'pick' } | { step: 'reason'; disposition: Disposition };

interface OverrideState {
  state: OverrideStep;
  open(): void;
  pick(index: number): boolean;
  close(): void;
}

export const useOverride = create<OverrideState>()((set, get) => ({
  state: { step: 'closed' },
  open() {
    set({ state: { step: 'pick' } });
  },
  pick(index) {
    const disposition = DISPOSITIONS[index];
    if (get().state.step !== 'pick' || !disposition) return false;
    set({ state: { step: 'reason', disposition } });
    return true;
  },
  close() {
    set({ state: { step: 'closed' } });
  },
}));
