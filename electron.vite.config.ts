import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

// shared/ is reached from every process through the package's own subpath import `#shared/*`
// (package.json "imports"), which Vite, TypeScript and Node 24 all resolve the same way.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve('electron/main/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('electron/preload/index.ts') },
        // A sandboxed preload cannot be an ES module.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    plugins: [react()],
    build: {
      outDir: resolve('out/renderer'),
      rollupOptions: { input: resolve('renderer/index.html') },
    },
  },
});
