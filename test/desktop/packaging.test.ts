import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAIN_BUNDLE } from './shell-process.ts';

/*
 * What can be checked of the packaging without the Electron binary: electron-builder's own schema
 * check of electron-builder.yml, the fuses, the targets, and that the package's production
 * dependencies are exactly what the built main process and its core process import (out/main/:
 * index.js, core.js and the chunks they share), so nothing is missing at run time and nothing the
 * UI bundle already contains is shipped twice.
 */

const require = createRequire(import.meta.url);
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: null): Promise<Record<string, unknown>>;
  validateConfiguration(config: Record<string, unknown>, debugLogger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util/out/DebugLogger') as { DebugLogger: new (enabled: boolean) => unknown };
const projectDir = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  version: string;
  name: string;
};

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

  it('gives the Linux desktop entry no V8 flags: the main process runs no station, its core process gets its own at start', async () => {
    const config = (await getConfig(projectDir, null, null)) as { linux: { executableArgs?: string[] } };
    expect(config.linux.executableArgs).toBeUndefined();
  });
});

describe('the production dependencies', () => {
  const bundles = readdirSync(dirname(MAIN_BUNDLE), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
  const bareImports = bundles
    // Static imports, and the packages loaded on first use (`import("serialport")`: the serial scale's).
    .flatMap((file) => [
      ...readFileSync(join(dirname(MAIN_BUNDLE), file), 'utf8').matchAll(/^import (?:.*? from )?"([^".][^"]*)";$|\bimport\("([^".][^"]*)"\)/gm),
    ])
    .map((m) => m[1] ?? m[2] ?? '')
    .filter((spec) => !spec.startsWith('node:') && !builtinModules.includes(spec) && spec !== 'electron')
    .map((spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec)));

  it('cover every package the built main and core processes import (a missing one would fail on the warehouse PC)', () => {
    expect(bundles).toContain('core.js');
    for (const name of new Set(bareImports)) expect(Object.keys(pkg.dependencies), name).toContain(name);
  });

  it('hold nothing the main and core processes do not import (the UI bundle carries its own)', () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual([...new Set(bareImports)].sort());
  });
});
