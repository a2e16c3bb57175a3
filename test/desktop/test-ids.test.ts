import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * docs/testing.md promises testers a list of stable test ids: every id it lists exists in the UI, and
 * every id the UI carries is listed (a new control gets documented, a renamed one cannot slip by).
 */
const root = new URL('../..', import.meta.url).pathname;

function uiSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return uiSources(path);
    return entry.name.endsWith('.tsx') ? [path] : [];
  });
}

const inUi = new Set(
  uiSources(join(root, 'renderer/src')).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/(?:data-testid|[tT]estId)="([a-z][a-z0-9-]*)"/g)].map((m) => m[1] ?? ''),
  ),
);
const docs = readFileSync(join(root, 'docs/testing.md'), 'utf8');
const idSection = docs.slice(docs.indexOf('## Test ids'));
// Ids are the backticked names in the table's first column; attribute names (`data-state`) are not ids.
const documented = new Set(
  [...idSection.matchAll(/^\| ([^|]+) \|/gm)]
    .flatMap((row) => [...(row[1] ?? '').matchAll(/`([a-z][a-z0-9-]*)`/g)].map((m) => m[1] ?? ''))
    .filter((id) => id !== 'id' && !id.startsWith('data-')),
);

describe('the documented test ids', () => {
  it('are found', () => {
    expect(inUi.size).toBeGreaterThan(20);
    expect(documented.size).toBeGreaterThan(20);
  });
  it('all exist in the UI', () => {
    expect([...documented].filter((id) => !inUi.has(id))).toEqual([]);
  });
  it('cover every test id the UI carries', () => {
    expect([...inUi].filter((id) => !documented.has(id))).toEqual([]);
  });
});
