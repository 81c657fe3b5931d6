// TikTok's measure: the root as TikTok receives it (a direct post's caption, a draft's nothing, a photo
// post's title and description cut to fit), later containers left out; the judge refuses what the
// measure finds over its limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { measure, shapeOf } from '../../../src/networks/tiktok/shape.ts';

const clip = { url: 'https://cdn.example.com/clip.mp4', filename: 'clip.mp4' };
const photo = (name: string) => ({ url: `https://cdn.example.com/${name}`, filename: name });

test('a direct-post video: the caption in UTF-16 units, within 2,200; the later container is left out', () => {
  const post = { containers: [{ content: 'Dance 😀', media: [clip] }, { content: 'reply', media: [] }], block: { postMode: 'DIRECT_POST', privacyLevel: 'PUBLIC_TO_EVERYONE' } };
  assert.deepEqual(measure(post), {
    parts: [{ role: 'post', text: 'Dance 😀', length: 8, limit: 2200, unit: 'utf16', media: [{ filename: 'clip.mp4', kind: 'video' }] }],
    leftOut: 1,
  });
  const long = { ...post, containers: [{ content: 'a'.repeat(2201), media: [clip] }] };
  assert.equal(measure(long).parts[0]!.length, 2201);
  assert.throws(() => shapeOf(long), /the caption is 2201 UTF-16 code units long; TikTok takes at most 2200/);
});

test('an inbox draft gets no caption, and says so', () => {
  const part = measure({ containers: [{ content: 'Dance', media: [clip] }], block: undefined }).parts[0]!;
  assert.deepEqual([part.text, part.limit, part.note], ['', null, 'sent to the creator\'s TikTok inbox as a draft, without a caption: they write it in TikTok']);
});

test('photos: the title is the text cut to 90 units unless given, the description the text; a given title over 90 is refused', () => {
  const text = 'b'.repeat(120);
  const part = measure({ containers: [{ content: text, media: [photo('a.jpg'), photo('b.webp')] }], block: undefined }).parts[0]!;
  assert.deepEqual(part.title, { text: 'b'.repeat(90), length: 90, limit: 90, unit: 'utf16' });
  assert.deepEqual([part.text, part.length, part.limit], [text, 120, 4000]);
  const titled = { containers: [{ content: 'x', media: [photo('a.jpg')] }], block: { title: 't'.repeat(91) } };
  assert.equal(measure(titled).parts[0]!.title!.length, 91);
  assert.throws(() => shapeOf(titled), /tiktok\.title is 91 UTF-16 code units long; TikTok takes at most 90/);
});
