import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { builtinModules } from 'node:module';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEMI_SPACE_MB } from '../../electron/station/heap/young-generation.ts';
import { MAIN_BUNDLE } from './shell-process.ts';

/*
 * What can be checked of the packaging without the Electron binary: electron-builder's own schema
 * check of electron-builder.yml, the fuses, the targets, and that the package's production
 * dependencies are exactly what the built main process imports (so nothing is missing at run time
 * and nothing the UI bundle already contains is shipped twice).
 */

const require = createRequire(import.meta.url);
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: null): Promise<Record<string, unknown>>;
  validateConfiguration(config: Record<string, unknown>, debugLogger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util/out/DebugLogger') as { DebugLogger: new (enabled: boolean) => unknown };
const projectDir = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string>; version: string; name: string };

describe('electron-builder configuration', () => {
  it("passes electron-builder's own schema check", async () => {
    const config = await getConfig(projectDir, null, null);
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('flips the fuses, builds every installer, and takes the app only from the built output', async () => {
    const config = (await getConfig(projectDir, null, null)) as {
      electronFuses: Record<string, boolean>;
      linux: { target: string[] };
      win: { target: string[] };
      mac: { target: string[] };
      files: Array<{ filter: string[] }>;
      asar: boolean;
    };
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.asar).toBe(true);
    const files = config.files.flatMap((set) => set.filter);
    expect(files).toContain('!out/**/*.map');
    expect(files.filter((f) => !f.startsWith('!')).sort()).toEqual(['out/**', 'package.json']);
  });

  it('starts the Linux desktop entry with the station’s young generation (Electron takes V8 flags for its main process only at launch)', async () => {
    const config = (await getConfig(projectDir, null, null)) as { linux: { executableArgs?: string[] } };
    expect(config.linux.executableArgs).toEqual([`--js-flags=--max-semi-space-size=${DEFAULT_SEMI_SPACE_MB}`]);
  });
});

describe('the production dependencies', () => {
  const bareImports = [...readFileSync(MAIN_BUNDLE, 'utf8').matchAll(/^import .*? from "([^".][^"]*)";$/gm)]
    .map((m) => m[1] ?? '')
    .filter((spec) => !spec.startsWith('node:') && !builtinModules.includes(spec) && spec !== 'electron')
    .map((spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec)));

  it('cover every package the built main process imports (a missing one would fail on the warehouse PC)', () => {
    for (const name of new Set(bareImports)) expect(Object.keys(pkg.dependencies), name).toContain(name);
  });

  it('hold nothing the main process does not import (the UI bundle carries its own)', () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual([...new Set(bareImports)].sort());
  });
});
