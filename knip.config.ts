import type { KnipConfig } from 'knip';

// Dead code, found by knip (`npm run lint` runs it): exports nothing imports, files nothing reaches,
// dependencies nothing uses. Its plugins find the entries of vitest, Playwright, electron-vite, ESLint
// and Prettier (every test file is one, so a helper tests use counts as used); the rest are named here.
const config: KnipConfig = {
  entry: [
    // The desktop app's page (package.json's bin and electron.vite.config.ts give knip the command and the processes).
    'renderer/index.html',
    // The offline copy's service worker, built by vite-plugin-pwa (its srcDir and filename in electron.vite.config.ts).
    'renderer/src/offline/service-worker.ts',
    // Run by hand or by npm scripts and .ci/run; each bench section also runs alone.
    'scripts/*.{js,ts,cjs}',
    'test/bench/*.ts',
    // The property that fails on purpose, and the configuration test/unit/test-seed.test.ts runs it with.
    'test/support/seed-replay/*.ts',
  ],
  project: ['bin/**/*.js', 'electron/**/*.ts', 'renderer/**/*.{ts,tsx}', 'shared/**/*.ts', 'test/**/*.ts', 'scripts/**/*.{js,ts,cjs}'],
  // An export its own module uses is not dead: it is named for a test or a reader.
  ignoreExportsUsedInFile: true,
  // Reached inside the tool that owns them, at the version that tool installed: electronegativity's
  // `got` (made to fail offline), fastify's ajv compiler (the contract test compiles as fastify does),
  // electron-builder's config checker. Listing them here would install a second, possibly other, copy.
  ignoreDependencies: ['got', '@fastify/ajv-compiler', 'app-builder-lib', 'builder-util'],
  // The system's tools (Debian packages), not npm's: the disk-full test's tmpfs, the label tests' poppler-utils, the scale tests' socat.
  ignoreBinaries: ['mount', 'umount', 'pdftoppm', 'pdftotext', 'socat'],
};

export default config;
