// Vimeo's measure: the video with its name (the block's title, else the file's name) and description,
// later containers as comments; Vimeo documents no length limit, so none is given.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { measure } from '../../../src/networks/vimeo/shape.ts';

test('the name is the file\'s without its extension, the description vimeo.description, no limit', () => {
  const post = { containers: [{ content: 'shared', media: [{ url: 'https://cdn.example.com/Reel 2026.mov', filename: 'Reel 2026.mov' }] }, { content: 'Credits', media: [] }], block: { description: 'For Vimeo' } };
  assert.deepEqual(measure(post), {
    parts: [
      { role: 'post', title: { text: 'Reel 2026', length: 9, limit: null, unit: 'characters' }, text: 'For Vimeo', length: 9, limit: null, unit: 'characters', media: [{ filename: 'Reel 2026.mov', kind: 'video' }] },
      { role: 'comment', text: 'Credits', length: 7, limit: null, unit: 'characters', media: [] },
    ],
    leftOut: 0,
  });
});
