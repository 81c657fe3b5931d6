// Discord's judgement and measure (shape.ts) from the post alone: 2,000 characters counted as code
// points, 10 files a message, no empty message (an embed counts on the root), a forum post's name up
// to 100; the measure shows each container as a message, the thread name as the root's title.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PublishError } from '../../../src/core/errors.ts';
import type { PreflightPost } from '../../../src/core/post.ts';
import { judge, measure } from '../../../src/networks/discord/shape.ts';

const post = (containers: { content: string; media?: number }[], block?: Record<string, unknown>): PreflightPost => ({
  containers: containers.map((c) => ({ content: c.content, media: Array.from({ length: c.media ?? 0 }, (_, i) => ({ url: `https://example.com/${i}.jpg`, filename: `${i}.jpg` })) })),
  block,
} as PreflightPost);

const refusal = (p: PreflightPost): string => {
  try {
    judge(p);
  } catch (error) {
    assert.ok(error instanceof PublishError);
    assert.equal(error.code, 'invalid');
    return error.message;
  }
  return assert.fail('judged publishable');
};

describe('judge', () => {
  test('2,000 characters as code points pass (emoji count one each); 2,001 are refused', () => {
    judge(post([{ content: '😀'.repeat(2000) }]));
    assert.equal(refusal(post([{ content: 'x'.repeat(2001) }])), 'discord: container 1 is 2001 characters; a Discord message takes 2000');
  });

  test('the block\'s content is what the root is judged by', () => {
    judge(post([{ content: 'x'.repeat(3000) }], { content: 'short' }));
    assert.match(refusal(post([{ content: 'short' }, { content: 'y'.repeat(2001) }])), /container 2 is 2001 characters/);
  });

  test('10 files a message; 11 are refused', () => {
    judge(post([{ content: '', media: 10 }]));
    assert.equal(refusal(post([{ content: 'x', media: 11 }])), 'discord: container 1 has 11 files; a Discord message takes 10 at most');
  });

  test('an empty message is refused, unless the root carries an embed', () => {
    assert.match(refusal(post([{ content: 'root' }, { content: '  ' }])), /container 2 has neither text, embed nor file/);
    judge(post([{ content: '' }], { embeds: [{ title: 'only an embed' }] }));
  });

  test('a thread name over 100 characters is refused', () => {
    assert.equal(refusal(post([{ content: 'x' }], { threadName: 'n'.repeat(101) })), 'discord: the thread name is 101 characters; Discord allows 100');
  });
});

describe('measure', () => {
  test('each container a message; a forum post\'s name the root\'s title', () => {
    const measured = measure(post([{ content: 'root', media: 1 }, { content: 'next' }], { threadName: 'Ideas', content: 'the root' }));
    assert.equal(measured.leftOut, 0);
    assert.deepEqual(measured.parts.map((p) => [p.role, p.text, p.length, p.limit, p.unit, p.media.length]), [['post', 'the root', 8, 2000, 'characters', 1], ['reply', 'next', 4, 2000, 'characters', 0]]);
    assert.deepEqual(measured.parts[0]!.title, { text: 'Ideas', length: 5, limit: 100, unit: 'characters' });
  });
});
