import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { FAST_PATHS_ENV } from '../../electron/station/store/index.ts';
import { startStation } from '../support/station-process.ts';
import { cli } from './station-state.ts';

/*
 * `returns-station serve` says at start, in one log line, which fast paths through fake-indexeddb's
 * internals it uses (store/fast-paths.ts, docs/decisions/store-fast-paths.md), and
 * RETURNS_STATION_FAST_PATHS picks them: the public Dexie path alone with `none`.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const fastPathLines = (stderr: string): string[] => stderr.split('\n').filter((line) => line.includes('store fast paths:'));

it('logs the active fast paths at start: every one by default, those asked for, or none', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fast-paths-'));
  dirs.push(dir);
  // Something to load at the second and third starts.
  cli(dir, 'token', 'create', '--account', '1001', '--name', 'fast paths test');

  for (const [asked, expected, text] of [
    [
      '',
      ['direct-fill', 'tree-reads', 'tree-compaction', 'trimmed-dexie-stack'],
      'store fast paths: direct-fill, tree-reads, tree-compaction, trimmed-dexie-stack',
    ],
    ['tree-reads', ['tree-reads'], 'store fast paths: tree-reads'],
    ['none', [], 'store fast paths: none (public Dexie path only)'],
  ] as const) {
    const station = await startStation({ dataDir: dir, env: { [FAST_PATHS_ENV]: asked } });
    try {
      const lines = fastPathLines(station.output().stderr);
      expect(lines, station.output().stderr).toHaveLength(1);
      expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ fast_paths: expected, msg: text });
      const health = await fetch(`${station.origin}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      expect(await station.stop()).toBe(0);
    }
  }
});

it('refuses to start with a fast path it does not know, naming the variable', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fast-paths-'));
  dirs.push(dir);
  await expect(startStation({ dataDir: dir, env: { [FAST_PATHS_ENV]: 'tree-reads,warp-drive' } })).rejects.toThrow(
    /RETURNS_STATION_FAST_PATHS: unknown fast path "warp-drive"/,
  );
});
