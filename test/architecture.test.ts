// The shape of src/: which rooms (a top folder, or a file at src/'s root) import which, counted over
// every import a file makes (static, type-only and dynamic, read by TypeScript's own pre-processor).
// No import circle touches src/, no two rooms import each other, and src/core imports nothing else:
// a new back edge fails here, naming it.
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
 * Pairs of rooms that import each other. Measured 2026-11-29: 11 pairs and 190 files caught in two
 * circles (one of 188). Removed the same day: an account's session in accounts/, sealed data names in
 * security/, the start announcement in cli/, every error class and the public ids in core/, the
 * configuration handed the networks by the composition root instead of importing them, and four small
 * circles (orgs' subscription status, networks' PreflightPost, YouTube's video resource). None is left:
 * the list stays for a pair someone has to accept knowingly, with its reason.
 */
const KNOWN_MUTUAL_PAIRS: string[] = [];

/** The files caught in import circles: none since 2026-11-29. */
const KNOWN_FILES_IN_CIRCLES = 0;

const graph = importGraph();

test('no two src/ rooms import each other', () => {
  const edges = roomEdges(graph);
  const mutual = [...edges]
    .map((e) => e.split(' → ') as [string, string])
    .filter(([a, b]) => a < b && edges.has(`${b} → ${a}`))
    .map(([a, b]) => `${a} ↔ ${b}`)
    .sort();
  assert.deepEqual(mutual, [...KNOWN_MUTUAL_PAIRS].sort());
});

test('no import circle touches src/', () => {
  const found = circles(graph).map((c) => c.map((file) => path.relative(src, file)).sort().join(' ↔ '));
  assert.equal(found.reduce((n, c) => n + c.split(' ↔ ').length, 0), KNOWN_FILES_IN_CIRCLES, found.join('\n'));
});

test('src/core imports nothing else of src/', () => {
  assert.ok([...graph.keys()].some((file) => room(file) === 'core'), 'src/core exists');
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

test("every network assembles what it does beyond publishing in its own capabilities.ts", () => {
  const networks = readdirSync(path.join(src, 'networks'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && readdirSync(path.join(src, 'networks', e.name)).includes('index.ts'))
    .map((e) => e.name);
  assert.equal(networks.length, 15, networks.join(', '));
  const without = networks.filter((network) => !readdirSync(path.join(src, 'networks', network)).includes('capabilities.ts'));
  assert.deepEqual(without, []);
});
