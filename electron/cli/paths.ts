import { fileURLToPath } from 'node:url';

/** The built renderer, next to the sources when the command runs from a checkout. */
export const RENDERER_DIR = fileURLToPath(new URL('../../out/renderer', import.meta.url));
