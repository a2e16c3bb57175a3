import { create } from 'zustand';

/** Which screen owns the work area. The scan field and the status bar are on every screen. */
export type Screen =
  'scan' | 'package' | 'register' | 'packages' | 'returns' | 'sync' | 'commands' | 'supervisor' | 'reviews' | 'print-queue' | 'rules' | 'settings' | 'workers';

/** The screens reached from Settings: opening Settings again from one of them keeps where Settings was opened from. */
const UNDER_SETTINGS: readonly Screen[] = ['settings', 'rules', 'commands', 'workers'];

interface NavState {
  screen: Screen;
  /** The screen Settings was opened from: leaving Settings goes back to it (e.g. the package being inspected). */
  settingsFrom: Screen;
  /** Asked before the current screen is left (a screen with unsaved work sets it): false stays. */
  leaveGuard: (() => boolean) | null;
  go(screen: Screen): void;
  guardLeaving(guard: (() => boolean) | null): void;
}

export const useNav = create<NavState>()((set, get) => ({
  screen: 'scan',
  settingsFrom: 'scan',
  leaveGuard: null,
  go(screen) {
    const { screen: now, leaveGuard, settingsFrom } = get();
    if (screen === now) return;
    if (leaveGuard && !leaveGuard()) return;
    set({ screen, leaveGuard: null, settingsFrom: screen === 'settings' && !UNDER_SETTINGS.includes(now) ? now : settingsFrom });
  },
  guardLeaving(guard) {
    set({ leaveGuard: guard });
  },
}));
