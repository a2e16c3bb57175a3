import { create } from 'zustand';

/** The sections of the Settings screen, one in view at a time, in the order of their tabs (Alt+1…). */
export const SETTINGS_SECTIONS = [
  { id: 'station', title: 'Station' },
  { id: 'printer', title: 'Printer and labels' },
  { id: 'more', title: 'Supervisor, workers, rules' },
  { id: 'site', title: 'Site' },
] as const;

export type SettingsSection = (typeof SETTINGS_SECTIONS)[number]['id'];

interface SectionState {
  section: SettingsSection;
  show(section: SettingsSection): void;
}

/** The section Settings shows: kept while the station's page is open, so Settings reopens where it was left. */
export const useSettingsSection = create<SectionState>()((set) => ({
  section: 'station',
  show(section) {
    set({ section });
  },
}));

/** The n-th section's tab (1-based, as its Alt+n key), selected and focused; false when there is none. */
export function showSettingsSection(n: number): boolean {
  const wanted = SETTINGS_SECTIONS[n - 1];
  if (!wanted) return false;
  useSettingsSection.getState().show(wanted.id);
  setTimeout(() => document.getElementById(settingsTabId(wanted.id))?.focus(), 0);
  return true;
}

export const settingsTabId = (section: SettingsSection) => `settings-tab-${section}`;
export const settingsPanelId = (section: SettingsSection) => `settings-panel-${section}`;
