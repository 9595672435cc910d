#!/usr/bin/env node
// npm run lint:shape: no function over 80 lines and no file over 400 lines in src/ (issue 41).
// Lines are counted as the editor shows them, from a function's first line to its last; a
// function's nested functions count inside it (a 499-line closure nest is one 499-line function).
// Generated files (src/**/generated/) are left out. Prints every offender and fails when there is one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const FUNCTION_LIMIT = 80;
const FILE_LIMIT = 400;
const root = new URL('../..', import.meta.url).pathname;

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'generated') yield* sourceFiles(path);
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) yield path;
  }
}

function functionName(node, source) {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) return parent.name.getText(source);
  return '(anonymous)';
}

function longFunctions(path) {
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      const lines = last - first + 1;
      if (lines > FUNCTION_LIMIT) found.push({ name: functionName(node, source), line: first + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { found, fileLines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) };
}

const problems = [];
for (const path of sourceFiles(join(root, 'src'))) {
  const rel = relative(root, path);
  const { found, fileLines } = longFunctions(path);
  if (fileLines > FILE_LIMIT) problems.push(`${rel}: ${fileLines} lines (limit ${FILE_LIMIT})`);
  for (const f of found) problems.push(`${rel}:${f.line} ${f.name}: ${f.lines} lines (limit ${FUNCTION_LIMIT})`);
}
if (problems.length) {
  console.error(`lint:shape: ${problems.length} over the limits\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`lint:shape: no function over ${FUNCTION_LIMIT} lines, no file over ${FILE_LIMIT} lines in src/`);
