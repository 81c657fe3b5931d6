// The shape comparison the documented-shapes tests of the emulators rely on (documented-shape.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shapeProblems } from './documented-shape.ts';

test('the shape comparison finds a missing key, another JSON type and an undocumented key, and compares arrays by their first element', () => {
  const documented = { a: 1, b: { c: 'x' }, list: [{ id: 's' }] };
  assert.deepEqual(shapeProblems(documented, { a: 2, b: { c: 'y' }, list: [{ id: 't' }, {}] }), []);
  assert.deepEqual(shapeProblems(documented, { b: { c: 'y' }, list: [{ id: 't' }] }), ['a: missing']);
  assert.deepEqual(shapeProblems(documented, { a: '1', b: { c: 'y' }, list: [{ id: 3 }] }), ['a: documented number, got string', 'list.id: documented string, got number']);
  assert.deepEqual(shapeProblems(documented, { a: 1, b: { c: 'y', d: true }, list: [] }), ['b.d: not in the documented example', 'list: documented a non-empty array, got an empty one']);
  assert.deepEqual(shapeProblems(documented, { a: 1, b: { c: 'y', d: true }, list: [{ id: 't' }] }, { 'b.d': 'allowed, with a reason' }), []);
  assert.deepEqual(shapeProblems(documented, { a: 1, b: { c: 'y', d: true, e: 0 }, list: [{ id: 't' }] }, { 'b.*': 'any key of b, with a reason' }), []);
});
