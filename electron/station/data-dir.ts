import { homedir } from 'node:os';
import { join } from 'node:path';

const APP_FOLDER = 'returns-station';

/**
 * The data directory when none is given: `$RETURNS_STATION_DATA_DIR`, else the platform's
 * application-data folder, the same one the desktop app uses (Electron's `userData` for this app).
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.RETURNS_STATION_DATA_DIR) return env.RETURNS_STATION_DATA_DIR;
  switch (platform) {
    case 'win32':
      return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_FOLDER);
    case 'darwin':
      return join(homedir(), 'Library', 'Application Support', APP_FOLDER);
    default:
      return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_FOLDER);
  }
}
