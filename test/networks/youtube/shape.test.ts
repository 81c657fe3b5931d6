// YouTube's measure: the video with its title (the block's, else the description's first line) and
// description (UTF-8 bytes, #Shorts added for a Short), later containers as comments; the judge refuses
// the description the measure finds over 5,000 bytes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checked, measure } from '../../../src/networks/youtube/shape.ts';

const clip = { url: 'https://cdn.example.com/clip.mp4', filename: 'clip.mp4' };

test('the title is the description\'s first line, the description a Short\'s with #Shorts, counted in bytes', () => {
  const post = { containers: [{ content: 'Café run\nby the river', media: [clip] }, { content: 'Thanks!', media: [] }], block: { isShort: true } };
  assert.deepEqual(measure(post), {
    parts: [
      {
        role: 'post', title: { text: 'Café run', length: 8, limit: 100, unit: 'characters' },
        text: 'Café run\nby the river\n\n#Shorts', length: 31, limit: 5000, unit: 'utf8_bytes', media: [{ filename: 'clip.mp4', kind: 'video' }],
      },
      { role: 'comment', text: 'Thanks!', length: 7, limit: null, unit: 'characters', media: [] },
    ],
    leftOut: 0,
  });
});

test('the judge refuses the description past 5,000 bytes, where the measure says so; a given title is measured as given', () => {
  const post = (n: number) => ({ containers: [{ content: 'é'.repeat(n), media: [clip] }], block: { title: 'My clip' } });
  assert.equal(measure(post(2500)).parts[0]!.length, 5000);
  assert.doesNotThrow(() => checked(post(2500)));
  assert.equal(measure(post(2501)).parts[0]!.length, 5002);
  assert.throws(() => checked(post(2501)), /the description is 5002 bytes in UTF-8; a YouTube description takes up to 5000/);
  assert.equal(measure(post(1)).parts[0]!.title!.text, 'My clip');
});
