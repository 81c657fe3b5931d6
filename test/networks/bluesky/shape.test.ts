// Bluesky's measure: every container a post of the thread, in graphemes, against the limit its judge
// refuses with; the adapter sends the measured texts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judge, measure, textsOf } from '../../../src/networks/bluesky/shape.ts';

test('graphemes: a family emoji is one; the root carries bluesky.content; the adapter sends those texts', () => {
  const post = { containers: [{ content: 'shared', media: [{ url: 'https://cdn.example.com/a.png', filename: 'a.png' }] }, { content: 'hi 👨‍👩‍👧', media: [] }], block: { content: 'Skeet' } };
  assert.deepEqual(measure(post).parts, [
    { role: 'post', text: 'Skeet', length: 5, limit: 300, unit: 'graphemes', media: [{ filename: 'a.png', kind: 'image' }] },
    { role: 'reply', text: 'hi 👨‍👩‍👧', length: 4, limit: 300, unit: 'graphemes', media: [] },
  ]);
  assert.deepEqual(textsOf(post), ['Skeet', 'hi 👨‍👩‍👧']);
});

test('the judge refuses at 301 graphemes, where the measure says so', () => {
  // e and a combining acute accent: one grapheme, two code points.
  const post = (n: number) => ({ containers: [{ content: 'e\u0301'.repeat(n), media: [] }], block: undefined });
  assert.equal(measure(post(300)).parts[0]!.length, 300);
  assert.doesNotThrow(() => judge(post(300)));
  assert.throws(() => judge(post(301)), /container 1 has 301 characters \(graphemes\); Bluesky allows 300/);
});
