// Facebook's measure: the Page post's message with its media, later containers as the Page's comments;
// the judge refuses the message the measure finds over 63,206 characters.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkShape, measure } from '../../../src/networks/facebook/shape.ts';

const photo = (name: string) => ({ url: `https://cdn.example.com/${name}`, filename: name });

test('the message is facebook.content; the photos are the root\'s; later containers are comments', () => {
  const post = { containers: [{ content: 'shared', media: [photo('a.jpg'), photo('b.jpg')] }, { content: 'More below', media: [] }], block: { content: 'On the Page' } };
  assert.deepEqual(measure(post), {
    parts: [
      { role: 'post', text: 'On the Page', length: 11, limit: 63_206, unit: 'characters', media: [{ filename: 'a.jpg', kind: 'image' }, { filename: 'b.jpg', kind: 'image' }] },
      { role: 'comment', text: 'More below', length: 10, limit: null, unit: 'characters', media: [] },
    ],
    leftOut: 0,
  });
});

test('the judge refuses at 63,207 characters, where the measure says so', () => {
  const post = (n: number) => ({ containers: [{ content: 'a'.repeat(n), media: [] }], block: undefined });
  assert.doesNotThrow(() => checkShape(post(63_206)));
  assert.equal(measure(post(63_207)).parts[0]!.length, 63_207);
  assert.throws(() => checkShape(post(63_207)), /the post's text is 63207 characters; Facebook takes up to 63206/);
});
