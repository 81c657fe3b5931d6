// The emulators are witnesses of what Crier sends, not copies of what it believes: they import
// nothing from Crier (src/), only each other's shared plumbing, Node's built-ins and the packages
// their own manifest (emulators/package.json) declares — which the root manifest installs.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '../..');
const emulators = path.join(root, 'emulators');

async function sources(): Promise<string[]> {
  const entries = await readdir(emulators, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => path.join(e.parentPath, e.name));
}

/** Every module specifier a file imports, statically or dynamically. */
function specifiers(source: string): string[] {
  const found = [...source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"]*?\bfrom\s+['"]([^'"]+)['"]/g), ...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g), ...source.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)];
  return found.map((m) => m[1]!);
}

test('no emulator file imports from outside emulators/, and every package it imports is in its manifest', async () => {
  const manifest = JSON.parse(await readFile(path.join(emulators, 'package.json'), 'utf8'));
  const declared = new Set(Object.keys(manifest.dependencies ?? {}));
  const problems: string[] = [];
  const files = await sources();
  assert.ok(files.length > 50, `${files.length} files`);
  for (const file of files) {
    for (const spec of specifiers(await readFile(file, 'utf8'))) {
      const where = path.relative(root, file);
      if (spec.startsWith('node:')) continue;
      if (spec.startsWith('.')) {
        if (path.relative(emulators, path.resolve(path.dirname(file), spec)).startsWith('..')) problems.push(`${where} imports ${spec}`);
        continue;
      }
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
      if (!declared.has(name)) problems.push(`${where} imports ${name}, not in emulators/package.json`);
    }
  }
  assert.deepEqual(problems, []);
});

test("the emulators' manifest asks for the versions the root manifest installs", async () => {
  const own = JSON.parse(await readFile(path.join(emulators, 'package.json'), 'utf8'));
  const rootManifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  const installed = { ...rootManifest.dependencies, ...rootManifest.devDependencies };
  for (const [name, range] of Object.entries(own.dependencies)) assert.equal(installed[name], range, name);
});
