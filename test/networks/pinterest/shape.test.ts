// Pinterest's measure: the pin's title (the block's, else the description's first 100 characters),
// description and media; later containers left out; the judge refuses what the measure finds over its limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judge, measure } from '../../../src/networks/pinterest/shape.ts';

const image = { url: 'https://cdn.example.com/pin.jpg', filename: 'pin.jpg' };

test('the title defaults to the description\'s first 100 characters; the later container is left out', () => {
  const description = 'd'.repeat(150);
  const post = { containers: [{ content: description, media: [image] }, { content: 'not sent', media: [] }], block: { board_id: 'b1' } };
  assert.deepEqual(measure(post), {
    parts: [{ role: 'post', title: { text: 'd'.repeat(100), length: 100, limit: 100, unit: 'characters' }, text: description, length: 150, limit: 800, unit: 'characters', media: [{ filename: 'pin.jpg', kind: 'image' }] }],
    leftOut: 1,
  });
});

test('the judge refuses the description at 801 characters, where the measure says so', () => {
  const post = (n: number) => ({ containers: [{ content: 'a'.repeat(n), media: [image] }], block: { board_id: 'b1' } });
  assert.doesNotThrow(() => judge(post(800)));
  assert.equal(measure(post(801)).parts[0]!.length, 801);
  assert.throws(() => judge(post(801)), /the pin's description is 801 characters; Pinterest takes up to 800/);
});
