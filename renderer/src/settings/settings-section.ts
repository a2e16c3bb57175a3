import { create } from 'zustand';
import { SETTINGS_SECTIONS, type SettingsSection } from './sections.ts';

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
