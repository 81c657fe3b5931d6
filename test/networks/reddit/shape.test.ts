// Reddit's measure: the submission's title and self text (none for a link post), later containers as
// comments; the judge refuses what the measure finds over its limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judge, measure } from '../../../src/networks/reddit/shape.ts';

test('a self post: the title apart, the text reddit.content; a later container is a comment', () => {
  const post = { containers: [{ content: 'shared', media: [] }, { content: 'Edit: thanks', media: [] }], block: { subreddit: 'test', title: 'Hello Reddit', content: 'Body' } };
  assert.deepEqual(measure(post), {
    parts: [
      { role: 'post', title: { text: 'Hello Reddit', length: 12, limit: 300, unit: 'characters' }, text: 'Body', length: 4, limit: 40_000, unit: 'characters', media: [] },
      { role: 'comment', text: 'Edit: thanks', length: 12, limit: null, unit: 'characters', media: [] },
    ],
    leftOut: 0,
  });
});

test('a link post sends no text, and says so', () => {
  const part = measure({ containers: [{ content: 'ignored', media: [] }], block: { subreddit: 'test', title: 'A link', url: 'https://example.com/' } }).parts[0]!;
  assert.deepEqual([part.text, part.note], ['', 'a link post to https://example.com/: Reddit shows the link, not the text']);
});

test('the judge refuses the title at 301 characters, where the measure says so', () => {
  const post = (n: number) => ({ containers: [{ content: 'x', media: [] }], block: { subreddit: 'test', title: 't'.repeat(n) } });
  assert.doesNotThrow(() => judge(post(300)));
  assert.equal(measure(post(301)).parts[0]!.title!.length, 301);
  assert.throws(() => judge(post(301)), /reddit\.title is 301 characters; Reddit takes up to 300/);
});
