import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The README and docs/ name files of the repository in backticks (`electron/station/sync/pull/pull.ts`,
 * `decisions/sync.md`): every such name must exist, so a move or a rename cannot leave the docs
 * pointing at nothing. Files the station writes at run time (`station.db`, `desktop.json`, …) and
 * built output are not in the repository and are listed here.
 */
const root = new URL('../..', import.meta.url).pathname;
const RUNTIME = new Set(['desktop.json', 'station.control.json', 'station.lock.holder.json', 'core.js', 'out/main/core.js']);

function markdown(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdown(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const tracked: string[] = [];
(function walk(dir: string) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (
      ['node_modules', '.git', 'out', 'dist', 'test-results', 'playwright-report'].includes(entry.name) ||
      entry.name.startsWith('.demo') ||
      entry.name.startsWith('.upstream') ||
      entry.name.startsWith('.dock')
    )
      continue;
    const path = dir === '' ? entry.name : join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else tracked.push(path);
  }
})('');

function exists(doc: string, name: string): boolean {
  if (RUNTIME.has(name) || name.startsWith('/')) return true;
  if (!name.includes('/')) return tracked.some((path) => path.endsWith(`/${name}`) || path === name);
  return existsSync(join(root, name)) || existsSync(join(root, dirname(doc), name)) || tracked.some((path) => path.endsWith(`/${name}`));
}

describe('the files the docs name', () => {
  const docs = ['README.md', ...markdown('docs')];
  it('are read', () => {
    expect(docs.length).toBeGreaterThan(20);
  });
  it.each(docs)('all exist: %s', (doc) => {
    const text = readFileSync(join(root, doc), 'utf8');
    const named = [...text.matchAll(/`([A-Za-z0-9_\-./]+\.(?:ts|tsx|js|json|md|css))`/g)].map((m) => m[1] ?? '');
    expect(named.filter((name) => !exists(doc, name))).toEqual([]);
  });
});
