#!/usr/bin/env node
// Lists the functions of the code outside tests (electron/, renderer/src/, shared/) longer than a
// number of lines (default 60), longest first: the ones that get a second look (docs/testing.md).
// A function's lines are its own, from its first line to its last, inner functions included.
// Usage: node scripts/function-lengths.ts [min-lines] [folder or file …]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const [minArg, ...folderArgs] = process.argv.slice(2);
const minLines = Number(minArg ?? 60);
const folders = folderArgs.length > 0 ? folderArgs : ['electron', 'renderer/src', 'shared'];

interface FunctionLength {
  file: string;
  line: number;
  name: string;
  lines: number;
}

function sourceFiles(folder: string): string[] {
  if (statSync(folder).isFile()) return [folder];
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.tsx?$/.test(path) && !path.endsWith('.d.ts'))
    .map((path) => join(folder, path));
}

/** What a reader calls a function: its own name, else the name it is assigned to or passed as. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name && (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name))) return node.name.text;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

function functionLengths(file: string): FunctionLength[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file: relative('.', file), line: start + 1, name: nameOf(node as ts.FunctionLikeDeclaration), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const long = folders
  .flatMap(sourceFiles)
  .flatMap(functionLengths)
  .filter((f) => f.lines > minLines)
  .sort((a, b) => b.lines - a.lines);
for (const f of long) console.log(`${String(f.lines).padStart(4)}  ${f.name}  ${f.file}:${f.line}`);
