// Every document the code and the READMEs cite is in the repository: a path under docs/ that a
// comment or a README names (a .md, a picture, a folder/) exists, and nothing points outside the clone (the project's shared
// folder beside it, which a user's clone does not have).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..');
const CITING = ['src', 'emulators', 'test', 'bench', 'sdk', 'docs'];

function citingFiles(): string[] {
  const files = CITING.flatMap((folder) =>
    readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(ts|md|sql)$/.test(e.name) && !e.parentPath.includes('node_modules'))
      .map((e) => path.join(e.parentPath, e.name)),
  );
  return [path.join(root, 'README.md'), ...files];
}

const files = citingFiles();

test('every docs/ path cited exists', () => {
  const missing = new Set<string>();
  for (const file of files) {
    for (const [, cited] of readFileSync(file, 'utf8').matchAll(/(?<![\w./:-])docs\/([\w./-]*(?:\.md|\.png|\/))(?![\w.-])/g)) {
      if (!existsSync(path.join(root, 'docs', cited!))) missing.add(`${path.relative(root, file)}: docs/${cited}`);
    }
  }
  assert.deepEqual([...missing], []);
});

test("nothing cites the project's shared folder outside the repository", () => {
  const outside = files
    .filter((file) => file !== path.join(root, 'test/docs.test.ts'))
    .filter((file) => /\.\.\/shared\/(networks|spec|DESIGN)|\/work\/shared\//.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(root, file));
  assert.deepEqual(outside, []);
});
