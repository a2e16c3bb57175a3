/** The sections of the Settings screen, one in view at a time, in the order of their tabs (Alt+1…: workflow/key-table.ts). */
export const SETTINGS_SECTIONS = [
  { id: 'station', title: 'Station' },
  { id: 'printer', title: 'Printer and labels' },
  { id: 'more', title: 'Supervisor, workers, rules' },
  { id: 'site', title: 'Site' },
  { id: 'scale', title: 'Scale' },
] as const;

export type SettingsSection = (typeof SETTINGS_SECTIONS)[number]['id'];
