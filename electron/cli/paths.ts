import { fileURLToPath } from 'node:url';

/**
 * The built UI `serve` serves: the installation's own (next to the sources in a checkout), or for tests the folder RETURNS_STATION_UI_DIR
 * names (an upgrade of the UI between two starts, without touching the build other tests serve).
 */
export const RENDERER_DIR = process.env.RETURNS_STATION_UI_DIR || fileURLToPath(new URL('../../out/renderer', import.meta.url));
