// The streamed multipart body (networks/multipart.ts) that Telegram's, Discord's and Pinterest's
// uploads send: read back by a standard form parser (undici's, as a server would), its fields, its
// files' bytes and names as sent, and the length it announced the exact number of bytes it streamed.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import type { MediaSource } from '../../src/networks/contract.ts';
import { streamedForm } from '../../src/networks/multipart.ts';

/** A file's bytes as a media source gives them: in pieces, never whole. */
function sourceOf(bytes: Buffer, contentType: string): MediaSource {
  return {
    size: bytes.length,
    contentType,
    read: () => Readable.from((function* pieces() { for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024); })()),
    bytes: async () => bytes,
  };
}

async function streamed(form: ReturnType<typeof streamedForm>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of form.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

test('fields, a JSON part and files in order, parsed back as sent; the announced length is the streamed one', async () => {
  const video = randomBytes(300_000);
  const photo = randomBytes(1234);
  const form = streamedForm([
    { name: 'chat_id', value: '@news' },
    { name: 'payload_json', value: JSON.stringify({ content: 'héllo' }), contentType: 'application/json' },
    { name: 'files[0]', filename: 'clip "one".mp4', source: sourceOf(video, 'video/mp4') },
    { name: 'photo', filename: 'a.jpg', source: sourceOf(photo, '') },
  ]);
  const bytes = await streamed(form);
  assert.equal(form.length, bytes.length);
  assert.match(form.contentType, /^multipart\/form-data; boundary=crier-[0-9a-f]{24}$/);
  const parsed = await new Response(new Uint8Array(bytes), { headers: { 'content-type': form.contentType } }).formData();
  assert.equal(parsed.get('chat_id'), '@news');
  assert.deepEqual(JSON.parse(String(parsed.get('payload_json'))), { content: 'héllo' });
  const clip = parsed.get('files[0]') as File;
  assert.equal(clip.name, 'clip _one_.mp4', 'quotes in a file name cannot end its header');
  assert.equal(clip.type, 'video/mp4');
  assert.ok(Buffer.from(await clip.arrayBuffer()).equals(video));
  const image = parsed.get('photo') as File;
  assert.equal(image.type, 'application/octet-stream', 'a source without a type is sent as bytes');
  assert.ok(Buffer.from(await image.arrayBuffer()).equals(photo));
});

test('a form of fields alone, and an empty one, are still well formed', async () => {
  for (const parts of [[{ name: 'a', value: '1' }], []]) {
    const form = streamedForm(parts);
    const bytes = await streamed(form);
    assert.equal(form.length, bytes.length);
    const parsed = await new Response(new Uint8Array(bytes), { headers: { 'content-type': form.contentType } }).formData();
    assert.deepEqual([...parsed.keys()], parts.map((p) => p.name));
  }
});
