// Threads' measure: every container a post of the thread, counted as Threads counts (an emoji is its
// UTF-8 bytes), against the limit its judge refuses with.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judge, measure } from '../../../src/networks/threads/shape.ts';

test('an emoji counts its UTF-8 bytes; the root carries threads.content', () => {
  const post = { containers: [{ content: 'shared', media: [] }, { content: 'ok 😀', media: [{ url: 'https://cdn.example.com/v.mp4', filename: 'v.mp4' }] }], block: { content: 'Hello' } };
  assert.deepEqual(measure(post), {
    parts: [
      { role: 'post', text: 'Hello', length: 5, limit: 500, unit: 'emoji_bytes', media: [] },
      { role: 'reply', text: 'ok 😀', length: 3 + 4, limit: 500, unit: 'emoji_bytes', media: [{ filename: 'v.mp4', kind: 'video' }] },
    ],
    leftOut: 0,
  });
});

test('the judge refuses the part the measure finds over 500', () => {
  const post = (text: string) => ({ containers: [{ content: 'root', media: [] }, { content: text, media: [] }], block: undefined });
  assert.doesNotThrow(() => judge(post('😀'.repeat(125))));
  assert.equal(measure(post('😀'.repeat(126))).parts[1]!.length, 504);
  assert.throws(() => judge(post('😀'.repeat(126))), /container 2 is 504 characters long; Threads allows 500/);
});
