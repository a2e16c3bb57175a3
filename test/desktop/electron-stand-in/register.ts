import { registerHooks } from 'node:module';

// Loaded with `node --import`: every `import … from 'electron'` of the built main bundle gets the
// stand-in beside this file, which records what the shell asks of Electron.
const standIn = new URL('./electron.ts', import.meta.url).href;
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: standIn, shortCircuit: true, format: 'module-typescript' };
    return nextResolve(specifier, context);
  },
});
