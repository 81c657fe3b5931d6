// The shape of src/ as a ratchet: which folders import which, counted over every import a file makes
// (static, type-only and dynamic, read by TypeScript's own pre-processor). The target (issue 29) is no
// import circle touching src/ and no two src/ folders importing each other; until then the circles
// and mutual pairs that exist are listed here, and the test fails on a new one, on a circle that
// grows, and on a listed one that is gone (so the list is cut as the code is).
// Measured with this file: `node test/run.ts test/architecture.test.ts`.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const src = path.resolve(import.meta.dirname, '../src');

/** The room a file belongs to: its top folder under src/, or the file itself at src/'s root. */
function room(file: string): string {
  return path.relative(src, file).split(path.sep)[0]!;
}

function sourceFiles(): string[] {
  return readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** file → the src/ files it imports, every kind of import counted. */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles()) {
    const imports = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles;
    const targets = imports
      .filter((i) => i.fileName.startsWith('.'))
      .map((i) => path.resolve(path.dirname(file), i.fileName))
      .filter((target) => target.startsWith(src + path.sep));
    graph.set(file, new Set(targets));
  }
  return graph;
}

/** Strongly connected components of more than one node (Tarjan): the import circles. */
function circles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

function roomEdges(graph: Map<string, Set<string>>): Set<string> {
  const edges = new Set<string>();
  for (const [file, targets] of graph) for (const target of targets) if (room(file) !== room(target)) edges.add(`${room(file)} → ${room(target)}`);
  return edges;
}

/**
 * Pairs of rooms that import each other (issue 29 removes them all). Measured 2026-11-29: 11; six
 * removed the same day (an account's session in accounts/, sealed data names in security/, the start
 * announcement in cli/). The five left all run through the networks' vocabulary: src/core takes it.
 */
const KNOWN_MUTUAL_PAIRS = [
  'config.ts ↔ failures.ts',
  'config.ts ↔ networks',
  'config.ts ↔ security',
  'errors.ts ↔ networks',
  'networks ↔ validation',
];

/** The files caught in import circles, measured 2026-11-29: one circle of 188 files, one of 2. */
const KNOWN_FILES_IN_CIRCLES = 190;

const graph = importGraph();

test('no new pair of src/ rooms imports each other, and the listed pairs still do (cut the list as they go)', () => {
  const edges = roomEdges(graph);
  const mutual = [...edges]
    .map((e) => e.split(' → ') as [string, string])
    .filter(([a, b]) => a < b && edges.has(`${b} → ${a}`))
    .map(([a, b]) => `${a} ↔ ${b}`)
    .sort();
  assert.deepEqual(mutual, [...KNOWN_MUTUAL_PAIRS].sort());
});

test('import circles do not grow: the files caught in one are at most as many as measured', () => {
  const caught = circles(graph).reduce((n, c) => n + c.length, 0);
  assert.ok(caught <= KNOWN_FILES_IN_CIRCLES, `${caught} files in import circles, ${KNOWN_FILES_IN_CIRCLES} allowed`);
});

test('src/core, where it exists, imports nothing else of src/', () => {
  const outward = [...graph]
    .filter(([file]) => room(file) === 'core')
    .flatMap(([file, targets]) => [...targets].filter((t) => room(t) !== 'core').map((t) => `${path.relative(src, file)} → ${path.relative(src, t)}`));
  assert.deepEqual(outward, []);
});

test('the graph is read: a known import is seen, type-only and dynamic ones included', () => {
  const kinds = ts.preProcessFile("import type { A } from './a.ts';\nconst b = await import('./b.ts');", true, true).importedFiles.map((i) => i.fileName);
  assert.deepEqual(kinds, ['./a.ts', './b.ts']);
  assert.ok(graph.size > 300, `${graph.size} files`);
});
