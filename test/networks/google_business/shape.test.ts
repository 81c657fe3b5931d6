// Google Business Profile's measure: the localPost's summary, an event's title and the photo; later
// containers left out; the judge refuses what the measure finds over its limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judge, measure } from '../../../src/networks/google_business/shape.ts';

const photo = { url: 'https://cdn.example.com/shop.jpg', filename: 'shop.jpg' };

test('an event shows its title apart from the summary; the later container is left out', () => {
  const event = { title: 'Open day', startDate: '2026-12-01', endDate: '2026-12-01' };
  const post = { containers: [{ content: 'Come by', media: [photo] }, { content: 'not sent', media: [] }], block: { topicType: 'EVENT', event } };
  assert.deepEqual(measure(post), {
    parts: [{ role: 'post', title: { text: 'Open day', length: 8, limit: 58, unit: 'characters' }, text: 'Come by', length: 7, limit: 1500, unit: 'characters', media: [{ filename: 'shop.jpg', kind: 'image' }] }],
    leftOut: 1,
  });
});

test('the judge refuses the summary at 1,501 characters, where the measure says so', () => {
  const post = (n: number) => ({ containers: [{ content: 'a'.repeat(n), media: [] }], block: undefined });
  assert.doesNotThrow(() => judge(post(1500)));
  assert.equal(measure(post(1501)).parts[0]!.length, 1501);
  assert.throws(() => judge(post(1501)), /the post's text is 1501 characters; a Google Business Profile post takes up to 1500/);
});
