// Publishing to Pinterest over real HTTP: Crier's API and worker (the registry's Pinterest adapter)
// behind an HTTPS front, the Pinterest emulator as the network. Each test checks what Pinterest
// received — the pin's fields, its media_source, the bytes it fetched, decoded or was uploaded, the
// order of the video calls — and what Crier reports.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PNG_1X1 } from '../../helpers/publishing.ts';
import { makeJpeg, paddedVideo } from '../../helpers/media.ts';
import { media, pinOf, publish, startPinterestSetup, type PinterestSetup } from './setup.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const MB = 1024 * 1024;

describe('publishing to Pinterest', () => {
  let s: PinterestSetup;
  let jpeg: Buffer;
  let external: string;

  before(async () => {
    s = await startPinterestSetup();
    jpeg = await makeJpeg('600x900');
    s.h.stack.media.route('/photo.jpg', (_req, res) => { res.writeHead(200, { 'content-type': 'image/jpeg' }); res.end(jpeg); });
    external = s.h.stack.media.url;
  });
  after(() => s.close());

  it('an image pin of Crier\'s own media: image_url at PUBLIC_BASE_URL, every block field as v5 names it', async () => {
    const image = await media(s, 'cake.jpg', jpeg, 'image/jpeg');
    const post = await publish(s, {
      containers: [{ content: 'shared text', media: [image] }],
      pinterest: { board_id: s.board.id, content: 'Lemon cake, step by step', title: 'Lemon cake', link: 'https://cakes.example.com/lemon', alt_text: 'A lemon cake on a plate' },
    });
    const pin = pinOf(s, post);
    assert.deepEqual(
      [pin.boardId, pin.title, pin.description, pin.link, pin.altText, pin.mediaType],
      [s.board.id, 'Lemon cake', 'Lemon cake, step by step', 'https://cakes.example.com/lemon', 'A lemon cake on a plate', 'image'],
    );
    assert.deepEqual(pin.mediaSource, { source_type: 'image_url', url: image.url });
    assert.ok(image.url.startsWith(s.h.front.url), 'Crier\'s own media URL, at PUBLIC_BASE_URL');
    assert.deepEqual(pin.files.map((f) => [f.sha256, f.contentType, f.from]), [[sha256(jpeg), 'image/jpeg', image.url]], 'Pinterest fetched the very bytes');
    assert.equal(post.socialAccounts[0].platformPostUrl, `https://www.pinterest.com/pin/${pin.id}/`);
    assert.equal(post.socialAccounts[0].error, null);
  });

  it('without a title, the pin\'s title is the first 100 characters of its description (the content)', async () => {
    const content = `${'Ä'.repeat(60)}${'b'.repeat(60)} and more`;
    const post = await publish(s, { containers: [{ content, media: [await media(s, 't.jpg', jpeg, 'image/jpeg')] }], pinterest: { board_id: s.board.id } });
    const pin = pinOf(s, post);
    assert.equal(pin.description, content);
    assert.equal(pin.title, `${'Ä'.repeat(60)}${'b'.repeat(40)}`);
    assert.equal(pin.link, null);
    assert.equal(pin.altText, null);
  });

  it('a pin without text goes without title and description', async () => {
    const pin = pinOf(s, await publish(s, { containers: [{ media: [await media(s, 'bare.jpg', jpeg, 'image/jpeg')] }], pinterest: { board_id: s.board.id } }));
    assert.deepEqual([pin.title, pin.description], [null, null]);
  });

  it('an image from another site goes as image_base64 of the bytes Crier fetched', async () => {
    const post = await publish(s, { containers: [{ content: 'a cat', media: [{ url: `${external}/cat.png`, filename: 'cat.png' }] }], pinterest: { board_id: s.board.id } });
    const pin = pinOf(s, post);
    assert.deepEqual(pin.mediaSource, { source_type: 'image_base64', content_type: 'image/png', data: { sha256: sha256(PNG_1X1), bytes: PNG_1X1.length, contentType: 'image/png', from: 'base64' } });
  });

  it('several images: multiple_image_urls in order for Crier\'s media, multiple_image_base64 otherwise', async () => {
    const jpegs = [jpeg, await makeJpeg('400x400'), await makeJpeg('300x500')];
    const own = [];
    for (const [i, bytes] of jpegs.entries()) own.push(await media(s, `step${i}.jpg`, bytes, 'image/jpeg'));
    const byUrl = pinOf(s, await publish(s, { containers: [{ content: 'three steps', media: own }], pinterest: { board_id: s.board.id } }));
    assert.equal(byUrl.mediaType, 'multiple_images');
    assert.deepEqual(byUrl.mediaSource, { source_type: 'multiple_image_urls', items: own.map((m) => ({ url: m.url })) });
    assert.deepEqual(byUrl.files.map((f) => f.sha256), jpegs.map(sha256));

    const remote = [{ url: `${external}/photo.jpg`, filename: 'photo.jpg' }, { url: `${external}/cat.png`, filename: 'cat.png' }];
    const inline = pinOf(s, await publish(s, { containers: [{ content: 'two', media: remote }], pinterest: { board_id: s.board.id } }));
    assert.equal((inline.mediaSource as any).source_type, 'multiple_image_base64');
    assert.deepEqual(inline.files.map((f) => [f.sha256, f.contentType]), [[sha256(jpeg), 'image/jpeg'], [sha256(PNG_1X1), 'image/png']]);
  });

  it('a video pin: registered, uploaded as the form asked, polled until succeeded, and only then the pin with its cover', async () => {
    s.pin.setProcessingPolls(2);
    const bytes = await paddedVideo(3 * MB);
    const clip = await media(s, 'clip.mp4', bytes, 'video/mp4');
    const callsBefore = s.pin.calls().length;
    const post = await publish(s, { containers: [{ content: 'how it is made', media: [clip] }], pinterest: { board_id: s.board.id, title: 'Made' } });
    const pin = pinOf(s, post);
    const registered = s.pin.media().find((m) => m.id === (pin.mediaSource as any).media_id)!;
    assert.deepEqual(pin.mediaSource, { source_type: 'video_id', media_id: registered.id, cover_image_key_frame_time: 0 }, 'no cover given: the first frame');
    assert.equal(pin.mediaType, 'video');
    assert.deepEqual([registered.upload!.sha256, registered.upload!.bytes, registered.uploads, registered.status], [sha256(bytes), bytes.length, 1, 'succeeded']);
    const calls = s.pin.calls().slice(callsBefore).map((c) => `${c.method} ${c.path.replace(registered.id, '{id}')} ${c.status}`);
    assert.deepEqual(calls, [
      'POST /v5/media 201',
      'GET /v5/media/{id} 200', // still `registered`: nothing was uploaded yet
      'POST /media-upload/ 204',
      'GET /v5/media/{id} 200', 'GET /v5/media/{id} 200', // processing, processing
      'GET /v5/media/{id} 200', // succeeded
      'POST /v5/pins 201',
    ]);
  });

  it('a video pin\'s cover_image_url: Crier\'s own image by URL, attached when the pin is created after processing', async () => {
    const cover = await media(s, 'cover.jpg', jpeg, 'image/jpeg');
    const clip = await media(s, 'covered.mp4', await paddedVideo(MB), 'video/mp4');
    const pin = pinOf(s, await publish(s, { containers: [{ content: 'covered', media: [clip] }], pinterest: { board_id: s.board.id, cover_image_url: cover.url } }));
    assert.equal((pin.mediaSource as any).cover_image_url, cover.url);
    assert.equal((pin.mediaSource as any).cover_image_key_frame_time, undefined);
    assert.deepEqual(pin.files.map((f) => f.sha256), [sha256(jpeg)]);
  });

  it('the emulator refuses a video pin before its media succeeded, which is why Crier waits', async () => {
    const media = await fetch(`${s.pin.url}/v5/media`, { method: 'POST', headers: { authorization: `Bearer ${s.ada.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ media_type: 'video' }) });
    const { media_id } = await media.json() as { media_id: string };
    const early = await fetch(`${s.pin.url}/v5/pins`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.ada.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ board_id: s.board.id, media_source: { source_type: 'video_id', media_id, cover_image_key_frame_time: 0 } }),
    });
    assert.equal(early.status, 400);
    assert.deepEqual(await early.json(), { code: 1, message: `The video is not ready: media ${media_id} is registered.` });
  });

  it('a thread: the root becomes the pin, later containers are not published, and the destination says so', async () => {
    const pinsBefore = s.pin.pins().length;
    const post = await publish(s, { containers: [{ content: 'root', media: [await media(s, 'r.jpg', jpeg, 'image/jpeg')] }, { content: 'second' }, { content: 'third' }], pinterest: { board_id: s.board.id } });
    const pin = pinOf(s, post);
    assert.equal(pin.description, 'root');
    assert.equal(s.pin.pins().length, pinsBefore + 1, 'one pin, nothing else');
    assert.equal(post.socialAccounts[0].error, 'Pinterest has no replies or comments for apps: containers 2 to 3 were not published');
  });

  it('what a pin cannot carry is refused when the post is created, field by field; a cover on an image pin is ignored with a warning', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const res = await s.h.server.request('POST', '/v1/posts', { key: s.org.key, body: { accounts: [s.ada.id], ...body } });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      return JSON.stringify(res.body);
    };
    const img = { url: `${external}/cat.png`, filename: 'cat.png' };
    assert.match(await refused({ content: 'text only', pinterest: { board_id: s.board.id } }), /socialAccounts\[0\]","message":"pinterest: a pin needs an image or a video/);
    assert.match(await refused({ containers: [{ content: 'x', media: Array(6).fill(img) }], pinterest: { board_id: s.board.id } }), /at most 5 images, got 6/);
    assert.match(await refused({ containers: [{ content: 'x', media: [img, { url: `${external}/v.mp4`, filename: 'v.mp4' }] }], pinterest: { board_id: s.board.id } }), /one video and nothing else/);
    assert.match(await refused({ containers: [{ content: 'x'.repeat(801), media: [img] }], pinterest: { board_id: s.board.id } }), /containers\[0\]\.content.*800 characters/);
    assert.match(await refused({ containers: [{ content: 'x', media: [img] }], pinterest: { board_id: s.board.id, content: 'y'.repeat(801) } }), /pinterest\.content/);
    // A cover on an image pin is harmless: ignored with a warning (checked by a dry run, which stores nothing).
    const covered = await s.h.server.request('POST', '/v1/posts?dry_run=true', { key: s.org.key, body: { accounts: [s.ada.id], containers: [{ content: 'x', media: [img] }], pinterest: { board_id: s.board.id, cover_image_url: `${external}/cat.png` } } });
    assert.equal(covered.status, 200, JSON.stringify(covered.body));
    assert.match(covered.body.warnings[0], /^"pinterest\.cover_image_url" was ignored: a cover is for a video pin/);
    assert.match(await refused({ containers: [{ content: 'x', media: [{ url: `${external}/a.gif`, filename: 'doc.pdf' }] }], pinterest: { board_id: s.board.id } }), /media\[0\]\.filename/);
    pinOf(s, await publish(s, { containers: [{ content: 'x'.repeat(800), media: [img] }], pinterest: { board_id: s.board.id } }));
  });
});
