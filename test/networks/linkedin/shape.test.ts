// LinkedIn's measure: the commentary with the root's media or article card, later containers as
// comments; the judge refuses the commentary the measure finds over 3,000 characters.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkShape, measure } from '../../../src/networks/linkedin/shape.ts';

test('the commentary is linkedin.content; an article card is said; later containers are comments, with no limit judged', () => {
  const post = { containers: [{ content: 'shared', media: [] }, { content: 'First comment', media: [] }], block: { content: 'For LinkedIn', article: { source: 'https://example.com/a', title: 'Our launch' } } };
  assert.deepEqual(measure(post), {
    parts: [
      { role: 'post', text: 'For LinkedIn', length: 12, limit: 3000, unit: 'characters', media: [], note: 'with an article card: Our launch' },
      { role: 'comment', text: 'First comment', length: 13, limit: null, unit: 'characters', media: [] },
    ],
    leftOut: 0,
  });
});

test('the judge refuses at 3,001 characters, where the measure says so', () => {
  const post = (n: number) => ({ containers: [{ content: 'é'.repeat(n), media: [] }], block: undefined });
  assert.equal(measure(post(3000)).parts[0]!.length, 3000);
  assert.doesNotThrow(() => checkShape(post(3000)));
  assert.throws(() => checkShape(post(3001)), /the post's text is 3001 characters; LinkedIn takes up to 3000/);
});
