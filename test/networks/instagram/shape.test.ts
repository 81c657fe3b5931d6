// Instagram's measure: the caption (none on a Story) with the root's media, later containers as
// comments; the judge (plan.ts) refuses the caption the measure finds over 2,200 characters, and the
// container plan sends that caption.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkShape, planRoot } from '../../../src/networks/instagram/plan.ts';
import { measure } from '../../../src/networks/instagram/shape.ts';
import type { PublishInput } from '../../../src/networks/contract.ts';

const image = (name: string) => ({ url: `https://cdn.example.com/${name}`, filename: name });

test('the caption is instagram.content, else instagram.caption, else the root text; a carousel shows its items', () => {
  const post = { containers: [{ content: 'shared', media: [image('a.jpg'), image('b.png')] }, { content: 'Link in bio', media: [] }], block: { caption: 'From the block' } };
  assert.deepEqual(measure(post), {
    parts: [
      { role: 'post', text: 'From the block', length: 14, limit: 2200, unit: 'characters', media: [{ filename: 'a.jpg', kind: 'image' }, { filename: 'b.png', kind: 'image' }] },
      { role: 'comment', text: 'Link in bio', length: 11, limit: null, unit: 'characters', media: [] },
    ],
    leftOut: 0,
  });
  assert.equal(planRoot(post as unknown as PublishInput).caption, 'From the block');
});

test('a Story has no caption, and says so', () => {
  const story = measure({ containers: [{ content: '', media: [image('a.jpg')] }], block: { publishAsStory: true } }).parts[0]!;
  assert.deepEqual([story.text, story.length, story.note], ['', 0, 'a Story carries no caption']);
});

test('the judge refuses at 2,201 characters, where the measure says so', () => {
  const post = (n: number) => ({ containers: [{ content: 'a'.repeat(n), media: [image('a.jpg')] }], block: undefined });
  assert.doesNotThrow(() => checkShape(post(2200)));
  assert.equal(measure(post(2201)).parts[0]!.length, 2201);
  assert.throws(() => checkShape(post(2201)), /the caption is 2201 characters; Instagram takes up to 2200/);
});
