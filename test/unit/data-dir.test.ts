import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../electron/station/data-dir.ts';

describe('defaultDataDir', () => {
  it('prefers RETURNS_STATION_DATA_DIR', () => {
    expect(defaultDataDir({ RETURNS_STATION_DATA_DIR: '/srv/station' }, 'linux')).toBe('/srv/station');
  });
  it('uses the XDG config folder on Linux, like Electron userData', () => {
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/home/w/.config' }, 'linux')).toBe('/home/w/.config/returns-station');
  });
  it('uses APPDATA on Windows', () => {
    expect(defaultDataDir({ APPDATA: 'C:/Users/w/AppData/Roaming' }, 'win32')).toMatch(/Roaming[\\/]returns-station$/);
  });
});
