import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { VitePWA } from 'vite-plugin-pwa';

// shared/ is reached from every process through the package's own subpath import `#shared/*`
// (package.json "imports"), which Vite, TypeScript and Node 24 all resolve the same way.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // The main process (window, menu, quit) and the station core it runs in a utilityProcess
      // (docs/decisions/core-process.md): two entries, whatever they share in out/main/chunks/.
      rollupOptions: { input: { index: resolve('electron/main/index.ts'), core: resolve('electron/core/index.ts') } },
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
    plugins: [
      react(),
      // The dock's offline copy (docs/decisions/offline-dock.md): a service worker of our own (renderer/src/offline/service-worker.ts)
      // into which the plugin writes this build's files and their hashes; the page registers it itself (offline-shell.ts).
      VitePWA({
        strategies: 'injectManifest',
        srcDir: 'src/offline',
        filename: 'service-worker.ts',
        injectRegister: false,
        manifest: false,
        injectManifest: {
          // Every file of the build: the camera's decoder and the label renderer work offline too.
          globPatterns: ['**/*.{html,js,css,wasm}'],
          maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        },
      }),
    ],
    build: {
      outDir: resolve('out/renderer'),
      // electron-vite leaves bundles unminified; the UI is also served to browsers on the dock
      // network, where 0.95 MB of readable source became 0.42 MB.
      minify: true,
      rollupOptions: { input: resolve('renderer/index.html') },
    },
  },
});
