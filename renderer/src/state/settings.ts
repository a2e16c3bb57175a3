/** Per-station settings kept in localStorage (sound, the signed-in operator); absent storage is fine. */
const PREFIX = 'returns-station.';

export function readSetting(name: string, fallback: string | null = null): string | null {
  try {
    return localStorage.getItem(PREFIX + name) ?? fallback;
  } catch {
    return fallback;
  }
}

export function writeSetting(name: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(PREFIX + name);
    else localStorage.setItem(PREFIX + name, value);
  } catch {
    // Private mode or a locked-down profile: the setting lasts for this page only.
  }
}
