// X's measure: every container a post of the thread, counted with X's weighted length, against the
// limit its judge refuses with.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judge, measure } from '../../../src/networks/x/shape.ts';

const image = { url: 'https://cdn.example.com/a.jpg', filename: 'a.jpg' };

test('the root carries x.content, each reply its own text, each weighed as X weighs it (links 23, emoji 2)', () => {
  const post = { containers: [{ content: 'shared', media: [image] }, { content: '日本 https://example.com/some/long/path 🎉' }].map((c) => ({ media: [], ...c })), block: { content: 'Only on X' } };
  assert.deepEqual(measure(post), {
    parts: [
      { role: 'post', text: 'Only on X', length: 9, limit: 280, unit: 'weighted', media: [{ filename: 'a.jpg', kind: 'image' }] },
      { role: 'reply', text: '日本 https://example.com/some/long/path 🎉', length: 4 + 1 + 23 + 1 + 2, limit: 280, unit: 'weighted', media: [] },
    ],
    leftOut: 0,
  });
});

test('the judge refuses the part the measure finds over the limit, and not one at it', () => {
  const at = { containers: [{ content: 'ok', media: [] }, { content: '字'.repeat(140), media: [] }], block: undefined };
  assert.equal(measure(at).parts[1]!.length, 280);
  assert.doesNotThrow(() => judge(at));
  const over = { containers: [{ content: 'ok', media: [] }, { content: '字'.repeat(141), media: [] }], block: undefined };
  assert.equal(measure(over).parts[1]!.length, 282);
  assert.throws(() => judge(over), /container 2 is 282 characters as X counts them; X allows 280/);
});
