// Mastodon's judgement and measure from the post alone (shape.ts): how Mastodon counts (content warning
// and text together, in graphemes, links as 23, remote mentions as their local part), what no instance
// takes, and the instance's own limits when given.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PreflightPost } from '../../../src/core/post.ts';
import { countableText, DEFAULT_LIMITS, judge, judgeWith, measure } from '../../../src/networks/mastodon/shape.ts';

const post = (containers: { content: string; media?: string[] }[], block?: Record<string, unknown>): PreflightPost => ({
  containers: containers.map((c) => ({ content: c.content, media: (c.media ?? []).map((filename) => ({ url: `https://media.example/${filename}`, filename })) })),
  block,
} as unknown as PreflightPost);

const refusal = (fn: () => void): string => {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  return assert.fail('not refused');
};

describe('how Mastodon counts', () => {
  test('a link is 23 characters whatever its length, a sentence-ending dot left out', () => {
    assert.equal(countableText(`see https://example.com/${'x'.repeat(100)}.`, 23), `see ${'x'.repeat(23)}.`);
  });

  test('a remote mention counts as its local part; an e-mail address is not a mention', () => {
    assert.equal(countableText('hi @alice@example.social and bob@mail.example', 23), 'hi @alice and bob@mail.example');
  });

  test('graphemes: a family emoji is one; the content warning counts too', () => {
    const [part] = measure(post([{ content: '👨‍👩‍👧 ok' }], { spoilerText: 'cw' })).parts;
    assert.deepEqual([part!.length, part!.limit, part!.unit], [6, 500, 'graphemes']);
    assert.match(part!.note!, /content warning/);
  });

  test('500 fits, 501 is refused, naming the instance\'s limit', () => {
    judge(post([{ content: 'a'.repeat(500) }]));
    assert.match(refusal(() => judge(post([{ content: 'a'.repeat(490) }], { spoilerText: 'eleven char' }))), /501 characters .* allows 500$/);
  });
});

describe('what Mastodon refuses', () => {
  test('a poll beside media, at create as at publish', () => {
    const both = post([{ content: 'x', media: ['a.jpg'] }], { poll: { options: ['a', 'b'], expiresIn: 600 } });
    assert.match(refusal(() => judge(both, 'create')), /media or a poll/);
  });

  test('five images on a default instance; at create the count is left to the instance', () => {
    const five = post([{ content: 'x', media: ['1.jpg', '2.jpg', '3.jpg', '4.jpg', '5.jpg'] }]);
    judge(five, 'create');
    assert.equal(refusal(() => judge(five)), 'mastodon: container 1 has 5 media; the instance takes 4 at most');
    judgeWith(five, { ...DEFAULT_LIMITS, maxMedia: 8 });
  });

  test('a poll: too many options, a long option, duplicates, a duration out of range', () => {
    const poll = (p: Record<string, unknown>) => post([{ content: 'q' }], { poll: { options: ['a', 'b'], expiresIn: 600, ...p } });
    assert.match(refusal(() => judge(poll({ options: ['a', 'b', 'c', 'd', 'e'] }))), /5 options; the instance takes 4/);
    assert.match(refusal(() => judge(poll({ options: ['a', 'x'.repeat(51)] }))), /51 characters; the instance allows 50 per option/);
    assert.match(refusal(() => judge(poll({ options: ['a', 'a'] }))), /repeats an option/);
    assert.match(refusal(() => judge(poll({ expiresIn: 60 }))), /closes after 60 seconds; the instance takes 300 to 2629746/);
  });

  test('an empty status, and a file that is neither image nor video', () => {
    assert.match(refusal(() => judge(post([{ content: 'root' }, { content: '  ' }]))), /container 2 has neither text nor media/);
    assert.match(refusal(() => judge(post([{ content: 'doc', media: ['a.pdf'] }]))), /a.pdf is neither an image nor a video/);
  });
});
