/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload, loaded with --require */
// Preloaded into Electronegativity by scan-electron.js: the scanner downloads translations and
// Electron's release list with `got`, which machines that reach only the npm registry cannot do, and
// whose retry crashes on Node 24. Every such download fails at once instead; the scan itself is local.
const { dirname } = require('node:path');
const scanner = dirname(require.resolve('@doyensec/electronegativity/package.json'));
const got = require.resolve('got', { paths: [scanner] });
const offline = () => Promise.reject(new Error('offline: the scan makes no network requests'));
require.cache[got] = { id: got, filename: got, loaded: true, exports: offline };
