import { create } from 'zustand';

/** Which screen owns the work area. The scan field and the status bar are on every screen. */
export type Screen = 'scan' | 'package' | 'register' | 'packages' | 'returns' | 'sync' | 'commands' | 'supervisor' | 'print-queue' | 'rules';

interface NavState {
  screen: Screen;
  go(screen: Screen): void;
}

export const useNav = create<NavState>()((set) => ({
  screen: 'scan',
  go(screen) {
    set({ screen });
  },
}));
