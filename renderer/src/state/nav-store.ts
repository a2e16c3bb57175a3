import { create } from 'zustand';

/** Which screen owns the work area. The scan field and the status bar are on every screen. */
export type Screen = 'scan' | 'package' | 'register' | 'packages' | 'returns' | 'sync' | 'commands' | 'supervisor' | 'print-queue' | 'rules';

interface NavState {
  screen: Screen;
  /** Asked before the current screen is left (a screen with unsaved work sets it): false stays. */
  leaveGuard: (() => boolean) | null;
  go(screen: Screen): void;
  guardLeaving(guard: (() => boolean) | null): void;
}

export const useNav = create<NavState>()((set, get) => ({
  screen: 'scan',
  leaveGuard: null,
  go(screen) {
    const { screen: now, leaveGuard } = get();
    if (screen === now) return;
    if (leaveGuard && !leaveGuard()) return;
    set({ screen, leaveGuard: null });
  },
  guardLeaving(guard) {
    set({ leaveGuard: guard });
  },
}));
