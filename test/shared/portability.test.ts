import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// shared/ runs in Node and in the browser: no Node built-ins, no Node- or DOM-only globals,
// relative imports with their .ts extension (Node type stripping).
const root = join(import.meta.dirname, '../../shared');
const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ name: f, text: readFileSync(join(root, f), 'utf8') }));

/** Source without comments and string contents, so that prose never trips the checks below. */
function codeOnly(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
}

describe('shared/ portability', () => {
  it('finds the shared sources', () => {
    expect(files.map((f) => f.name)).toEqual(expect.arrayContaining(['barcode.ts', 'package-status.ts', 'api/index.ts']));
  });
  it.each(files.map((f) => [f.name, f.text] as const))('%s uses only portable APIs', (_name, text) => {
    expect(text).not.toMatch(/from ['"]node:/);
    expect(codeOnly(text)).not.toMatch(/\b(Buffer|process|require|__dirname|window|document|localStorage)\s*[.(]/);
    expect(codeOnly('const a = process.env; // window.x')).toMatch(/\bprocess\./);
    for (const m of text.matchAll(/from '(\.{1,2}\/[^']+)'/g)) expect(m[1]).toMatch(/\.ts$/);
    expect(text).not.toMatch(/^\s*(export\s+)?(const\s+)?enum\s/m);
    expect(text).not.toMatch(/^\s*(export\s+)?namespace\s/m);
  });
});
